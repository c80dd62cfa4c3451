import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanLinks } from '../../src/agent/relations/index.js';
import { remarkLinkUrls } from '../helpers/links-oracle.js';

const scannerUrls = (markdown: string): string[] =>
  scanLinks(markdown)
    .map((link) => link.url)
    .sort();

const word = fc.constantFrom(
  'alpha',
  'beta',
  'x',
  '续费',
  '账单说明',
  'über',
  '😀',
  'a_b',
  '2 * 3',
  '!',
  '(',
  ')',
  '"',
);
const url = fc.constantFrom(
  './a.md',
  '../b/c.md#renewal',
  '/pages/x',
  'https://example.com/a_b?q=1',
  'a(b)c',
  '%E4%B8%AD.md',
  'a&amp;b',
  'x\\_y',
  'b&#65;c',
  '中文.md',
  'pages/a%20b.md',
  '#top',
  'mailto:a@b.c',
  'q&copy;',
  '\\(x\\)',
);
const title = fc.constantFrom(
  '',
  ' "title"',
  " 'single'",
  ' (paren)',
  ' "has ] bracket"',
  '\n  "next line"',
);
const label = fc.constantFrom('ref', 'Ref Two', '参考', 'undefined-label');

/** Inline pieces: links of every form, images, code spans, escapes, emphasis, raw HTML, stray brackets. */
const inline: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word,
    word,
    fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), url, title)
      .map(([t, u, ti]) => `[${t.join(' ')}](${u}${ti})`),
    fc.tuple(word, url).map(([t, u]) => `[${t}](<${u} with space>)`),
    fc.tuple(tie('piece'), url).map(([t, u]) => `[${t}](${u})`),
    fc.tuple(word, url).map(([t, u]) => `![${t}](${u})`),
    fc.tuple(word, url, url).map(([t, u, v]) => `![${t} [inner](${u})](${v})`),
    fc.tuple(word, url).map(([t, u]) => `[a [${t}] b](${u})`),
    fc.tuple(word, label).map(([t, l]) => `[${t}][${l}]`),
    label.map((l) => `[${l}]`),
    label.map((l) => `[${l}][]`),
    fc.tuple(word, url).map(([t, u]) => `\`[${t}](${u})\``),
    fc.tuple(word, url).map(([t, u]) => `\`\` a\`[${t}](${u}) \`\``),
    fc.tuple(word, url).map(([t, u]) => `\\[${t}](${u})`),
    fc.tuple(word, url).map(([t, u]) => `[${t}\\](${u})`),
    fc.tuple(word, url).map(([t, u]) => `*[${t}](${u})*`),
    fc.tuple(word, url).map(([t, u]) => `_${t}_ **[${t}](${u})**`),
    fc.tuple(word, url).map(([t, u]) => `<span title="]">[${t}](${u})</span>`),
    fc.tuple(word, url).map(([t, u]) => `[${t} <b>](${u})</b>`),
    fc.constant('<https://example.com/[x](y)>'),
    fc.tuple(word, url).map(([t, u]) => `[${t}](${u} "unclosed`),
    fc.tuple(word, url).map(([t, u]) => `[${t}]( ${u} )`),
    fc.constantFrom('[', ']', '![', '`', '\\', '&amp;', '[]', '[](x)', '[a](b c)', '[a]\n(b)'),
  ),
})).piece;

const sentence = fc.array(inline, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(' '));
const paragraph = fc
  .array(sentence, { minLength: 1, maxLength: 3 })
  .map((lines) => lines.join('\n'));
const definition = fc
  .tuple(label, url, title)
  .map(([l, u, t]) => `[${l}]: ${u}${t.replace('\n  ', '\n')}`);

/** Top-level blocks; raw HTML blocks and setext underlines right after definitions are left out (see the report). */
const block = fc.oneof(
  paragraph,
  paragraph,
  fc.array(definition, { minLength: 1, maxLength: 3 }).map((defs) => defs.join('\n')),
  fc
    .tuple(fc.array(definition, { minLength: 1, maxLength: 2 }), paragraph)
    .map(([defs, p]) => `${defs.join('\n')}\n${p}`),
  sentence.map((s) => `# ${s}`),
  sentence.map((s) => `## ${s} ##`),
  paragraph.map((p) => `${p}\n---`),
  fc.tuple(fc.constantFrom('```', '~~~', '````'), paragraph).map(([f, p]) => `${f}md\n${p}\n${f}`),
  paragraph.map((p) =>
    p
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n'),
  ),
  paragraph.map((p) =>
    p
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n'),
  ),
  paragraph.map((p) => `> ${p}`), // lazy continuation lines
  // Ordered lists start at 1: micromark refuses `2)` right after an indented code block (see `known differences`).
  fc.tuple(fc.constantFrom('- ', '* ', '1. ', '1) '), paragraph).map(([m, p]) =>
    p
      .split('\n')
      .map((l, i) => (i === 0 ? m : ' '.repeat(m.length)) + l)
      .join('\n'),
  ),
  fc
    .tuple(fc.constantFrom('- ', '1. '), paragraph)
    .map(
      ([m, p]) =>
        `${m}\`\`\`\n${' '.repeat(m.length)}${p.split('\n').join(`\n${' '.repeat(m.length)}`)}\n${' '.repeat(m.length)}\`\`\``,
    ),
  fc.tuple(definition, paragraph).map(([d, p]) => `> ${d}\n> ${p}`),
);

const document = fc
  .tuple(
    fc.array(fc.tuple(block, fc.constantFrom('\n\n', '\n\n', '\n')), { maxLength: 8 }),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([blocks, eol]) =>
    blocks
      .map(([b, sep]) => b + sep)
      .join('')
      .replaceAll('\n', eol),
  );

describe('links: the scanner finds the link destinations CommonMark (remark-parse) finds', () => {
  it('agrees with remark on generated documents (inline links + definitions, as a multiset)', () => {
    fc.assert(
      fc.property(document, (markdown) => {
        expect(scannerUrls(markdown)).toEqual(remarkLinkUrls(markdown));
      }),
      { numRuns: Math.max(400, fc.readConfigureGlobal().numRuns ?? 0) },
    );
  });

  it('follows remark where it differs from the spec: an ordered list from 2 after indented code is more code', () => {
    // CommonMark (spec, commonmark.js): `2) item` after an indented code block and a blank line starts a
    // list, so the indented line after it is the item's paragraph. micromark still sees the code block
    // as open and treats the marker as interrupting it (only `1.` may), so remark reads a paragraph and
    // then more code. The one block scanner (src/markdown) follows micromark for anchors and links
    // alike; before it, the link scanner followed the spec here and found `./a.md`.
    const text = '    code\n\n2) item\n\n    [a](./a.md)\n';
    expect(scannerUrls(text)).toEqual([]);
    expect(remarkLinkUrls(text)).toEqual([]);
    expect(scannerUrls('    code\n\n1) item\n\n    [a](./a.md)\n')).toEqual(['./a.md']);
  });

  it.each([
    // An unquoted attribute value ends at `/` (micromark's html-text): no tag, so the link is a link.
    ['[a <img src=images/x.png>](./a.md)', ['./a.md']],
    ['[a <img src=/x.png>](./a.md)', ['./a.md']],
    // A form feed is no whitespace inside a tag (so the `]` closes the text); a control character is
    // part of an unquoted value.
    ['[a <b\fc="]">](./a.md)', []],
    ['<b c=x\u0001"]"> [l](./b.md)', ['./b.md']],
    // A definition's destination nests parentheses without limit; an inline link's at most 32 deep.
    [`[d]: /${'('.repeat(33)}x${')'.repeat(33)}\n`, [`/${'('.repeat(33)}x${')'.repeat(33)}`]],
    [`[i](/${'('.repeat(33)}x${')'.repeat(33)})`, []],
    [`[i](/${'('.repeat(32)}x${')'.repeat(32)})`, [`/${'('.repeat(32)}x${')'.repeat(32)}`]],
    // A label of 999 characters is one; of 1,000 it is not.
    [`[${'x'.repeat(999)}]: /ok\n`, ['/ok']],
    [`[${'x'.repeat(1000)}]: /no\n`, []],
  ])(
    'reads link and tag syntax with the grammar the block scanner uses, as remark does: %j',
    (text, urls) => {
      expect(scannerUrls(text)).toEqual([...urls].sort());
      expect(remarkLinkUrls(text)).toEqual([...urls].sort());
    },
  );

  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const corpus = resolve(root, '../shared/corpus/markdown');
  const present = existsSync(corpus);
  it.skipIf(!present)(
    `agrees with remark on a fixed-seed sample of 300 real files (${present ? corpus : 'corpus absent: ../shared/corpus/markdown not found, skipped'})`,
    () => {
      const files: string[] = [];
      const stack = [corpus];
      while (stack.length > 0) {
        const dir = stack.pop()!;
        for (const entry of readdirSync(dir).sort()) {
          const path = join(dir, entry);
          if (statSync(path).isDirectory()) stack.push(path);
          else if (entry.endsWith('.md')) files.push(path);
        }
      }
      files.sort();
      const sample = fc.sample(
        fc.shuffledSubarray(files, {
          minLength: Math.min(300, files.length),
          maxLength: Math.min(300, files.length),
        }),
        { numRuns: 1, seed: 7 },
      )[0]!;
      const disagree: string[] = [];
      let links = 0;
      for (const file of sample) {
        const text = readFileSync(file, 'utf8');
        const ours = scannerUrls(text);
        links += ours.length;
        if (JSON.stringify(ours) !== JSON.stringify(remarkLinkUrls(text))) disagree.push(file);
      }
      expect(disagree).toEqual([]);
      expect(links).toBeGreaterThan(100);
    },
  );
});
