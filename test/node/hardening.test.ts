/**
 * Issue 21 in the folder loader: front matter that overflows the YAML reader's stack, document IDs
 * that no URL can name, symbolic links and special files, and file names that are not UTF-8. Each is
 * one placed problem of the file concerned, never an exception of another kind, a hang or a read
 * outside the folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKnowledgeDirectory, watchKnowledgeDirectory } from '../../src/node/index.js';
import type { KnowledgeIssue } from '../../src/index.js';
import { changeRecorder } from './helpers/changeRecorder.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { expectPlacedIssue } from './helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

/** The issues of a load that must fail. */
async function issuesOf(
  dir: string,
  options?: Parameters<typeof loadKnowledgeDirectory>[1],
): Promise<readonly KnowledgeIssue[]> {
  return (await catchKnowledgeError(loadKnowledgeDirectory(dir, options))).issues;
}

const DEEP_FLOW = `---\nid: deep\nx: ${'['.repeat(2_000)}${']'.repeat(2_000)}\n---\n# Deep\n`;
const DEEP_BLOCK = `---\n${Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} v\n---\n# Deep\n`;

describe('deeply nested front matter', () => {
  it.each([
    ['2,000 `[` in a flow list', DEEP_FLOW],
    ['a 5,000-deep block mapping', DEEP_BLOCK],
  ])('%s: INVALID_FRONT_MATTER at the block, the other files still checked', async (_, text) => {
    const dir = await folder({
      'deep.md': text,
      'other.md': '# Other\n<!-- agent-section:open -->\n',
    });
    const issues = await issuesOf(dir);
    expect(issues.map((i) => [i.code, i.file])).toEqual([
      ['INVALID_FRONT_MATTER', 'deep.md'],
      ['UNCLOSED_SECTION', 'other.md'],
    ]);
    expectPlacedIssue(issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'deep.md',
      line: 2,
      column: 1,
    });
    expect(issues[0]!.message).toContain('nests too deeply');
  });

  it('under watch: a deep file added fails one reload, and is not reloaded again until it changes', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeDirectory(dir, { debounceMs: 20 }, recorder.onChange);
    try {
      const failed = recorder.next();
      await writeFile(join(dir, 'deep.md'), DEEP_FLOW);
      const change = await failed;
      expect(change.ok).toBe(false);
      if (!change.ok)
        expect(change.error.issues[0]).toMatchObject({
          code: 'INVALID_FRONT_MATTER',
          file: 'deep.md',
        });
      // A storm reloads about 3 times a second; 1.5 s of quiet must see no other reload.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(recorder.changes).toHaveLength(1);
      expect(watcher.current.catalog.ids).toEqual(['a']);
    } finally {
      await watcher.close();
    }
  });
});

describe('document IDs the agent layer cannot serve', () => {
  it('`id: index.md`, an ID that is another page`s graph file, and a lone surrogate: placed problems', async () => {
    const dir = await folder({
      'a.md': '---\nid: index.md\n---\n# A\n',
      'b.md': '---\ntitle: B\nid: _graph/by-file/c.json\n---\n# B\n',
      'c.md': '# C\n',
      'd.md': '---\nid: "\\ud800"\n---\n# D\n',
    });
    const issues = await issuesOf(dir);
    expect(issues.map((i) => [i.code, i.file, i.line, i.column])).toEqual([
      ['INVALID_FRONT_MATTER', 'a.md', 2, 5],
      ['INVALID_FRONT_MATTER', 'b.md', 3, 5],
      ['INVALID_FRONT_MATTER', 'd.md', 2, 5],
    ]);
    expect(issues[0]!.message).toContain('navigation file');
    expect(issues[1]!.message).toContain('`_graph/by-file/c.json`');
    expect(issues[2]!.message).toContain('lone surrogate');

    const named = await folder({ 'index.md.md': '# Named like the index\n' });
    const byPath = await issuesOf(named);
    expect(byPath).toMatchObject([
      { code: 'INVALID_INPUT', file: 'index.md.md', documentId: 'index.md' },
    ]);
    expect(byPath[0]!.message).toContain('Rename the file');
  });

  it('a graph-file-like ID that names no page is fine', async () => {
    const dir = await folder({ 'b.md': '---\nid: _graph/by-file/nothing.json\n---\n# B\n' });
    expect((await loadKnowledgeDirectory(dir)).catalog.ids).toEqual([
      '_graph/by-file/nothing.json',
    ]);
  });
});

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
    const issues = await issuesOf(dir);
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
    const issues = await issuesOf(dir, { followLinks: true });
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
    expect((await issuesOf(dir, { exclude: ['passwd.md'] })).map((i) => i.file)).toEqual([
      'assets',
    ]);
  });

  it('followLinks must be a boolean', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const issues = await issuesOf(dir, { followLinks: 'yes' as unknown as boolean });
    expect(issues).toMatchObject([{ code: 'INVALID_INPUT', path: ['options', 'followLinks'] }]);
  });
});

describe('file names that are not UTF-8', () => {
  it('one such name is one INVALID_ENCODING problem for that file; every other file is still read', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'b.md': '# B\n<!-- agent-section:open -->\n' });
    const name = Buffer.concat([
      Buffer.from(dir + '/bad'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('.md'),
    ]);
    await writeFile(name, '# Bad\n');
    const issues = await issuesOf(dir);
    expect(issues.map((i) => [i.code, i.file])).toEqual([
      ['UNCLOSED_SECTION', 'b.md'],
      ['INVALID_ENCODING', 'bad\uFFFD\uFFFD.md'],
    ]);
    expect(issues[1]!.message).toContain('file name is not valid UTF-8');
  });
});
