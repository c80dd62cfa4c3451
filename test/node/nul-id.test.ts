/**
 * A front-matter `id` holding NUL is a placed `INVALID_FRONT_MATTER` problem of its file (what `check`
 * lists), not an ID that passes the check and then fails `publish` with a raw encoding error.
 */
import { describe, expect, it } from 'vitest';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

describe('NUL in a front-matter id', () => {
  it('is INVALID_FRONT_MATTER at the id, naming the fix', async () => {
    const dir = await folder({
      'a.md': '---\ntitle: A\nid: "bad\\0id"\n---\n# A\n',
      'b.md': '# B\n',
    });
    const { issues } = await catchKnowledgeError(loadKnowledgeDirectory(dir));
    expect(issues.map((i) => [i.code, i.file, i.line, i.column])).toEqual([
      ['INVALID_FRONT_MATTER', 'a.md', 3, 5],
    ]);
    expect(issues[0]!.message).toContain('a.md:3:5: front matter `id` holds a NUL character');
    expect(issues[0]!.message).toContain('Remove it from the `id`');
  });

  it('leaves an id with other escapes alone', async () => {
    const dir = await folder({ 'a.md': '---\nid: "tab\\there"\n---\n# A\n' });
    const loaded = await loadKnowledgeDirectory(dir);
    expect(loaded.catalog.document('tab\there')).toBeDefined();
  });
});
