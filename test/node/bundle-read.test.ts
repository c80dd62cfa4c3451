/**
 * `readBundleDirectory` reads only regular files inside the bundle's folder: a symbolic link (in place
 * of the file or of a folder on its way) is not followed out of the bundle, and a FIFO does not hang
 * the read. Four FIFO reads pending used to block every other file read of the process (libuv's
 * thread pool has four threads).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundleDirectory } from '../../src/node/index.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

describe('readBundleDirectory reads only regular files inside the bundle', () => {
  it('a link to a file outside, or a folder on the way that is a link out, is refused, not followed', async () => {
    const outside = await folder({ 'secret.md': 'SECRET outside the bundle\n' });
    const dir = await folder({ 'pages/a.md': '# A\n' });
    await symlink(join(outside, 'secret.md'), join(dir, 'pages', 'secret.md'));
    await symlink(outside, join(dir, 'elsewhere'));
    const read = readBundleDirectory(dir);
    expect(await read('pages/a.md')).toBe('# A\n');
    await expect(read('pages/secret.md')).rejects.toThrow(
      /`pages\/secret\.md` is a symbolic link, and readBundleDirectory reads only regular files inside the bundle's folder/,
    );
    await expect(read('elsewhere/secret.md')).rejects.toThrow(
      /`elsewhere\/secret\.md` is under a symbolic link, and readBundleDirectory reads only regular files inside the bundle's folder/,
    );
    // Nothing of the outside file is in the refusals.
    await expect(read('pages/secret.md')).rejects.not.toThrow(/SECRET/);
    expect(await read('pages/missing.md')).toBeNull();
  });

  it('a FIFO is refused at once; four of them pending do not hold up other reads', async () => {
    const dir = await folder({ 'pages/a.md': '# A\n' });
    await mkdir(join(dir, 'pipes'));
    for (let i = 0; i < 4; i++) execFileSync('mkfifo', [join(dir, 'pipes', `p${i}.md`)]);
    const read = readBundleDirectory(dir);
    const started = performance.now();
    const pipes = await Promise.allSettled([0, 1, 2, 3].map((i) => read(`pipes/p${i}.md`)));
    expect(await read('pages/a.md')).toBe('# A\n');
    expect(performance.now() - started).toBeLessThan(3_000);
    for (const pipe of pipes) {
      expect(pipe.status).toBe('rejected');
      if (pipe.status === 'rejected')
        expect(String(pipe.reason)).toMatch(/is a FIFO \(named pipe\), and readBundleDirectory/);
    }
  }, 10_000);
});
