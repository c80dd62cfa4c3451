/**
 * `writeWhole`: a file is replaced whole through a temporary file of its own, which is gone afterwards,
 * also when the write fails.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryBeside, writeWhole } from '../../src/node/writeWhole.js';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeWhole', () => {
  it('replaces the file whole, leaves nothing beside it, and gives a new file its mode', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kk-write-whole-'));
    const file = join(dir, 'a.json');
    await writeFile(file, 'old');
    await Promise.all([writeWhole(file, 'new one'), writeWhole(file, 'new two')]);
    expect(['new one', 'new two']).toContain(await readFile(file, 'utf8'));
    const secret = join(dir, 'key');
    await writeWhole(secret, 'k', 0o600);
    if (process.platform !== 'win32') expect((await stat(secret)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['a.json', 'key']);
  });

  it('a failed write throws and leaves no temporary file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kk-write-whole-'));
    // A folder where the file should be: the rename fails after the temporary file was written.
    await writeFile(join(dir, 'keep.txt'), 'x');
    const file = join(dir, 'folder');
    await mkdir(join(file, 'inside'), { recursive: true });
    await expect(writeWhole(file, 'text')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['folder', 'keep.txt']);
  });

  it('temporary paths beside a file are never the same twice', () => {
    const paths = new Set(Array.from({ length: 100 }, () => temporaryBeside('/x/file.json')));
    expect(paths.size).toBe(100);
    for (const path of paths) expect(path).toMatch(/^\/x\/file\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
  });
});
