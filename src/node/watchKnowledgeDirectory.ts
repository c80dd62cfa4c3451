/**
 * `watchKnowledgeDirectory`: reload a folder on change and swap in the new catalog only when it loaded
 * cleanly, the seed's "build a new catalog and swap the reference".
 */
import { relative, sep } from 'node:path';
import { watch } from 'chokidar';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { loadKnowledgeDirectory } from './loadKnowledgeDirectory.js';
import type { KnowledgeDirectoryChange, KnowledgeDirectoryWatcher, LoadedKnowledgeDirectory, WatchKnowledgeDirectoryOptions } from './types.js';

const API = 'watchKnowledgeDirectory';

/**
 * Loads `dir`, then reloads it whenever a file under it changes (after `debounceMs` of quiet), and
 * reports each reload. A reload that fails leaves `current` as it was: the app keeps serving the last
 * good catalog and shows the problems.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * @param options - the loader's options and `debounceMs` (default 100).
 * @param onChange - called after each reload with `{ ok: true, loaded }` (already `current`) or
 *   `{ ok: false, error }`. Reloads never overlap; changes during one cause one more.
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
export async function watchKnowledgeDirectory(
  dir: string | URL,
  options: WatchKnowledgeDirectoryOptions,
  onChange: (change: KnowledgeDirectoryChange) => void,
): Promise<KnowledgeDirectoryWatcher> {
  const { debounceMs = 100, ...loadOptions } = options ?? {};
  if (typeof debounceMs !== 'number' || !Number.isInteger(debounceMs) || debounceMs < 0 || debounceMs > 2_147_483_647) {
    throw new KnowledgeError([{ code: 'INVALID_INPUT', path: ['options', 'debounceMs'], message: `${API}: \`debounceMs\` must be a whole number of milliseconds from 0 to 2147483647, not ${String(debounceMs)}.` }]);
  }
  if (typeof onChange !== 'function') {
    throw new KnowledgeError([{ code: 'INVALID_INPUT', path: ['onChange'], message: `${API}: \`onChange\` must be a function that receives each reload's result.` }]);
  }
  let current: LoadedKnowledgeDirectory = await loadKnowledgeDirectory(dir, loadOptions);
  const directory = current.directory;

  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const reload = async (): Promise<void> => {
    let change: KnowledgeDirectoryChange;
    try {
      const loaded = await loadKnowledgeDirectory(directory, loadOptions);
      if (closed) return;
      current = loaded;
      change = { ok: true, loaded };
    } catch (error) {
      if (closed) return;
      change = { ok: false, error: isKnowledgeError(error) ? error : new KnowledgeError([{ code: 'READ_FAILED', path: ['dir'], message: `${API}: reloading \`${directory}\` failed: ${String(error)}` }], { cause: error }) };
    }
    try {
      onChange(change);
    } catch (error) {
      // The app's callback failed: that is the app's error, raised as an event listener's would be,
      // outside the reload chain so that watching and `close()` go on working.
      setImmediate(() => {
        throw error;
      });
    }
  };
  const run = (): void => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = reload().finally(() => {
      running = undefined;
      if (again && !closed) {
        again = false;
        run();
      }
    });
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
    return rel.split(sep).some((segment) => segment === 'node_modules' || (segment.startsWith('.') && segment !== '..'));
  };
  const watcher = watch(directory, { ignoreInitial: true, ignored });
  watcher.on('all', schedule);
  await new Promise<void>((resolveReady, rejectReady) => {
    watcher.once('ready', resolveReady);
    watcher.once('error', rejectReady);
  });

  return {
    get current() {
      return current;
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
