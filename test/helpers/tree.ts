/** Files on disk from a `{ relativePath: contents }` tree, for the loader's and the command line's tests. */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Files by `/`-separated path relative to a folder; a string is written as UTF-8, bytes as they are. */
export type Tree = Readonly<Record<string, string | Uint8Array>>;

/** Writes every file of `tree` under `dir`, creating folders as needed. */
export async function writeTree(dir: string, tree: Tree): Promise<void> {
  for (const [path, contents] of Object.entries(tree)) {
    const file = join(dir, ...path.split('/'));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, contents);
  }
}

/**
 * Replaces `file`'s contents in one step (a sibling temporary file renamed over it), so that a watcher
 * never reads it half-written: `writeFile` truncates first, and a reload between the truncation and
 * the write sees an empty file (a good version, which a test of "the last good version" then gets).
 */
export async function replaceFile(file: string, contents: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}
