import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldInline } from '../src/markdown/mayHoldInline.js';
import { pageText, scanPageText } from '../src/markdown/pageText.js';

/** Lines with every dialect's syntax and some CommonMark around it. */
const LINE = fc.constantFrom(
  '## Title {#id}',
  '# A { #b .c }',
  'Heading {/*x*/}',
  '===',
  '::: tip Title',
  ':::tip[T]',
  ':::',
  '!!! note "N"',
  '??? note',
  '=== "Tab"',
  '    indented',
  '\tTabbed',
  'import X from "x";',
  'export const title = "t";',
  'export const a = {',
  '}',
  '<Card title="x">',
  '</Card>',
  '<X a={1} />',
  '{/* c */}',
  '{expr',
  'text `<Tabs>` and {b}',
  '> quote',
  '- item',
  '1. one',
  'plain words',
  'Say <b>hi</b> &amp; <Badge type="info" text="x" /> &#10; &NewLine; end',
  '<div class="a"',
  '  id="b">text</div>',
  '<!-- a comment',
  'that ends -->',
  'code `&lt;b&gt;` and &lt;b&gt;',
  '',
  '',
);

/** A fenced code block whose body holds dialect syntax too. */
const FENCE = fc
  .array(LINE, { maxLength: 4 })
  .map((body) => `\`\`\`txt\n${body.join('\n')}${body.length > 0 ? '\n' : ''}\`\`\``);

/** A page: blocks separated by blank lines, fenced code at the top level (after a plain line). */
const PAGE = fc
  .array(
    fc.oneof(
      fc.array(LINE, { minLength: 1, maxLength: 5 }).map((lines) => lines.join('\n')),
      FENCE.map((fence) => `plain\n\n${fence}`),
    ),
    { maxLength: 8 },
  )
  .map((blocks) => `${blocks.join('\n\n')}\n`);

/** The fenced code blocks of a page written by `FENCE`: from an opening line to its closing line. */
function fencesOf(page: string): string[] {
  const found: string[] = [];
  let from = page.indexOf('```txt\n');
  while (from >= 0) {
    const close = page.indexOf('\n```', from + 6);
    if (close < 0) break;
    found.push(page.slice(from, close + 4));
    from = page.indexOf('```txt\n', close + 4);
  }
  return found;
}

/** Lines of `.md` pages with inline HTML and references, in code and out of it. */
const INLINE_LINE = fc.constantFrom(
  'Press <kbd>K</kbd> now',
  'A &amp; B',
  'let v: Vec<T> = x;',
  '`Vec<T>` and `&amp;`',
  '``a ` <b>`` c',
  '```rust',
  '```',
  '~~~',
  '  ```js',
  '> ```',
  '- ```',
  '    <b>indented</b>',
  '<!-- c -->',
  'x < y & z',
  'plain',
  '',
);

describe('pageText', () => {
  it('the quick test never skips a .md page the scan would change (1,000 pages)', () => {
    fc.assert(
      fc.property(fc.array(INLINE_LINE, { maxLength: 12 }), fc.boolean(), (lines, decode) => {
        const page = `${lines.join('\n')}\n`;
        if (!mayHoldInline(page, decode))
          expect(scanPageText(page, false, decode, false).text).toBe(page);
      }),
      { seed: 20261207, numRuns: 1000 },
    );
  });

  it('is never longer than the page, and has exactly its lines (1,000 pages, both dialects)', () => {
    fc.assert(
      fc.property(PAGE, fc.boolean(), (page, mdx) => {
        const text = pageText(page, mdx);
        expect(text.length).toBeLessThanOrEqual(page.length);
        // Removed lines keep their break: line n of the text is what is left of line n of the page.
        expect(text.split('\n').length).toBe(page.split('\n').length);
      }),
      { seed: 20261207, numRuns: 1000 },
    );
  });

  it('keeps every fenced code block verbatim (1,000 pages, both dialects)', () => {
    fc.assert(
      fc.property(PAGE, fc.boolean(), (page, mdx) => {
        // Only pages where no ESM, JSX expression or admonition body is left open before a fence.
        // Nor an HTML comment left open (CommonMark reads on to its end as HTML, fences included).
        fc.pre(!/(?:export const a = \{|\{expr|!!!|\?\?\?|===|<Card|<!-- a comment)/.test(page));
        const text = pageText(page, mdx);
        for (const fence of fencesOf(page)) expect(text).toContain(fence);
      }),
      { seed: 20261207, numRuns: 1000 },
    );
  });

  it('is the page itself when it holds no dialect syntax', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (page) => {
        fc.pre(!/[{:!?<=&]/.test(page) && !/(?:^|\n)(?:import|export)/.test(page));
        expect(pageText(page, true)).toBe(page);
        expect(pageText(page, false)).toBe(page);
      }),
      { seed: 20261207, numRuns: 500 },
    );
  });

  it('reads a long page in time linear in its length (no backtracking)', () => {
    const unit = '## A {#a}\n\n::: tip T\n<X a={`${1}`}>b</X> {/* c */}\n:::\n\n';
    // Each size's fastest of five runs, the two sizes taking turns, so that a busy machine's pauses
    // (another process, a collection) do not fall on one size only.
    const ratio = (mdx: boolean, small: string, large: string): number => {
      const once = (page: string): number => {
        const start = performance.now();
        pageText(page, mdx);
        return performance.now() - start;
      };
      once(small);
      let fast = Infinity;
      let slow = Infinity;
      for (let i = 0; i < 5; i++) {
        fast = Math.min(fast, once(small));
        slow = Math.min(slow, once(large));
      }
      return slow / Math.max(fast, 0.5);
    };
    expect(ratio(true, unit.repeat(2_000), unit.repeat(20_000))).toBeLessThan(40);
    // Unclosed constructs cost no more: an open tag, expression, string or comment to the end.
    for (const open of ['<X ', '{', '<X a="', '{/* ']) {
      const page = `${open}${'x '.repeat(100_000)}\n`.repeat(3);
      expect(pageText(page, true).length).toBeLessThanOrEqual(page.length);
    }
    // A .md page's raw HTML and references: each tag read over a bounded length.
    const html = '<Badge text="x" /> &amp; <a href="y">b</a> <!-- c -->\n\n';
    expect(ratio(false, html.repeat(2_000), html.repeat(20_000))).toBeLessThan(40);
    // Unclosed tags, strings and comments, each read again from every `<`: the same.
    for (const open of ['<a x="', '<!-- ', '<a ', '&amp']) {
      const page = (n: number) => `${open.repeat(n)}\n`.repeat(3);
      expect(ratio(false, page(5_000), page(50_000)), open).toBeLessThan(40);
      expect(pageText(page(2_000), false).length).toBeLessThanOrEqual(page(2_000).length);
    }
  });
});
