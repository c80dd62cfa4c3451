/** File names that are not UTF-8: one `INVALID_ENCODING` problem of that file, the others read. */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadIssues } from '../helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

describe('file names that are not UTF-8', () => {
  it('one such name is one INVALID_ENCODING problem for that file; every other file is still read', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'b.md': '# B\n<!-- agent-section:open -->\n' });
    const name = Buffer.concat([
      Buffer.from(dir + '/bad'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('.md'),
    ]);
    await writeFile(name, '# Bad\n');
    const issues = await loadIssues(dir);
    expect(issues.map((i) => [i.code, i.file])).toEqual([
      ['UNCLOSED_SECTION', 'b.md'],
      ['INVALID_ENCODING', 'bad\uFFFD\uFFFD.md'],
    ]);
    expect(issues[1]!.message).toContain('file name is not valid UTF-8');
  });
});
