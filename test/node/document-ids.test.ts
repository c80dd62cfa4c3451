/**
 * Document IDs the agent layer cannot serve (a navigation file's ID, a lone surrogate): a placed
 * problem of the file, at its front matter `id` when it has one.
 */
import { describe, expect, it } from 'vitest';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { loadIssues } from '../helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

describe('document IDs the agent layer cannot serve', () => {
  it('`id: index.md`, an ID that is another page`s graph file, and a lone surrogate: placed problems', async () => {
    const dir = await folder({
      'a.md': '---\nid: index.md\n---\n# A\n',
      'b.md': '---\ntitle: B\nid: _graph/by-file/c.json\n---\n# B\n',
      'c.md': '# C\n',
      'd.md': '---\nid: "\\ud800"\n---\n# D\n',
    });
    const issues = await loadIssues(dir);
    expect(issues.map((i) => [i.code, i.file, i.line, i.column])).toEqual([
      ['INVALID_FRONT_MATTER', 'a.md', 2, 5],
      ['INVALID_FRONT_MATTER', 'b.md', 3, 5],
      ['INVALID_FRONT_MATTER', 'd.md', 2, 5],
    ]);
    expect(issues[0]!.message).toContain('navigation file');
    expect(issues[1]!.message).toContain('`_graph/by-file/c.json`');
    expect(issues[2]!.message).toContain('lone surrogate');

    const named = await folder({ 'index.md.md': '# Named like the index\n' });
    const byPath = await loadIssues(named);
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
