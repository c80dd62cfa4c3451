/** Real temporary folders for the loader's tests, written from a `{ relativePath: contents }` tree. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { writeTree, type Tree } from '../../helpers/tree.js';

export { writeTree, type Tree };

/** A fresh empty folder under the system's temporary folder. */
export function makeTempFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'kk-node-'));
}

/** Removes a folder made by `makeTempFolder`. */
export function removeFolder(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** Runs `fn` on a temporary folder holding `tree`, and removes the folder afterwards, whatever happens. */
export async function withTree<T>(tree: Tree, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeTempFolder();
  try {
    await writeTree(dir, tree);
    return await fn(dir);
  } finally {
    await removeFolder(dir);
  }
}

/**
 * For a test file: a function that makes a temporary folder holding a tree; every folder it made is
 * removed after each test.
 */
export function useTempFolders(): (tree?: Tree) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map(removeFolder));
  });
  return async (tree = {}) => {
    const dir = await makeTempFolder();
    made.push(dir);
    await writeTree(dir, tree);
    return dir;
  };
}
