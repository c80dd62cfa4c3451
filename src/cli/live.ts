/** A folder served by a long-running command: the current source, and `--watch` reloads that swap it. */
import { watchKnowledgeDirectory } from '../node/watchKnowledgeDirectory.js';
import type { KnowledgeDirectoryWatcher } from '../node/types.js';
import type { KnowledgeSource } from '../agent/types.js';
import { folderError, liveSource, loadFolder, sourceOf } from './folder.js';
import type { CliIo } from './io.js';
import { count, textLine, toProblems } from './problems.js';

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
 * Loads `dir` and, with `watch`, reloads it on change: a clean reload swaps the source (calls in flight
 * finish on the old one); a failed one prints its problems to stderr and keeps the last good source.
 */
export async function openLiveFolder(
  command: string,
  dir: string,
  id: string,
  watch: boolean,
  io: CliIo,
): Promise<LiveFolder> {
  let documents = 0;
  let current: KnowledgeSource;
  let watcher: KnowledgeDirectoryWatcher | undefined;
  if (watch) {
    try {
      watcher = await watchKnowledgeDirectory(dir, {}, (change) => {
        if (change.ok) {
          current = sourceOf(change.loaded, id);
          documents = change.loaded.catalog.ids.length;
          io.stderr.write(
            `knowledge-kit ${command}: reloaded \`${dir}\`: ${count(documents, 'document')}\n`,
          );
          return;
        }
        for (const problem of toProblems(change.error.issues, dir))
          io.stderr.write(`${textLine(problem)}\n`);
        io.stderr.write(
          `knowledge-kit ${command}: reload of \`${dir}\` failed with ${count(change.error.issues.length, 'problem')}; still serving the last good version.\n`,
        );
      });
    } catch (error) {
      throw folderError(command, dir, error, io);
    }
    current = sourceOf(watcher.current, id);
    documents = watcher.current.catalog.ids.length;
  } else {
    const loaded = await loadFolder(command, dir, io);
    current = sourceOf(loaded, id);
    documents = loaded.catalog.ids.length;
  }
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
