/**
 * A page's text (what search, excerpts and leads read) without inline markup that is not text:
 * raw HTML in `.md` pages (VitePress's `<Badge>`, `<kbd>`, `<span>`), and character references
 * decoded in both dialects, never inside code. `read_file` is not concerned: it returns the page.
 */
import { describe, expect, it } from 'vitest';
import { summarize } from '../src/agent/files/summarize.js';
import { mayHoldInline } from '../src/markdown/mayHoldInline.js';
import { pageText } from '../src/markdown/pageText.js';

describe('pageText: inline HTML and character references', () => {
  it('.md: a VitePress badge after a heading goes with its attributes; the heading stays', () => {
    expect(
      pageText('## `useData` <Badge type="info" text="composable" />\n\nReturns data.\n'),
    ).toBe('## `useData` \n\nReturns data.\n');
    expect(pageText('# MPA Mode <Badge type="warning" text="experimental" />\n')).toBe(
      '# MPA Mode \n',
    );
  });

  it('.md: inline tags go, the text between them stays; a break between words leaves a space', () => {
    expect(pageText('Press <kbd>Ctrl</kbd> + <kbd>K</kbd>.\n')).toBe('Press Ctrl + K.\n');
    expect(pageText('H<sub>2</sub>O, a<br>b, <span class="x">c</span>\n')).toBe('H2O, a b, c\n');
    expect(pageText('<code>string | <a href="/x">BadgeConfig</a></code>\n')).toBe(
      'string | BadgeConfig\n',
    );
  });

  it('.md: HTML comments go; a tag or comment over several lines of its paragraph goes whole', () => {
    expect(pageText('A <!-- note --> B\n')).toBe('A  B\n');
    expect(pageText('<img\n  src="a.png"\n  alt="x">\nafter\n')).toBe('\n  \n  \nafter\n');
    expect(pageText('A <!-- one\ntwo --> B\n')).toBe('A \n B\n');
    // Never over a blank line: the paragraph ends there.
    expect(pageText('A <b\n\nc="d">\n')).toBe('A <b\n\nc="d">\n');
  });

  it('.md: what is not a tag stays: autolinks, comparisons, code spans, escapes, code blocks', () => {
    for (const kept of [
      'See <https://x.y> and <a@b.c>.\n',
      'When a < b and c > d.\n',
      'Use `<Badge text="x" />` here.\n',
      'Not \\<b>bold\\</b>.\n',
      '```html\n<Badge text="x" /> &amp;\n```\n',
      '    <b>indented</b> &amp;\n',
    ])
      expect(pageText(kept)).toBe(kept);
  });

  it('character references are decoded outside code, in both dialects; never into a line break', () => {
    expect(pageText('directory &lt;-&gt; URL, A &amp; B, it&#x27;s &#169;\n')).toBe(
      "directory <-> URL, A & B, it's ©\n",
    );
    expect(pageText('Tom &amp; Jerry <Card>x &lt; y</Card>\n', true)).toBe('Tom & Jerry x < y\n');
    expect(pageText('a&#10;b&NewLine;c\n')).toBe('a b c\n');
    expect(pageText('`&amp;` and &unknown; and &amp\n')).toBe('`&amp;` and &unknown; and &amp\n');
  });

  it('read_file is untouched: titles decode once, from the page as written', () => {
    // The title reads the inline text once: `&lt;script&gt;` is the text `<script>`, not a tag.
    expect(summarize('# Using &lt;script&gt; &amp;amp;\n\nA <b>bold</b> start.\n')).toEqual({
      title: 'Using <script> &amp;',
      description: 'A bold start.',
    });
  });

  it('the quick test leaves code alone and scans where it cannot tell', () => {
    expect(mayHoldInline('```rust\nlet v: Vec<T> = x & y;\n```\n', true)).toBe(false);
    expect(mayHoldInline('Use `Vec<T>` and `&amp;`; see <https://x.y>.\n', true)).toBe(false);
    expect(mayHoldInline('A &amp; B\n', false)).toBe(false);
    expect(mayHoldInline('Press <kbd>K</kbd>\n', true)).toBe(true);
    expect(mayHoldInline('A &amp; B\n', true)).toBe(true);
    // A fence after a list marker may end with its item: what follows may be text.
    expect(mayHoldInline('- ```\n  ```js\nPress <kbd>K</kbd>\n', true)).toBe(true);
  });
});
