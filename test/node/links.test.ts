/**
 * Symbolic links and special files in a folder: by default none is followed or read, each a
 * `REFUSED_FILE` problem of its own; with `followLinks`, links inside the folder load and links out,
 * to devices and loops are still refused. Never a hang or a read outside the folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { loadIssues } from '../helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

describe('symbolic links and special files', () => {
  it('by default no link is followed: links to /etc/passwd, to `/`, to /dev/zero, to a file inside, and a FIFO are each a REFUSED_FILE problem', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'real/b.md': '# B\n' });
    await symlink('/etc/passwd', join(dir, 'passwd.md'));
    await symlink('/', join(dir, 'root'));
    await symlink('/dev/zero', join(dir, 'zero.md'));
    await symlink(join(dir, 'a.md'), join(dir, 'alias.md'));
    await symlink(join(dir, 'real'), join(dir, 'linked'));
    await symlink(join(dir, 'missing.md'), join(dir, 'dangling.md'));
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    const started = performance.now();
    const issues = await loadIssues(dir);
    // A walk of `/` took 36 s; refusing it is one stat.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(issues.map((i) => [i.code, i.file])).toEqual([
      ['REFUSED_FILE', 'alias.md'],
      ['REFUSED_FILE', 'dangling.md'],
      ['REFUSED_FILE', 'linked'],
      ['REFUSED_FILE', 'passwd.md'],
      ['REFUSED_FILE', 'pipe.md'],
      ['REFUSED_FILE', 'root'],
      ['REFUSED_FILE', 'zero.md'],
    ]);
    for (const issue of issues) {
      expect(
        issue.message.startsWith(`${issue.file}: loadKnowledgeDirectory does not read it`),
      ).toBe(true);
      expect(issue.line).toBeUndefined();
    }
    expect(issues.find((i) => i.file === 'pipe.md')!.message).toContain('FIFO');
    expect(issues.find((i) => i.file === 'passwd.md')!.message).toContain('followLinks');
  });

  it('followLinks: links inside the folder load; links out, to devices and loops are still refused, and nothing hangs', async () => {
    const dir = await folder({
      'a.md': '# A\n',
      'real/b.md': '# B\n',
      'real/deeper/c.md': '# C\n',
    });
    await symlink('/etc/passwd', join(dir, 'passwd.md'));
    await symlink('/', join(dir, 'root'));
    await symlink('/dev/zero', join(dir, 'zero.md'));
    await symlink('a.md', join(dir, 'alias.md'));
    await symlink('real', join(dir, 'linked'));
    await symlink('..', join(dir, 'real', 'up'));
    await mkdir(join(dir, 'x'));
    await symlink('../y', join(dir, 'x', 'to-y'));
    await mkdir(join(dir, 'y'));
    await symlink('../x', join(dir, 'y', 'to-x'));
    const issues = await loadIssues(dir, { followLinks: true });
    expect(issues.map((i) => [i.code, i.file])).toEqual([
      ['REFUSED_FILE', 'linked/up'],
      ['REFUSED_FILE', 'passwd.md'],
      ['REFUSED_FILE', 'real/up'],
      ['REFUSED_FILE', 'root'],
      ['REFUSED_FILE', 'zero.md'],
    ]);
    expect(issues[0]!.message).toContain('loop');
    expect(issues[1]!.message).toContain('outside the folder');
    expect(issues[2]!.message).toContain('loop');
    expect(issues[4]!.message).toContain('`/dev/zero`, outside the folder');

    const clean = await folder({ 'a.md': '# A\n', 'real/b.md': '# B\n' });
    await symlink('a.md', join(clean, 'alias.md'));
    await symlink('real', join(clean, 'linked'));
    const loaded = await loadKnowledgeDirectory(clean, { followLinks: true });
    expect([...loaded.catalog.ids].sort()).toEqual(['a', 'alias', 'linked/b', 'real/b']);
  });

  it('a link `exclude` leaves out is not reported (a link to a folder of assets, say)', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    await symlink('/', join(dir, 'assets'));
    await symlink('/etc/passwd', join(dir, 'passwd.md'));
    for (const exclude of [['assets'], ['assets/**'], ['**/assets']]) {
      const loaded = await loadKnowledgeDirectory(dir, { exclude: [...exclude, 'passwd.md'] });
      expect(loaded.catalog.ids, exclude.join()).toEqual(['a']);
    }
    expect((await loadIssues(dir, { exclude: ['passwd.md'] })).map((i) => i.file)).toEqual([
      'assets',
    ]);
  });

  it('followLinks must be a boolean', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const issues = await loadIssues(dir, { followLinks: 'yes' as unknown as boolean });
    expect(issues).toMatchObject([{ code: 'INVALID_INPUT', path: ['options', 'followLinks'] }]);
  });
});
