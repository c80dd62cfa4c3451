/**
 * The one block scanner (`src/markdown`) against remark-parse, through both of its consumers: the
 * anchor scanner's code lines (`scanText`) and the link scanner's links (`scanLinks`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanLinks } from '../src/agent/relations/index.js';
import { remarkLinkUrls } from './helpers/links-oracle.js';
import { remarkCodeLines, scannerCodeLines } from './helpers/codeLines.js';
import { commonMarkDocument } from './helpers/commonmark.js';

const numRuns = Math.max(1000, fc.readConfigureGlobal().numRuns ?? 0);

/**
 * A `commonMarkDocument` with ` [x](/L<n>)` appended to some of its non-blank lines (`n` the line),
 * so that every block, container and lazy line the arbitrary makes may carry a link.
 */
const linkedDocument = fc
  .tuple(commonMarkDocument, fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }))
  .map(([text, pattern]) => {
    const eol = /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
    return text
      .split(/\r\n|\r|\n/)
      .map((line, i) =>
        line.trim() !== '' && pattern[i % pattern.length] ? `${line} [x](/L${i + 1})` : line,
      )
      .join(eol);
  });

/** What both consumers say, beside what remark says. */
function bothConsumers(text: string): {
  readonly code: { readonly scanner: number[]; readonly remark: number[] };
  readonly links: { readonly scanner: string[]; readonly remark: string[] };
} {
  const found = scanLinks(text);
  for (const link of found) {
    const line = /^\/L(\d+)$/.exec(link.url)?.[1];
    if (line !== undefined) expect(link.line, link.url).toBe(Number(line));
  }
  return {
    code: { scanner: scannerCodeLines(text), remark: remarkCodeLines(text) },
    links: { scanner: found.map((l) => l.url).sort(), remark: remarkLinkUrls(text) },
  };
}

describe('the block scanner agrees with remark-parse through both consumers', () => {
  it('lines remark calls code are code to the anchor scanner, and hold no link for the link scanner', () => {
    fc.assert(
      fc.property(linkedDocument, (text) => {
        const { code, links } = bothConsumers(text);
        expect(code.scanner).toEqual(code.remark);
        expect(links.scanner).toEqual(links.remark);
      }),
      { numRuns },
    );
  });

  it('agrees on deep nesting: lines of list markers and quotes, indented by tabs and spaces', () => {
    const indent = fc
      .array(fc.constantFrom(' ', '  ', '\t', '   '), { maxLength: 12 })
      .map((parts) => parts.join(''));
    const markers = fc
      .array(fc.constantFrom('- ', '* ', '1. ', '2) ', '> ', '-\t', '>'), { maxLength: 8 })
      .map((parts) => parts.join(''));
    const content = fc.constantFrom(
      '',
      'x',
      '- - -',
      '***',
      '```',
      '    code',
      '<div>',
      '[r]: /r',
      '===',
    );
    const line = fc.tuple(indent, markers, content).map(([i, m, c]) => i + m + c);
    const deepDocument = fc
      .array(line, { minLength: 1, maxLength: 25 })
      .map((lines) => lines.map((l, i) => (i % 2 === 0 ? `${l} [x](/L${i + 1})` : l)).join('\n'));
    fc.assert(
      fc.property(deepDocument, (text) => {
        const { code, links } = bothConsumers(text);
        expect(code.scanner).toEqual(code.remark);
        expect(links.scanner).toEqual(links.remark);
      }),
      { numRuns },
    );
  });

  it('fixed case: a line the parser called code, the old link scanner a paragraph (issue 18)', () => {
    const text = '- a\n   > - 10. -\n   >         \n   >       > > [x](/y)\n';
    const { code, links } = bothConsumers(text);
    expect(code.remark).toEqual([4]);
    expect(code.scanner).toEqual([4]);
    expect(links.remark).toEqual([]);
    expect(links.scanner).toEqual([]);
  });
});
