/**
 * Symbolic links on the command line: `check`, `outline`, `read` and `search` refuse a link by
 * default (exit 1, `REFUSED_FILE`) and, with `--follow-links`, follow one inside the folder, never
 * one to a file outside it.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { summaryLine } from '../helpers/cli-knowledge.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

describe.concurrent('links on the command line', () => {
  it('check refuses a link to /etc/passwd by default (exit 1, REFUSED_FILE); --follow-links follows one inside', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    await symlink('/etc/passwd', join(root, 'kb', 'passwd.md'));
    await symlink('a.md', join(root, 'kb', 'alias.md'));
    const strict = await runCli(['check', 'kb'], { cwd: root });
    expect(strict.code).toBe(1);
    expect(linesOf(strict.stdout).map((line) => line.split('  ').slice(0, 2))).toEqual([
      ['kb/alias.md', 'REFUSED_FILE'],
      ['kb/passwd.md', 'REFUSED_FILE'],
      [summaryLine(1, 0, 2)],
    ]);
    const following = await runCli(['check', 'kb', '--follow-links'], { cwd: root });
    expect(following.code).toBe(1);
    expect(linesOf(following.stdout).map((line) => line.split('  ').slice(0, 2))).toEqual([
      ['kb/passwd.md', 'REFUSED_FILE'],
      [summaryLine(2, 0, 1)],
    ]);
    expect(following.stdout).not.toContain('root:');
  });
});

describe.concurrent('--follow-links on the other commands', () => {
  it('outline, read and search refuse a link by default (exit 1, REFUSED_FILE) and follow one inside with --follow-links', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n\nAlpha words.\n' });
    await symlink('a.md', join(root, 'kb', 'alias.md'));
    for (const args of [
      ['outline', 'kb'],
      ['read', 'kb', 'alias'],
      ['search', 'kb', 'alpha'],
    ]) {
      const strict = await runCli(args, { cwd: root });
      expect(strict.code, args.join(' ')).toBe(1);
      expect(strict.stderr).toMatch(/^kb\/alias\.md  REFUSED_FILE  /m);
      const following = await runCli([...args, '--follow-links'], { cwd: root });
      expect(following.code, `${args.join(' ')}: ${following.stderr}`).toBe(0);
      expect(following.stdout).toContain(args[0] === 'read' ? 'Alpha words.' : 'alias');
    }
  });
});
