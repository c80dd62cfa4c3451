/** A folder served by a long-running command: the current source, and `--watch` reloads that swap it. */
import {
  watchKnowledgeDirectory,
  type KnowledgeDirectoryWatcher,
  type LoadKnowledgeDirectoryOptions,
} from '../node/index.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import type { KnowledgeSource } from '../agent/index.js';
import { folderError, liveSource, loadFolder, sourceOf } from './folder.js';
import { reportLinks } from './linkRoot.js';
import type { CliIo } from './io.js';
import { count, escapeControls, textLine, toProblems } from './problems.js';

/** The served knowledge of `serve` and `mcp`. */
export interface LiveFolder {
  /** Forwards each call to the newest good source. */
  readonly source: KnowledgeSource;
  /** Documents in the current catalog. */
  documents(): number;
  /** Stops watching (when watching). */
  close(): Promise<void>;
}

/**
 * Loads `dir` (with the loader's `options`) and, with `watch`, reloads it on change: a clean reload
 * swaps the source (calls in flight finish on the old one); a failed one (problems, or a catalog the
 * source refuses) prints its problems to stderr and keeps the last good source.
 */
export async function openLiveFolder(
  command: string,
  dir: string,
  id: string,
  watch: boolean,
  io: CliIo,
  options: LoadKnowledgeDirectoryOptions = {},
): Promise<LiveFolder> {
  let documents = 0;
  let current: KnowledgeSource;
  let watcher: KnowledgeDirectoryWatcher | undefined;
  const reportFailure = (error: unknown): void => {
    const issues = isKnowledgeError(error) ? error.issues : undefined;
    if (issues === undefined)
      io.stderr.write(
        `knowledge-kit ${command}: ${escapeControls(error instanceof Error ? error.message : String(error))}\n`,
      );
    else for (const problem of toProblems(issues, dir)) io.stderr.write(`${textLine(problem)}\n`);
    io.stderr.write(
      `knowledge-kit ${command}: reload of \`${dir}\` failed${issues === undefined ? '' : ` with ${count(issues.length, 'problem')}`}; still serving the last good version.\n`,
    );
  };
  if (watch) {
    try {
      watcher = await watchKnowledgeDirectory(dir, options, (change) => {
        if (change.ok) {
          let next: KnowledgeSource;
          try {
            next = sourceOf(change.loaded, id);
          } catch (error) {
            // A folder that loads but cannot be served: this reload fails, the server goes on.
            reportFailure(error);
            return;
          }
          current = next;
          documents = change.loaded.catalog.ids.length;
          io.stderr.write(
            `knowledge-kit ${command}: reloaded \`${dir}\`: ${count(documents, 'document')}\n`,
          );
          return;
        }
        reportFailure(change.error);
      });
    } catch (error) {
      throw folderError(command, dir, error, io);
    }
    try {
      current = sourceOf(watcher.current, id);
    } catch (error) {
      await watcher.close();
      throw folderError(command, dir, error, io);
    }
    documents = watcher.current.catalog.ids.length;
  } else {
    const loaded = await loadFolder(command, dir, io, options);
    try {
      current = sourceOf(loaded, id);
    } catch (error) {
      throw folderError(command, dir, error, io);
    }
    documents = loaded.catalog.ids.length;
  }
  reportLinks(command, current, io);
  return {
    source: liveSource(() => current),
    documents: () => documents,
    close: async () => {
      await watcher?.close();
    },
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
