/**
 * A folder loaded file by file (issue 20 item 2, seed 002): `loadKnowledgeFiles` serves the files
 * that load, keeps a broken file's previous version, lists the rest as unavailable, and resolves two
 * files with one ID in favour of the one loaded first; `watchKnowledgeFiles` applies each file's good
 * edit at once.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import {
  loadKnowledgeDirectory,
  loadKnowledgeFiles,
  watchKnowledgeFiles,
  type KnowledgeDirectoryChange,
  type LoadedKnowledgeFiles,
} from '../../src/node/index.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { replaceFile } from '../helpers/tree.js';
import { rm } from 'node:fs/promises';
import { changeRecorder } from '../helpers/changeRecorder.js';

const folder = useTempFolders();

const BROKEN = 'Intro.\n<!-- agent-section:open -->\nNever closed.\n';

function contentOf(loaded: LoadedKnowledgeFiles, id: string): string | undefined {
  return loaded.catalog.ids.includes(id)
    ? loaded.catalog.read({ documentId: id, selection: { mode: 'document' } }).content
    : undefined;
}

function sourceOf(loaded: LoadedKnowledgeFiles) {
  return createCatalogSource(loaded.catalog, {
    id: 'kb',
    files: loaded.files,
    fileStatus: loaded.fileStatus,
  });
}

describe('loadKnowledgeFiles', () => {
  it('serves the files that load and lists a broken one as unavailable, naming its problem', async () => {
    const dir = await folder({ 'guide.md': 'Guide.\n', 'broken.md': BROKEN });
    await expect(loadKnowledgeDirectory(dir)).rejects.toThrow(/UNCLOSED_SECTION|never closed/);
    const loaded = await loadKnowledgeFiles(dir);
    expect(loaded.catalog.ids).toEqual(['guide']);
    expect(loaded.status['guide.md']).toEqual({
      generatedOutputStatus: 'current_available',
      documentId: 'guide',
      issues: [],
    });
    const broken = loaded.status['broken.md']!;
    expect(broken.generatedOutputStatus).toBe('unavailable');
    expect(broken.fileId).toBe('broken');
    expect(broken.issues.map((i) => [i.code, i.file, i.line])).toEqual([
      ['UNCLOSED_SECTION', 'broken.md', 2],
    ]);
    expect(loaded.issues).toEqual(broken.issues);
    expect(loaded.fileStatus.unavailable).toEqual([
      { fileId: 'broken', path: 'pages/broken.md', problem: broken.issues[0]!.message },
    ]);

    const source = sourceOf(loaded);
    const tree = await source.listTree({ parentPath: 'pages' });
    const items = tree.items.filter((i) => i.entryType === 'file');
    expect(
      items.map((i) => [i.fileId, i.contentAvailable, i.state, i.generatedOutputStatus]),
    ).toEqual([
      ['broken', false, 'unavailable', 'unavailable'],
      ['guide', true, 'available', 'current_available'],
    ]);
    const file = await source.getFile({ fileId: 'broken' });
    expect(file).toMatchObject({
      contentAvailable: false,
      state: 'unavailable',
      generatedOutputStatus: 'unavailable',
      sections: [],
    });
    expect(file.description).toContain('broken.md:2:1');
    for (const read of [
      () => source.readFile({ fileId: 'broken' }),
      () => source.readFile({ path: 'pages/broken.md' }),
      () => source.readRelated({ fileId: 'broken' }),
      () => source.expandGraph({ fileId: 'broken' }),
    ]) {
      const error = await read().then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(error?.code).toBe('NOT_FOUND');
      expect(error?.message).toMatch(/pages\/broken\.md.*cannot be read.*broken\.md:2:1/s);
    }
    const index = await source.readFile({ path: 'index.md' });
    expect(index.content).toContain('## Not available');
    expect(index.content).toContain('- `pages/broken.md` — broken.md:2:1:');
    const found = await source.searchFiles({ query: 'Never closed' });
    expect(found.items.map((i) => i.fileId)).not.toContain('broken');
  });

  it('serves a broken file from the previous load as previous_available, and its fix as current', async () => {
    const dir = await folder({ 'guide.md': 'Version one.\n', 'faq.md': 'Questions.\n' });
    const first = await loadKnowledgeFiles(dir);
    await replaceFile(join(dir, 'guide.md'), BROKEN);
    const second = await loadKnowledgeFiles(dir, {}, first);
    expect(second.status['guide.md']!.generatedOutputStatus).toBe('previous_available');
    expect(second.status['guide.md']!.issues[0]!.code).toBe('UNCLOSED_SECTION');
    expect(contentOf(second, 'guide')).toBe('Version one.');
    expect(second.fileStatus.previous).toEqual({
      guide: second.status['guide.md']!.issues[0]!.message,
    });
    // Without the previous load there is nothing to fall back on.
    expect((await loadKnowledgeFiles(dir)).status['guide.md']!.generatedOutputStatus).toBe(
      'unavailable',
    );

    const s1 = sourceOf(first);
    const s2 = sourceOf(second);
    const r1 = (await s1.listTree({})).activeContentRevision;
    const r2 = (await s2.listTree({})).activeContentRevision;
    expect(r2).not.toBe(r1);
    const got = await s2.getFile({ fileId: 'guide' });
    expect(got).toMatchObject({
      contentAvailable: true,
      state: 'available',
      generatedOutputStatus: 'previous_available',
    });
    expect((await s2.readFile({ fileId: 'guide' })).content).toBe('Version one.');
    const index = await s2.readFile({ path: 'index.md' });
    expect(index.content).toContain('(an earlier version: the newest has problems)');

    // Still broken on the next load: the same previous version, the same revision.
    const third = await loadKnowledgeFiles(dir, {}, second);
    expect(contentOf(third, 'guide')).toBe('Version one.');
    expect((await sourceOf(third).listTree({})).activeContentRevision).toBe(r2);

    await replaceFile(join(dir, 'guide.md'), 'Version two.\n');
    const fixed = await loadKnowledgeFiles(dir, {}, third);
    expect(fixed.status['guide.md']!.generatedOutputStatus).toBe('current_available');
    expect(fixed.issues).toEqual([]);
    expect(contentOf(fixed, 'guide')).toBe('Version two.');
  });

  it('keeps the earlier-loaded file of two with one ID and marks the newcomer unavailable, naming both', async () => {
    const dir = await folder({ 'zeta.md': '---\nid: shared\n---\nZeta.\n' });
    const first = await loadKnowledgeFiles(dir);
    // `alpha.md` comes first in path order, but `zeta.md` was loaded first.
    await replaceFile(join(dir, 'alpha.md'), '---\nid: shared\n---\nAlpha.\n');
    const second = await loadKnowledgeFiles(dir, {}, first);
    expect(contentOf(second, 'shared')).toBe('Zeta.');
    expect(second.status['zeta.md']!.generatedOutputStatus).toBe('current_available');
    const alpha = second.status['alpha.md']!;
    expect(alpha.generatedOutputStatus).toBe('unavailable');
    expect(alpha.fileId).toBe('alpha');
    expect(alpha.issues).toHaveLength(1);
    expect(alpha.issues[0]).toMatchObject({
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'alpha.md',
      line: 2,
      column: 5,
      documentId: 'shared',
    });
    expect(alpha.issues[0]!.message).toContain('`zeta.md`');
    expect(alpha.issues[0]!.message).toContain('alpha.md:2:5');

    // With no previous load, path order decides.
    const fresh = await loadKnowledgeFiles(dir);
    expect(contentOf(fresh, 'shared')).toBe('Alpha.');
    expect(fresh.status['zeta.md']!.generatedOutputStatus).toBe('unavailable');
  });

  it('lists files whose IDs cannot be served (index.md, a graph file, a lone surrogate) as unavailable', async () => {
    const dir = await folder({
      'a.md': '---\nid: index.md\n---\nA.\n',
      'b.md': '---\nid: _graph/by-file/c.json\n---\nB.\n',
      'c.md': 'C.\n',
      'd.md': '---\nid: "\\ud800"\n---\nD.\n',
    });
    const loaded = await loadKnowledgeFiles(dir);
    expect(loaded.catalog.ids).toEqual(['c']);
    expect(
      Object.entries(loaded.status).map(([file, s]) => [file, s.generatedOutputStatus, s.fileId]),
    ).toEqual([
      ['a.md', 'unavailable', 'a'],
      ['b.md', 'unavailable', 'b'],
      ['c.md', 'current_available', undefined],
      ['d.md', 'unavailable', 'd'],
    ]);
    for (const file of ['a.md', 'b.md', 'd.md'])
      expect(loaded.status[file]!.issues[0]!.code).toBe('INVALID_FRONT_MATTER');
    const source = sourceOf(loaded);
    const tree = await source.listTree({ parentPath: 'pages' });
    expect(tree.items.map((i) => i.path)).toEqual([
      'pages/a.md',
      'pages/b.md',
      'pages/c.md',
      'pages/d.md',
    ]);
  });

  it('lists an unavailable file under its page path when its own ID is taken', async () => {
    const dir = await folder({
      'guide.md': BROKEN,
      'other.md': '---\nid: guide\n---\nOther.\n',
    });
    const loaded = await loadKnowledgeFiles(dir);
    expect(loaded.status['guide.md']).toMatchObject({
      generatedOutputStatus: 'unavailable',
      fileId: 'pages/guide.md',
    });
    const source = sourceOf(loaded);
    expect((await source.getFile({ fileId: 'pages/guide.md' })).state).toBe('unavailable');
    expect((await source.getFile({ fileId: 'guide' })).path).toBe('pages/other.md');
  });

  it('throws READ_FAILED for a folder that does not exist, as loadKnowledgeDirectory does', async () => {
    const error = await catchKnowledgeError(() => loadKnowledgeFiles('/no/such/folder/kk'));
    expect(error.code).toBe('READ_FAILED');
  });
});

describe('watchKnowledgeFiles', () => {
  it("applies each file's good edit at once and keeps a broken file's previous version", async () => {
    const dir = await folder({ 'guide.md': 'Guide one.\n', 'faq.md': 'FAQ one.\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeFiles(dir, { debounceMs: 30 }, recorder.onChange);
    try {
      expect(watcher.current.catalog.ids).toEqual(['faq', 'guide']);
      const loadedWith =
        (check: (l: LoadedKnowledgeFiles) => boolean) => (c: KnowledgeDirectoryChange) =>
          c.ok && check(c.loaded as LoadedKnowledgeFiles);

      // A broken edit of guide.md: its previous version stays, faq.md is untouched.
      let next = recorder.next(
        loadedWith((l) => l.status['guide.md']?.generatedOutputStatus === 'previous_available'),
      );
      await replaceFile(join(dir, 'guide.md'), BROKEN);
      await next;
      expect(contentOf(watcher.current, 'guide')).toBe('Guide one.');

      // A good edit of faq.md while guide.md is still broken: applied at once.
      next = recorder.next(loadedWith((l) => contentOf(l, 'faq') === 'FAQ two.'));
      await replaceFile(join(dir, 'faq.md'), 'FAQ two.\n');
      await next;
      expect(contentOf(watcher.current, 'guide')).toBe('Guide one.');
      expect(watcher.current.status['guide.md']!.generatedOutputStatus).toBe('previous_available');

      // A new broken file is listed as unavailable; the fix of guide.md is served.
      next = recorder.next(
        loadedWith(
          (l) =>
            l.status['new.md']?.generatedOutputStatus === 'unavailable' &&
            contentOf(l, 'guide') === 'Guide two.',
        ),
      );
      await replaceFile(join(dir, 'new.md'), BROKEN);
      await replaceFile(join(dir, 'guide.md'), 'Guide two.\n');
      await next;
      expect(watcher.current.status['guide.md']!.generatedOutputStatus).toBe('current_available');

      // A deleted file is gone, whatever its status was.
      next = recorder.next(loadedWith((l) => l.status['new.md'] === undefined));
      await rm(join(dir, 'new.md'));
      await next;
      expect(recorder.changes.every((c) => c.ok)).toBe(true);
    } finally {
      await watcher.close();
    }
  });
});
