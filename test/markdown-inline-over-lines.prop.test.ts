/**
 * A tag or comment left open at a paragraph line's end is read over the paragraph's next lines, and
 * no further: not over a blank line, nor over a line that starts another block (a heading, a list
 * item, a fence, a block quote, a rule, a setext underline, an HTML block). remark-parse (CommonMark)
 * is the oracle: `pageText` removes the tag that starts the page's first line's `<` exactly when
 * remark reads an inline HTML node there.
 */
import fc from 'fast-check';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { summarize, summarizeFrom } from '../src/agent/files/summarize.js';
import { MAX_CODE_SPAN } from '../src/markdown/inlineText.js';
import { pageText, scanPageText } from '../src/markdown/pageText.js';

const remark = unified().use(remarkParse);

interface MdNode {
  readonly type: string;
  readonly children?: readonly MdNode[];
  readonly position?: { readonly start: { readonly offset?: number } };
}

/** Whether remark reads an inline `html` node (inside a paragraph or heading) starting at `offset`. */
function remarkHtmlAt(markdown: string, offset: number): boolean {
  const stack: MdNode[] = [remark.parse(markdown) as MdNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'paragraph' || node.type === 'heading')
      for (const child of node.children ?? [])
        if (child.type === 'html' && child.position?.start.offset === offset) return true;
    if (node.children) stack.push(...node.children);
  }
  return false;
}

/** Starts of a tag or comment that the first line leaves open. */
const OPEN = fc.constantFrom('<span', '<b class="x"', '<!-- note', '<img src="a.png"', '<a');
/** Next lines: a paragraph's continuations, the tag's end, and lines that start another block. */
const NEXT = fc.constantFrom(
  'more words',
  '  alt="y">',
  'title="t">',
  'end -->',
  '-->',
  '>',
  '',
  '   ',
  '# Heading',
  '## h -->',
  '#nospace',
  '- item',
  '- item -->',
  '- **bold** x',
  '-  two spaces',
  '- -->',
  '- - -',
  '-     x -->',
  '* `code` >',
  '- # h',
  '+\tx >',
  '-',
  '+ plus >',
  '* star',
  '1. one',
  '1) one -->',
  '2. two',
  '10. ten >',
  '01. one >',
  '1.',
  '> quote -->',
  '---',
  '===',
  '***',
  '_ _ _',
  '```',
  '~~~ js',
  '``` a`b',
  '<div>',
  '<div class="z">',
  '<!-- c -->',
  '<span>',
  '<pre>',
  '<?php x ?>',
  '<![CDATA[ x ]]>',
  '<!DOCTYPE html>',
  '    # indented >',
  '   # three spaces',
  '\t# tab',
);

describe('a tag left open at a line end goes on over its paragraph only', () => {
  it('pageText removes the first line’s tag exactly when remark-parse reads inline HTML there', () => {
    fc.assert(
      fc.property(
        OPEN,
        fc.array(NEXT, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        (open, next, eol) => {
          const text = `Intro ${open}${eol}${next.join(eol)}${eol}`;
          const at = 'Intro '.length;
          const removed = !pageText(text).startsWith(`Intro ${open}`);
          expect(removed, JSON.stringify(text)).toBe(remarkHtmlAt(text, at));
        },
      ),
    );
  });

  it('a code span left open at a line end goes on over its paragraph: a tag in it is code', () => {
    // The first line opens a code span, then a tag; the next lines may close either, or end the
    // paragraph. remark reads an inline HTML node at the tag exactly when the span does not close.
    const NEXT_CODE = fc.constantFrom(
      'more words',
      'y` after',
      'y`` after',
      '`',
      '``',
      'a ` b ` c',
      'title="t">',
      'x>` <b>',
      '',
      '# Heading `',
      '- item `',
      '> quote `',
      '```',
      '    indented `',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('`', '``'),
        OPEN,
        fc.array(NEXT_CODE, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        (run, open, next, eol) => {
          const text = `Intro ${run}x ${open}${eol}${next.join(eol)}${eol}`;
          const at = `Intro ${run}x `.length;
          const full = scanPageText(text, false, true, false).text;
          const removed = !full.startsWith(`Intro ${run}x ${open}`);
          expect(removed, JSON.stringify(text)).toBe(remarkHtmlAt(text, at));
        },
      ),
    );
  });

  it('reads what follows a code span that closed on a later line as usual', () => {
    const full = (text: string) => scanPageText(text, false, true, false).text;
    expect(full('A `Box<dyn\nTrait>` b <b>x</b> &amp;\n')).toBe('A `Box<dyn\nTrait>` b x &\n');
    expect(full('A `&amp;\nx` &amp; y\n')).toBe('A `&amp;\nx` & y\n');
    // Not closed in its paragraph (a blank line, a heading): the backtick is text, the tag a tag.
    expect(full('A `Box<dyn\n\nTrait>` b\n')).toBe('A `Box<dyn\n\nTrait>` b\n');
    expect(full('A `x <b>\n# h <i>`\n')).toBe('A `x \n# h `\n');
    // A span is looked for up to MAX_CODE_SPAN past its line's end: further on, it is not one.
    const words = 'words and more words\n'.repeat(Math.ceil(MAX_CODE_SPAN / 21));
    expect(full(`A \`x <b>\n${words}y\` z\n`)).toBe(`A \`x \n${words}y\` z\n`);
    expect(full(`A \`x <b>\n${words.slice(0, 900)}y\` z\n`)).toBe(
      `A \`x <b>\n${words.slice(0, 900)}y\` z\n`,
    );
    // The summary of a page reads the same from its opening and whole.
    const page = '# T\n\n`x <i>\ny`\n\n:::\n';
    expect(summarizeFrom(page, false, 4)).toEqual(summarizeFrom(page, false, Infinity));
    expect(summarizeFrom(page, false, Infinity)).toEqual({ title: 'T', description: 'x <i> y' });
  });

  it('a comment left open before a list item stays text: the description is the paragraph', () => {
    const page = '# Title\n\nIntro text. <!-- TODO\n- item one\n- item\n-->\n\nMore.\n';
    expect(summarize(page)).toEqual({ title: 'Title', description: 'Intro text. <!-- TODO' });
    expect(pageText(page)).toBe(page);
    // Closed on a line of the paragraph, it goes as before.
    expect(pageText('Intro <!-- TODO\nstill a note -->\n- item\n')).toBe('Intro \n\n- item\n');
    expect(pageText('A <b\n# h c="d">\n')).toBe('A <b\n# h c="d">\n');
    expect(pageText('A <b\n    c="d">\n')).toBe('A \n    \n');
  });

  it('in a raw HTML block, a tag or comment goes on to the blank line, whatever its lines start', () => {
    // An HTML block (CommonMark kinds 1-7) is not a paragraph: no heading or list item ends it.
    for (const [page, kept] of [
      ['<!--\n- TODO one\n- TODO two\n-->\n', ''],
      ['<div\n  class="x"\n>\ncontent\n</div>\n', 'content'],
      ['<details>\n<a\n  href="x"\n>link</a>\n</details>\n', 'link'],
      ['<div>\nIntro <!-- a\n# not a heading here -->\n</div>\n', 'Intro'],
    ] as const) {
      const text = pageText(page);
      expect(text.replace(/\s+/g, ' ').trim(), JSON.stringify(page)).toBe(kept);
    }
  });
});
