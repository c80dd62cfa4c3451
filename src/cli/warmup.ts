/**
 * The search index of `serve` and `mcp`, built when they start: in the background, so reads are served
 * meanwhile (a search waits for it at most a second, then answers `SEARCH_UNAVAILABLE` with
 * `retryAfterSeconds`, and over HTTP a `Retry-After` header), with its progress on stderr.
 *
 * @module
 */
import type { KnowledgeSource } from '../agent/index.js';
import type { CliIo } from './io.js';
import { escapeControls } from './problems.js';

/** No progress line before the build has run this long (a small knowledge base prints none). */
export const PROGRESS_AFTER_MS = 2000;
/** At most one progress line per this many milliseconds. */
export const PROGRESS_EVERY_MS = 5000;

/**
 * Start building `source`'s search index; resolves when it is built or has failed (never rejects).
 * Writes `knowledge-kit <command>: search index: <done> of <total> pages (<n>%)` now and then while
 * the build runs past `PROGRESS_AFTER_MS`, then `search index ready in <s> s`, or why it failed (the
 * next search tries again).
 *
 * @param command - `serve` or `mcp`, for the lines.
 * @param source - the served source (its `warm`, when it has one).
 * @param io - where the lines go.
 * @param signal - stops the build (the command is stopping), silently.
 * @param knowledgeBase - the knowledge base's ID, named in the lines when a command serves several.
 * @returns the build's end.
 */
export function warmInBackground(
  command: string,
  source: KnowledgeSource,
  io: CliIo,
  signal: AbortSignal,
  knowledgeBase?: string,
): Promise<void> {
  if (source.warm === undefined) return Promise.resolve();
  const index =
    knowledgeBase === undefined
      ? 'search index'
      : `search index of \`${escapeControls(knowledgeBase)}\``;
  const started = performance.now();
  let lastLine = started;
  const seconds = (): string => ((performance.now() - started) / 1000).toFixed(1);
  return source
    .warm({
      signal,
      onProgress: ({ done, total }) => {
        const now = performance.now();
        if (now - started < PROGRESS_AFTER_MS || now - lastLine < PROGRESS_EVERY_MS) return;
        lastLine = now;
        const share = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : '';
        io.stderr.write(
          `knowledge-kit ${command}: ${index}: ${done} of ${total} pages${share}, ${seconds()} s; searches answer 503 with Retry-After until it is ready\n`,
        );
      },
    })
    .then(
      () => {
        io.stderr.write(`knowledge-kit ${command}: ${index} ready in ${seconds()} s\n`);
      },
      (error: unknown) => {
        if (signal.aborted) return;
        const reason = error instanceof Error ? error.message : String(error);
        io.stderr.write(
          `knowledge-kit ${command}: the ${index} could not be built (${escapeControls(reason)}); each search tries again\n`,
        );
      },
    );
}
