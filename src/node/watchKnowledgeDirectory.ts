/**
 * `watchKnowledgeDirectory`: reload a folder on change and swap in the new catalog only when it loaded
 * cleanly, the seed's "build a new catalog and swap the reference".
 */
import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { folderOf } from './folderOf.js';
import { loadKnowledgeDirectory } from './loadKnowledgeDirectory.js';
import { loadKnowledgeFiles } from './loadKnowledgeFiles.js';
import type {
  KnowledgeDirectoryChange,
  KnowledgeDirectoryWatcher,
  KnowledgeFilesChange,
  KnowledgeFilesWatcher,
  LoadedKnowledgeDirectory,
  LoadKnowledgeDirectoryOptions,
  WatchKnowledgeDirectoryOptions,
} from './types.js';

/**
 * Loads `dir`, then reloads it whenever a file under it changes (after `debounceMs` of quiet), and
 * reports each reload. A reload that fails leaves `current` as it was: the app keeps serving the last
 * good catalog and shows the problems.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * @param options - the loader's options and `debounceMs` (default 100).
 * @param onChange - called after each reload with `{ ok: true, loaded }` (already `current`) or
 *   `{ ok: false, error }`. Reloads never overlap; changes during one (or during the first load) cause
 *   one more. If the folder is deleted, the reload reports `READ_FAILED` and watching resumes when the
 *   folder is back. An error thrown by `onChange` is not caught: like an event listener's, it becomes
 *   an uncaught exception, and watching goes on.
 * @returns the watcher, once the first load succeeded and the folder is watched.
 * @throws {KnowledgeError} what `loadKnowledgeDirectory` throws for the first load; `INVALID_INPUT` for
 *   a bad `debounceMs` or `onChange`.
 * @example
 * ```ts
 * let source = createCatalogSource((await loadKnowledgeDirectory(dir)).catalog);
 * const watcher = await watchKnowledgeDirectory(dir, {}, (change) => {
 *   if (change.ok) source = createCatalogSource(change.loaded.catalog, { files: change.loaded.files });
 *   else console.error(change.error.message); // the last good source stays in use
 * });
 * ```
 */
export function watchKnowledgeDirectory(
  dir: string | URL,
  options: WatchKnowledgeDirectoryOptions,
  onChange: (change: KnowledgeDirectoryChange) => void,
): Promise<KnowledgeDirectoryWatcher> {
  return watchWith('watchKnowledgeDirectory', dir, options, onChange, (directory, loadOptions) =>
    loadKnowledgeDirectory(directory, loadOptions),
  );
}

/**
 * Loads `dir` file by file with `loadKnowledgeFiles`, then reloads it whenever a file under it changes
 * (after `debounceMs` of quiet), each reload given the previous one: a file's good edit is served at
 * once, a broken file keeps its previous version (`previous_available`), a new broken file is listed
 * as `unavailable`, and the other files are never held back.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * @param options - the loader's options and `debounceMs` (default 100).
 * @param onChange - called after each reload with `{ ok: true, loaded }` (already `current`; its
 *   `issues` and `status` say which files have problems) or `{ ok: false, error }` when the folder or
 *   a file could not be read at all (`current` stays). Reloads never overlap, as with
 *   `watchKnowledgeDirectory`.
 * @returns the watcher, once the first load is done and the folder is watched.
 * @throws {KnowledgeError} `READ_FAILED` when the folder cannot be read; `INVALID_INPUT` for a bad
 *   option or `onChange`. Problems in files are never thrown.
 * @example
 * ```ts
 * const serve = (l: LoadedKnowledgeFiles) =>
 *   createCatalogSource(l.catalog, { files: l.files, fileStatus: l.fileStatus });
 * let source;
 * const watcher = await watchKnowledgeFiles(dir, {}, (change) => {
 *   if (change.ok) source = serve(change.loaded);
 * });
 * source = serve(watcher.current);
 * ```
 */
export function watchKnowledgeFiles(
  dir: string | URL,
  options: WatchKnowledgeDirectoryOptions,
  onChange: (change: KnowledgeFilesChange) => void,
): Promise<KnowledgeFilesWatcher> {
  return watchWith('watchKnowledgeFiles', dir, options, onChange, loadKnowledgeFiles);
}

/** The watch behind both functions: `load` is given the folder, the options and the current load. */
async function watchWith<T extends LoadedKnowledgeDirectory>(
  API: string,
  dir: string | URL,
  options: WatchKnowledgeDirectoryOptions,
  onChange: (
    change:
      | { readonly ok: true; readonly loaded: T }
      | { readonly ok: false; readonly error: KnowledgeError },
  ) => void,
  load: (directory: string, options: LoadKnowledgeDirectoryOptions, current?: T) => Promise<T>,
): Promise<{ readonly current: T; close(): Promise<void> }> {
  const { debounceMs = 100, ...loadOptions } = options ?? {};
  if (
    typeof debounceMs !== 'number' ||
    !Number.isInteger(debounceMs) ||
    debounceMs < 0 ||
    debounceMs > 2_147_483_647
  ) {
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['options', 'debounceMs'],
        message: `${API}: \`debounceMs\` must be a whole number of milliseconds from 0 to 2147483647, not ${String(debounceMs)}.`,
      },
    ]);
  }
  if (typeof onChange !== 'function') {
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['onChange'],
        message: `${API}: \`onChange\` must be a function that receives each reload's result.`,
      },
    ]);
  }
  // The loader's own check of the folder (INVALID_INPUT, READ_FAILED), before anything is watched.
  const directory = await folderOf(dir);

  let current: T | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let watcher: FSWatcher | undefined;
  let polling: ReturnType<typeof setInterval> | undefined;

  type Change =
    | { readonly ok: true; readonly loaded: T }
    | { readonly ok: false; readonly error: KnowledgeError };
  const report = (change: Change): void => {
    try {
      onChange(change);
    } catch (error) {
      // The app's callback failed: that is the app's error, raised as an event listener's would be
      // (an uncaught exception), outside the reload chain so that watching and `close()` go on working.
      setImmediate(() => {
        throw error;
      });
    }
  };
  const reload = async (): Promise<void> => {
    let change: Change;
    try {
      const loaded = await load(directory, loadOptions, current);
      if (closed) return;
      current = loaded;
      change = { ok: true, loaded };
    } catch (error) {
      if (closed) return;
      const failure = isKnowledgeError(error)
        ? error
        : new KnowledgeError(
            [
              {
                code: 'READ_FAILED',
                path: ['dir'],
                message: `${API}: reloading \`${directory}\` failed: ${String(error)}`,
              },
            ],
            { cause: error },
          );
      // Only a folder that is gone is waited for; any other failure waits for the next change (an
      // unexpected error taken for a lost folder made a reload storm: poll, watch, reload, fail).
      if (
        failure.code === 'READ_FAILED' &&
        failure.issues[0]?.path?.[0] === 'dir' &&
        !existsSync(directory)
      )
        await folderLost();
      change = { ok: false, error: failure };
    }
    report(change);
  };
  const afterRun = (): void => {
    running = undefined;
    if (again && !closed) {
      again = false;
      run();
    }
  };
  const run = (): void => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = reload().finally(afterRun);
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  };

  // Dot folders and node_modules are never loaded, so their changes are not watched either.
  const ignored = (path: string): boolean => {
    const rel = relative(directory, path);
    if (rel === '') return false;
    return rel
      .split(sep)
      .some(
        (segment) => segment === 'node_modules' || (segment.startsWith('.') && segment !== '..'),
      );
  };
  const startWatching = async (): Promise<void> => {
    // Links are not followed by the watch either: a link to `/` would watch the whole file system.
    // Followed links (`followLinks`) lead inside the folder, whose real files are watched anyway.
    // An entry the user cannot read is the loader's problem to report (`READ_FAILED` of that file or
    // folder); to the watcher it was an error that stopped the whole watch.
    const next = watch(directory, {
      ignoreInitial: true,
      ignored,
      followSymlinks: false,
      ignorePermissionErrors: true,
    });
    next.on('all', schedule);
    try {
      await new Promise<void>((resolveReady, rejectReady) => {
        next.once('ready', resolveReady);
        next.once('error', rejectReady);
      });
    } catch (error) {
      // Not kept, so closed here: a folder that keeps failing would otherwise leak a watcher a retry.
      await next.close();
      throw error;
    }
    watcher = next;
  };
  // A watch on a folder that was deleted sees nothing, even once the folder is back: look for it
  // every `max(debounceMs, 250)` ms, and watch and reload it when it is there again.
  const folderLost = async (): Promise<void> => {
    if (polling !== undefined) return;
    const lost = watcher;
    watcher = undefined;
    await lost?.close();
    if (closed) return;
    polling = setInterval(
      () => {
        if (closed || !existsSync(directory)) return;
        clearInterval(polling);
        polling = undefined;
        startWatching().then(schedule, () => void folderLost());
      },
      Math.max(debounceMs, 250),
    );
  };
  const stop = async (): Promise<void> => {
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    if (polling !== undefined) clearInterval(polling);
    await watcher?.close();
  };

  // Watch first, then load: a change made while the first load runs causes a reload after it.
  await startWatching();
  const first = load(directory, loadOptions);
  running = first
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(afterRun);
  try {
    current = await first;
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    get current() {
      return current!;
    },
    async close() {
      await stop();
      await running;
    },
  };
}
