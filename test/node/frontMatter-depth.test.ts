/**
 * Front matter that nests deeper than the YAML reader's stack: one placed `INVALID_FRONT_MATTER` of
 * that file, never another kind of exception, and under watch one failed reload, not a storm.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchKnowledgeDirectory } from '../../src/node/index.js';
import { changeRecorder } from '../helpers/changeRecorder.js';
import { expectPlacedIssue, loadIssues } from '../helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

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
    const issues = await loadIssues(dir);
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
