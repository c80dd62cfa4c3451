/** Files on disk from a `{ relativePath: contents }` tree, for the loader's and the command line's tests. */
import { mkdir, writeFile } from 'node:fs/promises';
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
