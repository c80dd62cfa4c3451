/**
 * A search lead reads only the start of a long `.md` page: on every `.md` page of the real corpus, the
 * start it scans gives the same first code points as scanning the whole page.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { leadText } from '../../src/agent/search/documentLead.js';
import { pageText } from '../../src/markdown/pageText.js';
import { CORPUS_ROOT } from '../helpers/search-fixtures.js';

/** Every `.md` file below the corpus, dot folders and node_modules left out (an explicit stack). */
function markdownFiles(): string[] {
  const out: string[] = [];
  const stack = [CORPUS_ROOT];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.name.endsWith('.md')) out.push(full);
    }
  }
  return out.sort();
}

describe.skipIf(!existsSync(CORPUS_ROOT))('documentLead on long pages', () => {
  it("the start a lead scans gives the whole page scan's first code points, on every corpus .md page", () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(1000);
    let shortened = 0;
    const differ: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const points of [202, 1202]) {
        const head = leadText(text, false, points);
        if (head.length < pageText(text).length) shortened++;
        const first = (s: string) => Array.from(s).slice(0, points).join('');
        if (first(head) !== first(pageText(text))) differ.push(`${file} (${points})`);
      }
    }
    expect(differ).toEqual([]);
    // The shortcut is taken: most long pages are scanned only in part.
    expect(shortened).toBeGreaterThan(500);
  });

  it('an .mdx page is always scanned whole (a JSX element may run over blank lines)', () => {
    const jsx = `<Cards>\n\n${'Intro text here. '.repeat(400)}\n\n</Cards>\n\nAfter.\n`;
    expect(leadText(jsx, true, 202)).toBe(pageText(jsx, true));
  });
});
