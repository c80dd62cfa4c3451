/**
 * The folder loader reads each file from the handle it checked: the walk sees a regular file, and what
 * is read is that very file (same device and inode), opened without following a link and without
 * waiting on a FIFO. A link swapped in between the walk and the read used to leak an outside file
 * (without `followLinks`); a FIFO swapped in blocked the process in `open()` for good.
 */
import { execFileSync, spawn } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKnowledgeDirectory } from '../../src/node/internals.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

const SECRET = 'SECRET-OUTSIDE-THE-FOLDER';

/** Reads `dir`, calling `swap` once the first file (`a.md`) is read: `b.md` is read after it. */
async function readSwapping(dir: string, swap: () => unknown) {
  let swapped = false;
  return readKnowledgeDirectory(
    dir,
    {},
    {
      onProgress: (done) => {
        if (done !== 1 || swapped) return;
        swapped = true;
        // Synchronous work only: the loader reads the next file as soon as this returns.
        swap();
      },
    },
  );
}

describe('a file swapped between the walk and the read', () => {
  it('a symbolic link to an outside file: REFUSED_FILE, and nothing of the outside file is read', async () => {
    const outside = await folder({ 'secret.md': `# Secret\n\n${SECRET}\n` });
    const dir = await folder({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
    const reading = await readSwapping(dir, () => {
      execFileSync('rm', [join(dir, 'b.md')]);
      execFileSync('ln', ['-s', join(outside, 'secret.md'), join(dir, 'b.md')]);
    });
    expect(JSON.stringify(reading.documents)).not.toContain(SECRET);
    expect(reading.issues.map((i) => [i.code, i.file])).toEqual([['REFUSED_FILE', 'b.md']]);
    expect(reading.issues[0]!.message).toMatch(
      /^b\.md: loadKnowledgeDirectory does not read it: it became a symbolic link while the folder was read\. /,
    );
    expect(reading.documents.map((d) => d.id)).toEqual(['a', 'c']);
  });

  it('another file (a hard link to an outside file) in its place: REFUSED_FILE, not read', async () => {
    const outside = await folder({ 'secret.md': `# Secret\n\n${SECRET}\n` });
    const dir = await folder({ 'a.md': '# A\n', 'b.md': '# B\n' });
    const reading = await readSwapping(dir, () => {
      execFileSync('rm', [join(dir, 'b.md')]);
      execFileSync('ln', [join(outside, 'secret.md'), join(dir, 'b.md')]);
    });
    expect(JSON.stringify(reading.documents)).not.toContain(SECRET);
    expect(reading.issues.map((i) => [i.code, i.file])).toEqual([['REFUSED_FILE', 'b.md']]);
    expect(reading.issues[0]!.message).toContain('was replaced by another file');
  });

  it('a FIFO: REFUSED_FILE at once, never a blocked open', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
    const fifo = join(dir, 'b.md');
    // Had the loader opened the FIFO to read it, this writer would end its wait after 3 s.
    let writer: ReturnType<typeof spawn> | undefined;
    try {
      const started = performance.now();
      const reading = await readSwapping(dir, () => {
        execFileSync('rm', [fifo]);
        execFileSync('mkfifo', [fifo]);
        writer = spawn('sh', ['-c', `sleep 3; echo '# Pipe' > '${fifo}'`], { stdio: 'ignore' });
      });
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(reading.issues.map((i) => [i.code, i.file])).toEqual([['REFUSED_FILE', 'b.md']]);
      expect(reading.issues[0]!.message).toContain('it became a FIFO (named pipe)');
      expect(reading.documents.map((d) => d.id)).toEqual(['a', 'c']);
    } finally {
      writer?.kill('SIGKILL');
    }
  });

  it('a file removed: READ_FAILED for that file, the others read', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
    const reading = await readSwapping(dir, () => execFileSync('rm', [join(dir, 'b.md')]));
    expect(reading.issues.map((i) => [i.code, i.file])).toEqual([['READ_FAILED', 'b.md']]);
    expect(reading.issues[0]!.message).toContain('it was removed while the folder was read');
    expect(reading.documents.map((d) => d.id)).toEqual(['a', 'c']);
  });

  it('followLinks: a link inside is read through its real path; a swap behind it is still caught', async () => {
    const outside = await folder({ 'secret.md': `# Secret\n\n${SECRET}\n` });
    const dir = await folder({ 'a.md': '# A\n', 'real/b.md': '# B\n' });
    await symlink(join(dir, 'real', 'b.md'), join(dir, 'b.md'));
    const clean = await readKnowledgeDirectory(dir, { followLinks: true });
    expect(clean.issues).toEqual([]);
    expect(clean.documents.map((d) => d.id)).toEqual(['a', 'b', 'real/b']);
    const reading = await readKnowledgeDirectory(
      dir,
      { followLinks: true },
      {
        onProgress: (done) => {
          if (done !== 1) return;
          execFileSync('rm', [join(dir, 'real', 'b.md')]);
          execFileSync('ln', [join(outside, 'secret.md'), join(dir, 'real', 'b.md')]);
        },
      },
    );
    expect(JSON.stringify(reading.documents)).not.toContain(SECRET);
    expect(reading.issues.map((i) => [i.code, i.file])).toEqual([
      ['REFUSED_FILE', 'b.md'],
      ['REFUSED_FILE', 'real/b.md'],
    ]);
  });
});
