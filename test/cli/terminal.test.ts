/**
 * `outline` and `search` print what comes from the files (front-matter IDs, paths, excerpts) with
 * control characters escaped as `check` escapes them: a terminal escape sequence or a line break in an
 * ID reaches the terminal as visible text, never raw.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-terminal-' });

const EVIL_ID = 'evil\u001b[31mred\nline';
const PAGE = [
  '---',
  'id: "evil\\x1b[31mred\\nline"',
  '---',
  '# Title',
  '',
  'Some searchable words here.',
  '',
].join('\n');

/** Whether `text` holds a control character other than the line break and the tab. */
function hasRawControl(text: string): boolean {
  for (const c of text) {
    const n = c.charCodeAt(0);
    if ((n < 0x20 && n !== 10 && n !== 9) || (n >= 0x7f && n <= 0x9f)) return true;
  }
  return false;
}

describe('terminal output of outline and search', () => {
  it('outline escapes an ID with an escape sequence and a line break', async () => {
    const dir = join(await tempRoot(), 'kb');
    await writeTree(dir, { 'a.md': PAGE });
    const run = await cliInProcess(['outline', dir]);
    expect(run.code).toBe(0);
    expect(hasRawControl(run.stdout)).toBe(false);
    expect(run.stdout).not.toContain(EVIL_ID);
    expect(run.stdout).toContain('evil\\x1b[31mred\\nline');
    // The ID did not start a line of its own.
    expect(run.stdout.split('\n').some((line) => line.startsWith('line'))).toBe(false);
  });

  it('search escapes the same ID in its hits', async () => {
    const dir = join(await tempRoot(), 'kb');
    await writeTree(dir, { 'a.md': PAGE });
    const run = await cliInProcess(['search', dir, 'searchable']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('evil\\x1b[31mred\\nline');
    expect(hasRawControl(run.stdout)).toBe(false);
    expect(run.stdout).not.toContain(EVIL_ID);
  });
});
