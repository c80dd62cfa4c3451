/** Temporary folders for the command's tests, written from a `{ relativePath: contents }` tree. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export { writeTree, type Tree } from '../../helpers/tree.js';

/**
 * For a test file: a function that makes a fresh folder under the system's temporary folder; every
 * folder it made is removed when the file's tests are done (not after each test, so that concurrent
 * tests keep theirs). Register it before `useRunningClis`, so that commands still running in a folder
 * are stopped before the folder goes (after-hooks run in reverse order).
 */
export function useTempRoots(): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kk-cli-'));
    made.push(dir);
    return dir;
  };
}

/** The 1-based line of the first occurrence of `needle` in `text`. */
export function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`lineOf: ${JSON.stringify(needle)} is not in the text`);
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The 1-based column (UTF-16 units) where `needle` starts on its line. */
export function columnOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`columnOf: ${JSON.stringify(needle)} is not in the text`);
  return at - (text.lastIndexOf('\n', at - 1) + 1) + 1;
}
