import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  loadKnowledgeDirectory,
  watchKnowledgeDirectory,
  type KnowledgeDirectoryChange,
  type LoadedKnowledgeDirectory,
} from '../../src/node/index.js';
import { changeRecorder } from '../helpers/changeRecorder.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { placeOf } from '../helpers/place.js';
import { expectPlacedIssue, sha256Revision } from '../helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

/** An `onChange` that ignores every report. */
const ignore = (): void => undefined;

/** The document-mode content of `id`, or undefined when the folder has no such document. */
function contentOf(loaded: LoadedKnowledgeDirectory, id: string): string | undefined {
  return loaded.catalog.ids.includes(id)
    ? loaded.catalog.read({ documentId: id, selection: { mode: 'document' } }).content
    : undefined;
}

/** Whether `change` loaded cleanly and `id` reads as `content`. */
const loadedWith =
  (id: string, content: string) =>
  (change: KnowledgeDirectoryChange): boolean =>
    change.ok && contentOf(change.loaded, id) === content;

/**
 * Replaces `path` in `dir` at once (written in a dot folder, which is never watched, then renamed), so
 * that no reload can see a half-written file.
 */
async function replaceFile(dir: string, path: string, contents: string): Promise<void> {
  const staging = join(dir, '.staging', `${Math.random().toString(36).slice(2)}.tmp`);
  await mkdir(dirname(staging), { recursive: true });
  await writeFile(staging, contents);
  const target = join(dir, ...path.split('/'));
  await mkdir(dirname(target), { recursive: true });
  await rename(staging, target);
}

describe('watchKnowledgeDirectory', () => {
  it('swaps in a good reload, keeps the last good catalog through a bad one, and swaps again once fixed', async () => {
    const dir = await folder({ 'guide.md': 'Version one.\n', 'faq.md': 'Questions.\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeDirectory(dir, { debounceMs: 50 }, recorder.onChange);
    try {
      const first = watcher.current;
      expect(first.catalog.ids).toEqual(['faq', 'guide']);
      expect(contentOf(first, 'guide')).toBe('Version one.');

      const good = recorder.next(loadedWith('guide', 'Version two.'));
      await replaceFile(dir, 'guide.md', 'Version two.\n');
      const goodChange = await good;
      if (!goodChange.ok) throw new Error('expected a good reload');
      expect(watcher.current).toBe(goodChange.loaded);
      expect(watcher.current).not.toBe(first);
      expect(goodChange.loaded.catalog.document('guide').revision).toBe(
        sha256Revision('Version two.\n'),
      );
      expect(contentOf(first, 'guide')).toBe('Version one.');

      const broken =
        '---\ntitle: Guide\nowner: docs\n---\nIntro.\n<!-- agent-section:open -->\nText.\n';
      const bad = recorder.next((change) => !change.ok);
      await replaceFile(dir, 'guide.md', broken);
      const badChange = await bad;
      if (badChange.ok) throw new Error('expected a failed reload');
      expect(badChange.error.issues).toHaveLength(1);
      expectPlacedIssue(badChange.error.issues[0], {
        code: 'UNCLOSED_SECTION',
        file: 'guide.md',
        ...placeOf(broken, '<!-- agent-section:open'),
      });
      expect(watcher.current).toBe(goodChange.loaded);
      expect(contentOf(watcher.current, 'guide')).toBe('Version two.');

      const fixedText = `${broken}<!-- /agent-section:open -->\n`;
      const fixed = recorder.next((change) => change.ok);
      await replaceFile(dir, 'guide.md', fixedText);
      const fixedChange = await fixed;
      if (!fixedChange.ok) throw new Error('expected a good reload');
      expect(watcher.current).toBe(fixedChange.loaded);
      expect(fixedChange.loaded.catalog.sectionIds('guide')).toEqual(['open']);
      expect(fixedChange.loaded.files['guide']?.title).toBe('Guide');
      expect(fixedChange.loaded.catalog.document('guide').revision).toBe(sha256Revision(fixedText));
    } finally {
      await watcher.close();
    }
  });

  it('reports files added in new folders and files removed', async () => {
    const dir = await folder({ 'guide.md': 'Guide.\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeDirectory(
      pathToFileURL(dir),
      { debounceMs: 50 },
      recorder.onChange,
    );
    try {
      expect(watcher.current.directory).toBe(dir);
      const added = recorder.next(loadedWith('deep/new/page', 'New page.'));
      await replaceFile(dir, 'deep/new/page.md', 'New page.\n');
      const addedChange = await added;
      expect(addedChange.ok && addedChange.loaded.paths).toEqual({
        'deep/new/page': 'deep/new/page.md',
        guide: 'guide.md',
      });

      const removed = recorder.next(
        (change) => change.ok && !change.loaded.catalog.ids.includes('guide'),
      );
      await rm(join(dir, 'guide.md'));
      const removedChange = await removed;
      expect(removedChange.ok && removedChange.loaded.catalog.ids).toEqual(['deep/new/page']);
      expect(watcher.current.catalog.ids).toEqual(['deep/new/page']);
    } finally {
      await watcher.close();
    }
  });

  it('reloads with the same include and exclude as the first load', async () => {
    const dir = await folder({ 'guide.md': 'Guide.\n', 'drafts/old.md': 'Old draft.\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeDirectory(
      dir,
      { debounceMs: 50, exclude: ['drafts/**'] },
      recorder.onChange,
    );
    try {
      expect(watcher.current.catalog.ids).toEqual(['guide']);
      const next = recorder.next(loadedWith('guide', 'Guide, edited.'));
      await replaceFile(dir, 'drafts/new.md', 'New draft.\n');
      await replaceFile(dir, 'guide.md', 'Guide, edited.\n');
      const change = await next;
      expect(change.ok && change.loaded.catalog.ids).toEqual(['guide']);
    } finally {
      await watcher.close();
    }
  });

  it('reports nothing after close()', async () => {
    const dir = await folder({ 'guide.md': 'Guide.\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeDirectory(dir, { debounceMs: 50 }, recorder.onChange);
    // A second watcher with a longer quiet time witnesses the change: when it reports, the closed one
    // (quicker) would have reported too had it still been watching.
    const witness = changeRecorder();
    const witnessWatcher = await watchKnowledgeDirectory(
      dir,
      { debounceMs: 400 },
      witness.onChange,
    );
    try {
      const alive = recorder.next(loadedWith('guide', 'Before close.'));
      await replaceFile(dir, 'guide.md', 'Before close.\n');
      await alive;
      await watcher.close();
      const reported = recorder.changes.length;

      const seen = witness.next(loadedWith('guide', 'After close.'));
      await replaceFile(dir, 'guide.md', 'After close.\n');
      await seen;
      expect(recorder.changes.length).toBe(reported);
      expect(contentOf(watcher.current, 'guide')).toBe('Before close.');
      await expect(watcher.close()).resolves.toBeUndefined();
    } finally {
      await witnessWatcher.close();
    }
  });

  it('goes on watching a folder that is deleted and made again: READ_FAILED, then the new contents, then later edits', async () => {
    const dir = await folder({ 'guide.md': 'Guide.\n' });
    const recorder = changeRecorder();
    const watcher = await watchKnowledgeDirectory(dir, { debounceMs: 20 }, recorder.onChange);
    try {
      const gone = recorder.next((change) => !change.ok);
      await rm(dir, { recursive: true, force: true });
      const goneChange = await gone;
      if (goneChange.ok) throw new Error('expected a failed reload');
      expect(goneChange.error.issues[0]).toMatchObject({ code: 'READ_FAILED', path: ['dir'] });
      expect(contentOf(watcher.current, 'guide')).toBe('Guide.');

      const back = recorder.next(loadedWith('only', 'Only.'));
      await mkdir(dir);
      await writeFile(join(dir, 'only.md'), 'Only.\n');
      await back;
      const edited = recorder.next(loadedWith('only', 'Edited.'));
      await replaceFile(dir, 'only.md', 'Edited.\n');
      await edited;
      expect(watcher.current.catalog.ids).toEqual(['only']);
    } finally {
      await watcher.close();
    }
  });

  it('does not lose an edit made while the first load runs', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++)
      files[`bulk/page-${String(i).padStart(4, '0')}.md`] = `Page ${i}.\n`;
    files['zz.md'] = 'Before.\n';
    const dir = await folder(files);
    const recorder = changeRecorder();
    const edited = recorder.next(loadedWith('zz', 'After.'));
    const watching = watchKnowledgeDirectory(dir, { debounceMs: 20 }, recorder.onChange);
    // The watch starts before the first load reads anything; the edit lands during that load.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await replaceFile(dir, 'zz.md', 'After.\n');
    const watcher = await watching;
    try {
      // Either the first load read the edit, or a reload after it did: the edit is never lost.
      if (contentOf(watcher.current, 'zz') !== 'After.') await edited;
      expect(contentOf(watcher.current, 'zz')).toBe('After.');
    } finally {
      await watcher.close();
    }
  });

  it('rejects with the first load’s KnowledgeError, placed in the file', async () => {
    const text = '---\nweight: .inf\n---\nBody.\n';
    const dir = await folder({ 'bad.md': text });
    const recorder = changeRecorder();
    const error = await catchKnowledgeError(
      watchKnowledgeDirectory(dir, { debounceMs: 50 }, recorder.onChange),
    );
    const direct = await catchKnowledgeError(loadKnowledgeDirectory(dir));
    expect(error.issues).toEqual(direct.issues);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'bad.md',
      ...placeOf(text, '.inf'),
    });
    expect(recorder.changes).toEqual([]);
  });

  it('rejects a missing folder with READ_FAILED', async () => {
    const missing = join(await folder(), 'missing');
    const error = await catchKnowledgeError(watchKnowledgeDirectory(missing, {}, ignore));
    expect(error.issues[0]).toMatchObject({ code: 'READ_FAILED', file: missing });
  });

  it.each([
    {
      name: 'a negative debounceMs',
      options: { debounceMs: -1 },
      onChange: ignore,
      path: ['options', 'debounceMs'],
    },
    {
      name: 'a fractional debounceMs',
      options: { debounceMs: 1.5 },
      onChange: ignore,
      path: ['options', 'debounceMs'],
    },
    {
      name: 'an onChange that is not a function',
      options: {},
      onChange: 'log',
      path: ['onChange'],
    },
    {
      name: 'an unknown option',
      options: { debounce: 10 },
      onChange: ignore,
      path: ['options', 'debounce'],
    },
  ])('refuses $name with INVALID_INPUT', async ({ options, onChange, path }) => {
    const dir = await folder({ 'guide.md': 'Guide.\n' });
    const error = await catchKnowledgeError(
      watchKnowledgeDirectory(dir, options as never, onChange as never),
    );
    expect(error.issues[0]).toMatchObject({ code: 'INVALID_INPUT', path });
  });
});
