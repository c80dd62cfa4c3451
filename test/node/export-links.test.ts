/**
 * `exportKnowledgeBundle` writes only real files and folders inside `out`: a symbolic link (or a FIFO)
 * inside the output folder is refused before anything is written. With `out/pages` a link to another
 * folder, an export used to overwrite that folder's `faq.md`, add files to it, then remove the link
 * and leave a bundle without pages.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportKnowledgeDirectory } from '../../src/node/index.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

const KNOWLEDGE = { 'faq.md': '# FAQ\n\nNew answers.\n', 'guide.md': '# Guide\n\nStart here.\n' };

describe('exportKnowledgeBundle refuses links in its output folder', () => {
  it('`out/pages` a link to another folder: refused naming it; the other folder and the link are left as they were', async () => {
    const dir = await folder(KNOWLEDGE);
    const out = await folder();
    await exportKnowledgeDirectory(dir, { out });
    const victim = await folder({ 'faq.md': 'not a page: my own file\n' });
    const pages = join(out, 'pages');
    execFileSync('rm', ['-r', pages]);
    await symlink(victim, pages);

    const error = await catchKnowledgeError(exportKnowledgeDirectory(dir, { out }));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ code: 'INVALID_INPUT', path: ['options', 'out'] });
    expect(error.issues[0]!.message).toContain(`\`${pages}\` is a symbolic link`);
    expect(error.issues[0]!.message).toContain('Remove the link');

    expect(await readdir(victim)).toEqual(['faq.md']);
    expect(await readFile(join(victim, 'faq.md'), 'utf8')).toBe('not a page: my own file\n');
    expect((await lstat(pages)).isSymbolicLink()).toBe(true);
  });

  it('a link in place of a file (`llms.txt`) or deeper (`_graph/by-file`), and a FIFO, are refused too', async () => {
    const dir = await folder(KNOWLEDGE);
    const victim = await folder({ 'target.txt': 'mine\n' });
    for (const make of [
      async (out: string) => {
        execFileSync('rm', [join(out, 'llms.txt')]);
        await symlink(join(victim, 'target.txt'), join(out, 'llms.txt'));
      },
      async (out: string) => {
        execFileSync('rm', ['-r', join(out, '_graph', 'by-file')]);
        await symlink(victim, join(out, '_graph', 'by-file'));
      },
      async (out: string) => {
        execFileSync('rm', [join(out, 'llms.txt')]);
        execFileSync('mkfifo', [join(out, 'llms.txt')]);
      },
    ]) {
      const out = await folder();
      await exportKnowledgeDirectory(dir, { out });
      await make(out);
      const error = await catchKnowledgeError(exportKnowledgeDirectory(dir, { out }));
      expect(error.issues[0]).toMatchObject({ code: 'INVALID_INPUT', path: ['options', 'out'] });
      expect(error.issues[0]!.message).toMatch(/is a symbolic link|is a FIFO/);
      expect(await readdir(victim)).toEqual(['target.txt']);
      expect(await readFile(join(victim, 'target.txt'), 'utf8')).toBe('mine\n');
    }
  });

  it('a fresh export into an empty folder, and again into its own output, still work', async () => {
    const dir = await folder(KNOWLEDGE);
    const out = join(await folder(), 'kb');
    await mkdir(out);
    const first = await exportKnowledgeDirectory(dir, { out });
    expect(first.written).toContain('pages/faq.md');
    const again = await exportKnowledgeDirectory(dir, { out });
    expect(again.written).toEqual([]);
    expect(await readFile(join(out, 'pages', 'faq.md'), 'utf8')).toContain('New answers.');
  });
});
