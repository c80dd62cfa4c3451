/**
 * The one temporary-folder hook of the tests: real folders under the system's temporary folder,
 * optionally written from a `{ relativePath: contents }` tree, removed whatever happens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { writeTree, type Tree } from './tree.js';

export { writeTree, type Tree };

/** When the folders a hook made are removed. */
export interface TempFolderOptions {
  /**
   * `'each'` (default): after each test. `'all'`: when the file's tests are done, so that concurrent
   * tests, or commands still running in a folder, keep theirs; register such a hook before the hook
   * that stops those commands (after-hooks run in reverse order).
   */
  readonly removeAfter?: 'each' | 'all';
  /** Start of each folder's name. Default `kk-test-`. */
  readonly prefix?: string;
}

/** A fresh empty folder under the system's temporary folder. */
function makeTempFolder(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

function removeFolder(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/**
 * For a test file: a function that makes a temporary folder (holding `tree`, if given); every folder it
 * made is removed after each test, or after the file's tests (`removeAfter: 'all'`).
 *
 * @example
 * const folder = useTempFolders();
 * it('loads', async () => { const dir = await folder({ 'a.md': '# A\n' }); … });
 */
export function useTempFolders(options: TempFolderOptions = {}): (tree?: Tree) => Promise<string> {
  const prefix = options.prefix ?? 'kk-test-';
  const made: string[] = [];
  const remove = async (): Promise<void> => {
    await Promise.all(made.splice(0).map(removeFolder));
  };
  if (options.removeAfter === 'all') afterAll(remove);
  else afterEach(remove);
  return async (tree = {}) => {
    const dir = await makeTempFolder(prefix);
    made.push(dir);
    await writeTree(dir, tree);
    return dir;
  };
}

/**
 * Runs `fn` on a temporary folder holding `tree`, and removes the folder afterwards, whatever happens:
 * for a property whose runs each need their own folder.
 */
export async function withTree<T>(tree: Tree, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeTempFolder('kk-test-');
  try {
    await writeTree(dir, tree);
    return await fn(dir);
  } finally {
    await removeFolder(dir);
  }
}
