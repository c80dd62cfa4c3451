/** Loading a folder for the commands that need a clean catalog, and the source they serve it through. */
import { basename, resolve } from 'node:path';
import {
  createCatalogSource,
  type CatalogSourceOptions,
  type KnowledgeCallContext,
  type KnowledgeSource,
} from '../agent/index.js';
import { KNOWLEDGE_TOOLS } from '../agent/internals.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import type { LoadedKnowledgeDirectory, LoadKnowledgeDirectoryOptions } from '../node/index.js';
import { loadKnowledgeDirectoryWith, noMarkdownFiles } from '../node/internals.js';
import { CliExit, EXIT, readFailed, type CliIo } from './io.js';
import { count, textLine, toProblems } from './problems.js';

/**
 * A progress line for a long load, on a terminal only (a pipe or a log gets no redraws): nothing for
 * the first second, then `knowledge-kit <command>: loading <done>/<total> files…` redrawn at most ten
 * times a second, and erased at the end.
 *
 * @param command - the command, for the line.
 * @param io - its stderr.
 * @param now - the clock (tests pass their own).
 */
export function loadProgress(
  command: string,
  io: CliIo,
  now: () => number = Date.now,
): { update(done: number, total: number): void; end(): void } {
  const started = now();
  let shownAt = 0;
  let shown = false;
  return {
    update(done, total) {
      if (io.stderr.isTTY !== true) return;
      const at = now();
      if (at - started < 1000 || at - shownAt < 100) return;
      shownAt = at;
      shown = true;
      io.stderr.write(`\rknowledge-kit ${command}: loading ${done}/${total} files…`);
    },
    end() {
      if (shown) io.stderr.write('\r\u001b[K');
    },
  };
}

/**
 * Loads `dir` for `command`, with a progress line on a terminal when it takes over a second
 * (`loadProgress`); problems are printed to stderr as `check` prints them and end the command with
 * exit code 1; a folder that cannot be read ends it with 2.
 */
export async function loadFolder(
  command: string,
  dir: string,
  io: CliIo,
  options: LoadKnowledgeDirectoryOptions = {},
): Promise<LoadedKnowledgeDirectory> {
  let loaded: LoadedKnowledgeDirectory;
  const line = loadProgress(command, io);
  try {
    loaded = await loadKnowledgeDirectoryWith(dir, options, {
      onProgress: (done, total) => line.update(done, total),
    });
  } catch (error) {
    line.end();
    throw folderError(command, dir, error, io);
  }
  line.end();
  if (loaded.documents.length === 0) throw readFailed(command, noMarkdownFiles(dir, options));
  return loaded;
}

/** The `CliExit` for a failed load, after printing its problems. */
export function folderError(command: string, dir: string, error: unknown, io: CliIo): CliExit {
  if (!isKnowledgeError(error))
    return new CliExit(
      `knowledge-kit ${command}: ${error instanceof Error ? error.message : String(error)}`,
    );
  if (error.code === 'READ_FAILED') return readFailed(command, error);
  const problems = toProblems(error.issues, dir);
  for (const problem of problems) io.stderr.write(`${textLine(problem)}\n`);
  return new CliExit(
    `knowledge-kit ${command}: ${count(problems.length, 'problem')} in \`${dir}\`; fix them (\`knowledge-kit check ${dir}\` lists them too).`,
    EXIT.problems,
  );
}

/** The knowledge base ID for `dir`: `--id`, else the folder's name. */
export function knowledgeBaseId(dir: string, id: unknown): string {
  return typeof id === 'string' ? id : basename(resolve(dir)) || 'knowledge';
}

/** What the command line sets of a served folder's source: `--cursor-key-file`, `--max-chars`. */
export type ServedOptions = Pick<CatalogSourceOptions, 'cursorKey' | 'maxReadChars'>;

/**
 * A catalog source on a loaded folder; a folder loaded file by file also gives each file's status.
 */
export function sourceOf(
  loaded: LoadedKnowledgeDirectory & Partial<Pick<CatalogSourceOptions, 'fileStatus'>>,
  id: string,
  served: ServedOptions = {},
): KnowledgeSource {
  return createCatalogSource(loaded.catalog, {
    id,
    files: loaded.files,
    ...(loaded.fileStatus === undefined ? {} : { fileStatus: loaded.fileStatus }),
    linkRoot: loaded.linkRoot,
    publishedAt: loaded.publishedAt,
    ...served,
  });
}

/**
 * A source that forwards every call to whichever source `current()` gives at call time, so a reload can
 * swap the knowledge under a running server: calls in flight finish on the source they started on.
 */
export function liveSource(current: () => KnowledgeSource): KnowledgeSource {
  const forwarding: Record<string, unknown> = {};
  // One forwarding method per tool of the registry, then `warm`.
  for (const { method } of KNOWLEDGE_TOOLS) {
    forwarding[method] = (input: unknown, context?: KnowledgeCallContext) => {
      const source = current();
      const call = source[method] as (input: unknown, context?: KnowledgeCallContext) => unknown;
      return call.call(source, input, context);
    };
  }
  forwarding['warm'] = (context?: KnowledgeCallContext) =>
    current().warm?.(context) ?? Promise.resolve();
  return forwarding as unknown as KnowledgeSource;
}
