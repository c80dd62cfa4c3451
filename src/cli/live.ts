/**
 * A folder served by a long-running command, file by file: the current source, and `--watch` reloads
 * that swap it. A broken file never stops the others (seed 002).
 */
import {
  loadKnowledgeFiles,
  watchKnowledgeFiles,
  type KnowledgeFilesWatcher,
  type LoadedKnowledgeFiles,
  type LoadKnowledgeDirectoryOptions,
} from '../node/index.js';
import { posix } from 'node:path';
import type { KnowledgeSource } from '../agent/index.js';
import { folderError, liveSource, type ServedOptions, sourceOf } from './folder.js';
import { reportLinks } from './linkRoot.js';
import { readFailed, type CliIo } from './io.js';
import { noMarkdownFiles } from '../node/internals.js';
import { count, escapeControls, textLine, toProblems } from './problems.js';

/** The served knowledge of `serve` and `mcp`. */
export interface LiveFolder {
  /** Forwards each call to the newest source. */
  readonly source: KnowledgeSource;
  /** Documents served now (current and previous versions). */
  documents(): number;
  /**
   * One sentence on the files not served as they are on disk (for the MCP server's instructions), or
   * `undefined` when every file is served as it is.
   */
  problems(): string | undefined;
  /** Stops watching (when watching). */
  close(): Promise<void>;
}

/** How many files are served from an earlier version and how many not at all. */
function tally(loaded: LoadedKnowledgeFiles): { previous: number; unavailable: number } {
  let previous = 0;
  let unavailable = 0;
  for (const status of Object.values(loaded.status)) {
    if (status.generatedOutputStatus === 'previous_available') previous++;
    else if (status.generatedOutputStatus === 'unavailable') unavailable++;
  }
  return { previous, unavailable };
}

/** `N files with problems: …` for stderr and the MCP instructions, or `undefined` when none. */
export function problemSummary(loaded: LoadedKnowledgeFiles, dir: string): string | undefined {
  const { previous, unavailable } = tally(loaded);
  const files = new Set(loaded.issues.map((issue) => issue.file ?? ''));
  const warned = loaded.warnings.length;
  const warnings =
    warned === 0
      ? undefined
      : `${count(warned, 'warning')} in \`${dir}\` (front matter keys left out, the pages are served); \`knowledge-kit check ${dir}\` lists them.`;
  if (files.size === 0) return warnings;
  const parts = [
    ...(previous > 0 ? [`${count(previous, 'file')} served from its last good version`] : []),
    ...(unavailable > 0 ? [`${count(unavailable, 'file')} not served, listed as unavailable`] : []),
  ];
  return `${count(files.size, 'file')} in \`${dir}\` ${files.size === 1 ? 'has' : 'have'} problems${parts.length > 0 ? ` (${parts.join(', ')})` : ''}; \`knowledge-kit check ${dir}\` lists them.${warnings === undefined ? '' : ` ${warnings}`}`;
}

/**
 * Loads `dir` (with the loader's `options`) file by file and, with `watch`, reloads it on change. The
 * files that load are served; the problems of the others are printed to stderr (at start, and after a
 * reload for each file whose problems changed) and the server goes on. Only a folder that cannot be
 * read at all ends the command (exit 2), or a load the source refuses (exit 1). `served` sets every
 * source's cursor key and read limit (`--cursor-key-file`, `--max-chars`); `version` is the label of
 * the version the folder serves, named in its lines when a command serves several.
 */
export async function openLiveFolder(
  command: string,
  dir: string,
  id: string,
  watch: boolean,
  io: CliIo,
  options: LoadKnowledgeDirectoryOptions = {},
  served: ServedOptions = {},
  version?: string,
): Promise<LiveFolder> {
  let loaded: LoadedKnowledgeFiles;
  let current: KnowledgeSource;
  let watcher: KnowledgeFilesWatcher | undefined;
  // The latest reload's number: only it is swapped in once its search index is built.
  let pending = 0;
  let building: AbortController | undefined;
  // A version of several (`--version LABEL=FOLDER`) is named in each of its lines.
  const of = version === undefined ? '' : `version \`${version}\`: `;
  const say = (line: string): void =>
    void io.stderr.write(`knowledge-kit ${command}: ${of}${line}\n`);
  /** Prints the problems of `next`, only those of files whose problems changed since `before`. */
  const printProblems = (next: LoadedKnowledgeFiles, before?: LoadedKnowledgeFiles): void => {
    const seen = new Map<string, string>();
    if (before !== undefined)
      for (const issue of before.issues) {
        const file = issue.file ?? '';
        seen.set(file, `${seen.get(file) ?? ''}${issue.message}\n`);
      }
    const now = new Map<string, string>();
    for (const issue of next.issues) {
      const file = issue.file ?? '';
      now.set(file, `${now.get(file) ?? ''}${issue.message}\n`);
    }
    const changed = next.issues.filter(
      (issue) => seen.get(issue.file ?? '') !== now.get(issue.file ?? ''),
    );
    for (const problem of toProblems(changed, dir)) io.stderr.write(`${textLine(problem)}\n`);
    if (before !== undefined)
      for (const file of seen.keys())
        if (!now.has(file) && file !== '')
          say(`\`${posix.join(dir.split('\\').join('/'), file)}\` has no problem now.`);
  };
  const serveLoad = (next: LoadedKnowledgeFiles): KnowledgeSource => sourceOf(next, id, served);

  if (watch) {
    try {
      watcher = await watchKnowledgeFiles(dir, options, (change) => {
        if (!change.ok) {
          const { issues } = change.error;
          for (const problem of toProblems(issues, dir)) io.stderr.write(`${textLine(problem)}\n`);
          say(`reload of \`${dir}\` failed; still serving what was served before.`);
          return;
        }
        let next: KnowledgeSource;
        try {
          next = serveLoad(change.loaded);
        } catch (error) {
          // A load the source refuses (it should not happen: the loader checks what the source needs).
          say(
            `reload of \`${dir}\` cannot be served (${escapeControls(error instanceof Error ? error.message : String(error))}); still serving what was served before.`,
          );
          return;
        }
        // The new source's search index is built before it is served, so searches go on being
        // answered (by the previous revision) meanwhile; a newer change supersedes one still building.
        const serial = ++pending;
        building?.abort();
        const controller = (building = new AbortController());
        const ready = next.warm?.({ signal: controller.signal }) ?? Promise.resolve();
        void ready
          .catch(() => undefined)
          .then(() => {
            if (serial !== pending) return;
            building = undefined;
            const before = loaded;
            current = next;
            loaded = change.loaded;
            printProblems(loaded, before);
            const summary = problemSummary(loaded, dir);
            say(
              `reloaded \`${dir}\`: ${count(loaded.catalog.ids.length, 'document')}${summary === undefined ? '' : `; ${summary}`}`,
            );
          });
      });
    } catch (error) {
      throw folderError(command, dir, error, io);
    }
    loaded = watcher.current;
  } else {
    try {
      loaded = await loadKnowledgeFiles(dir, options);
    } catch (error) {
      throw folderError(command, dir, error, io);
    }
  }
  if (Object.keys(loaded.status).length === 0 && loaded.issues.length === 0) {
    await watcher?.close();
    throw readFailed(command, noMarkdownFiles(dir, options));
  }
  try {
    current = serveLoad(loaded);
  } catch (error) {
    await watcher?.close();
    throw folderError(command, dir, error, io);
  }
  printProblems(loaded);
  for (const warning of toProblems(loaded.warnings, dir))
    io.stderr.write(`${textLine({ ...warning, message: `warning: ${warning.message}` })}\n`);
  const summary = problemSummary(loaded, dir);
  if (summary !== undefined) say(`${summary} The other files are served.`);
  reportLinks(command, current, io);
  return {
    source: liveSource(() => current),
    documents: () => loaded.catalog.ids.length,
    problems: () => problemSummary(loaded, dir),
    close: async () => {
      building?.abort();
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
