import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/agent/files/index.js';
import { OPENING_CHARS, summarizeFrom } from '../../src/agent/files/summarize.js';
import { CORPUS_ROOT, DOCS_SITE_FOLDERS } from '../helpers/search-fixtures.js';

/**
 * A long `.md` page's title and description are read from its opening when that settles them
 * (`summarizeFrom`); they must be what reading the whole page gives, wherever the opening ends.
 */
const whole = (text: string, mdx = false) => summarizeFrom(text, mdx, Infinity);
const filler = (n: number) => `${'Filler paragraph of words. '.repeat(40)}\n\n`.repeat(n);

describe('files: a long page summarized from its opening', () => {
  it('reads a reference link of the description by a definition at the end of the page', () => {
    const text = `# Billing\n\nRenewals happen yearly, see [the policy][p].\n\n${filler(10)}[p]: ./policy.md\n`;
    expect(text.length).toBeGreaterThan(OPENING_CHARS * 2);
    expect(summarize(text)).toEqual({
      title: 'Billing',
      description: 'Renewals happen yearly, see the policy.',
    });
    // Without the definition, the brackets are text.
    expect(summarize(text.replace('[p]: ./policy.md\n', ''))).toEqual({
      title: 'Billing',
      description: 'Renewals happen yearly, see [the policy][p].',
    });
  });

  it('reads what goes on over the lines after the opening (a definition, a tag, a comment)', () => {
    const cases = [
      '# Billing\n\nSee [the policy][p].\n\nOther.\n\n[p]:\n./policy.md\n',
      '# Billing\n\nSee [the policy][p].\n\nOther.\n\n[p]: ./policy.md "The\npolicy"\n',
      '# Title\n\nIntro <span title="\n# Next\nwords">\n',
      '# Title\n\nIntro text. <!-- TODO\n## Later\nnotes\n-->\n',
      // Definitions after the opening with labels over two lines, escaped brackets, in a quote, or
      // used by the title.
      '# Billing\n\nSee [over two].\n\nOther.\n\n[over\ntwo]: ./two.md\n',
      '# Billing\n\nSee [a\\]b].\n\nOther.\n\n[a\\]b]: ./e.md\n',
      '# Billing\n\nSee [x\\[y][].\n\nOther.\n\n[x\\[y]: ./e.md\n',
      '# Billing\n\nSee [Quoted].\n\nOther.\n\n> [quoted]: ./q.md\n',
      '# Billing [other]\n\nSee.\n\nOther.\n\n[other]: ./o.md\n',
      // The whole page's definitions are read on its page text, without raw HTML and with a lone
      // `\r` as a line break: a tag or comment in a label or before its colon, a label over two
      // lines of a quote.
      '# T\n\nPress [<kbd>Ctrl</kbd>].\n\nOther.\n\n[<kbd>Ctrl</kbd>]: /keys\n',
      '# T\n\nSee [ax].\n\nOther.\n\n[a<!-- c -->x]: /u\n',
      '# T\n\nSee [a b].\n\nOther.\n\n[a <b t="[">b]: /u\n',
      '# T\n\nSee [a b].\n\nOther.\n\n[a <span t="\n[">b]: /u\n',
      '# T\n\nSee [foo].\n\nOther.\n\n[foo]<b></b>: /u\n',
      '# T\n\nSee [a b].\n\nOther.\n\n> [a\r> b]: /u\n',
    ];
    for (const text of cases)
      for (let at = 0; at <= text.length; at++)
        expect(summarizeFrom(text, false, at), `${JSON.stringify(text)} from ${at}`).toEqual(
          whole(text),
        );
    expect(whole(cases[0]!).description).toBe('See the policy.');
    expect(cases.slice(4).map((text) => whole(text))).toEqual([
      { title: 'Billing', description: 'See over two.' },
      { title: 'Billing', description: 'See a]b.' },
      { title: 'Billing', description: 'See x[y.' },
      { title: 'Billing', description: 'See Quoted.' },
      { title: 'Billing other', description: 'See.' },
      { title: 'T', description: 'Press Ctrl.' },
      { title: 'T', description: 'See ax.' },
      { title: 'T', description: 'See a b.' },
      { title: 'T', description: 'See a b.' },
      // The page text removes the tag before the colon, so the line reads as a definition there.
      { title: 'T', description: 'See foo.' },
      { title: 'T', description: 'See a b.' },
    ]);
    // The heading ends the paragraph: the tag left open stays text (CommonMark).
    expect(whole(cases[2]!).description).toBe('Intro <span title="');
  });

  it('finds a title and description that come after the opening', () => {
    const late = `${'```\n# not a title\n\n'}${filler(10)}\`\`\`\n\n# Late title\n\nThe late paragraph.\n\nMore.\n`;
    expect(summarize(late)).toEqual({ title: 'Late title', description: 'The late paragraph.' });
    // A paragraph right at the opening's end, then a setext underline after it: a heading, not a
    // description.
    const body = `# Title\n\n${filler(10)}`;
    const cut = body.length;
    expect(summarizeFrom(`${body}Next one.\n\nMore.\n`, false, cut - 2)).toEqual(
      whole(`${body}Next one.\n\nMore.\n`),
    );
  });

  it('reads an MDX page whole (its `export const title` may come anywhere)', () => {
    const text = `# Heading\n\nFirst paragraph.\n\n${filler(10)}export const title = "Exported";\n`;
    expect(summarize(text, true).title).toBe('Exported');
    expect(summarize(text, false).title).toBe('Heading');
  });

  it('gives what the whole page gives, wherever the opening ends (generated pages, every place)', () => {
    const block = fc.constantFrom(
      '# Title one',
      '# Title two',
      'A paragraph\nover\nthree lines',
      '## `code` title {#id}',
      '#',
      '# [linked][ref] title',
      'A paragraph with [a link][ref] and *emphasis*.',
      'A paragraph\nover two lines',
      'Setext heading\n---',
      'Setext heading\n===',
      '[ref]: ./target.md "Title"',
      '[other]: ./o.md',
      '```\ncode\n\n# not a heading\n```',
      '```\nunclosed fence',
      '    indented code',
      '> quoted\nlazy line',
      '- item one\n\n  continued item',
      '1. first\n2. second',
      '<!-- a comment\n\nover a blank line -->',
      '<div>\n\nhtml block\n</div>',
      '::: tip Note\nInside a container.\n:::',
      '!!! note "Admonition"\n\n    Indented body.',
      '<script setup>\nconst a = 1;\n\n</script>',
      '| a | b |\n| - | - |\n| 1 | 2 |',
      'Paragraph with &amp; entity and <kbd>tag</kbd>.',
      // Read over several lines: a tag or comment left open at a line's end, a definition whose
      // destination or title is on the next lines.
      'Intro <span title="',
      '">',
      'Text <!-- note',
      '-->',
      '[ref]:',
      './target.md',
      '[ref]: ./t.md "A',
      'end"',
      // Labels as definitions after the opening may give them: another case, over two lines, with
      // escaped brackets, in a quote, in code (no definition), and the references that use them.
      '[REF]: ./upper.md',
      '[over\ntwo]: ./two.md',
      '[a\\]b]: ./escaped.md',
      '[x\\[y]: ./escaped.md',
      '> [quoted]: ./q.md',
      '    [other]: ./indented.md',
      '`[ref]: ./in-code.md`',
      'See [over two], [a\\]b], [x\\[y][] and [quoted].',
      '# Title with [other]',
      '[a <kbd>b</kbd>]: ./tag.md',
      '[q]<!-- c -->: ./comment.md',
      'See [a b], [q] and [a <kbd>b</kbd>].',
      '> [c\r> d]: ./cr.md',
      'See [c d].',
      '',
      '   ',
      '\t',
    );
    const page = fc
      .array(fc.tuple(block, fc.constantFrom('\n\n', '\n', '\n \n', '\r\n\r\n')), {
        maxLength: 14,
      })
      .map((parts) => parts.map(([b, sep]) => b + sep).join(''));
    fc.assert(
      fc.property(page, (text) => {
        const want = whole(text);
        for (let at = 0; at <= text.length; at++)
          expect(summarizeFrom(text, false, at), `opening from ${at}`).toEqual(want);
      }),
    );
  });
});

const present = existsSync(CORPUS_ROOT);
describe.skipIf(!present)('files: summaries from the opening on the real corpus', () => {
  it('give what the whole page gives on every page of the docs sites and books', () => {
    const files: string[] = [];
    for (const folder of [...DOCS_SITE_FOLDERS, 'rust-lang+book', 'ruanyf+es6tutorial'])
      for (const entry of readdirSync(path.join(CORPUS_ROOT, folder), { recursive: true }))
        if (/\.mdx?$/.test(String(entry)))
          files.push(path.join(CORPUS_ROOT, folder, String(entry)));
    let long = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const mdx = file.endsWith('.mdx');
      const want = whole(text, mdx);
      if (text.length > OPENING_CHARS) long++;
      for (const at of [0, 200, 1024, OPENING_CHARS])
        expect(summarizeFrom(text, mdx, at), `${file} at ${at}`).toEqual(want);
    }
    expect(long).toBeGreaterThan(100);
  });
});
if (!present) it.skip('the Markdown corpus is absent', () => {});
