/**
 * The search index of `serve` and `mcp`, built when they start: in the background, so reads are served
 * meanwhile, with its progress on stderr. Over HTTP a search waits for it at most a second, then
 * answers `SEARCH_UNAVAILABLE` with `retryAfterSeconds` and a `Retry-After` header; on stdio (`mcp`)
 * a search waits for it (`searchAfterWarmUp`), since agent clients there call `search_files` right
 * after `initialize` and show the model the error rather than retrying.
 *
 * @module
 */
import type { KnowledgeSource, SearchFilesOutput } from '../agent/index.js';
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
 * @param version - the version's label, named in the lines when a knowledge base has several.
 * @returns the build's end.
 */
export function warmInBackground(
  command: string,
  source: KnowledgeSource,
  io: CliIo,
  signal: AbortSignal,
  knowledgeBase?: string,
  version?: string,
): Promise<void> {
  if (source.warm === undefined) return Promise.resolve();
  const index =
    (knowledgeBase === undefined
      ? 'search index'
      : `search index of \`${escapeControls(knowledgeBase)}\``) +
    (version === undefined ? '' : ` of version \`${version}\``);
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
        const meanwhile =
          command === 'mcp'
            ? 'searches wait for it'
            : 'searches answer 503 with Retry-After until it is ready';
        io.stderr.write(
          `knowledge-kit ${command}: ${index}: ${done} of ${total} pages${share}, ${seconds()} s; ${meanwhile}\n`,
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

/** Longest a search on stdio waits for the index being built: MCP clients give up on a call at 60 s. */
export const STDIO_SEARCH_WAIT_MS = 30_000;
/** A wait for the index longer than this (when a search alone would have been refused) is said in the answer. */
export const SAID_WAIT_MS = 1000;

/**
 * `source` whose `searchFiles` first waits for `indexed` (the search index built at start), at most
 * `waitMs` or until the call's signal aborts; then it asks `source` (which answers
 * `SEARCH_UNAVAILABLE` with `retryAfterSeconds` if the index is still not ready). An answer that
 * waited over `SAID_WAIT_MS` says so in its `message`. The other methods are `source`'s own.
 *
 * @param source - the served source.
 * @param indexed - settles when the build has ended (built or failed, as `warmInBackground`'s).
 * @param waitMs - the longest wait.
 * @returns the source to serve.
 * @example
 * ```ts
 * const served = searchAfterWarmUp(source, warmInBackground('mcp', source, io, signal));
 * ```
 */
export function searchAfterWarmUp(
  source: KnowledgeSource,
  indexed: Promise<void>,
  waitMs: number = STDIO_SEARCH_WAIT_MS,
): KnowledgeSource {
  let ready = false;
  void indexed.then(() => (ready = true));
  const searchFiles: KnowledgeSource['searchFiles'] = async (input, context) => {
    if (ready) return source.searchFiles(input, context);
    const started = performance.now();
    await waitAtMost(indexed, waitMs, context?.signal);
    const output: SearchFilesOutput = await source.searchFiles(input, context);
    const waited = performance.now() - started;
    if (waited <= SAID_WAIT_MS) return output;
    const said = `This search waited ${(waited / 1000).toFixed(1)} s for the search index, which was being built when the server started.`;
    return { ...output, message: output.message === null ? said : `${output.message} ${said}` };
  };
  // Over an empty target: a source may be frozen, and a proxy of a frozen object must return its own
  // values. Methods on a prototype (a class-based source) are found the same way.
  return new Proxy({} as KnowledgeSource, {
    get: (_, key) => {
      if (key === 'searchFiles') return searchFiles;
      const value: unknown = Reflect.get(source, key);
      return typeof value === 'function' ? (value as () => unknown).bind(source) : value;
    },
    has: (_, key) => key in source,
  });
}

/** Resolves when `promise` settles, `ms` have passed or `signal` aborts, whichever comes first. */
function waitAtMost(
  promise: Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    promise.then(done, done);
  });
}
