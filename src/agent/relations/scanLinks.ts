/**
 * `scanLinks`: every Markdown inline link and link reference definition outside code, with its
 * decoded destination and line. Linear; remark-parse is its test oracle (test/agent/links-*.prop.test.ts).
 */
import { firstAtLeast } from '../../shared/sortedSearch.js';
import { scanBlocks } from './markdownBlocks.js';
import { scanInline } from './inlineScan.js';

/** A link destination found in Markdown. */
export interface LinkRef {
  /**
   * The destination as CommonMark reads it: backslash escapes and character references decoded,
   * percent-encoding left as written (remark's `node.url`).
   */
  readonly url: string;
  /** Line (1-based) of the link's `[` or the definition's label. */
  readonly line: number;
  /** An inline link `[text](url)` or a reference definition `[label]: url`. */
  readonly kind: 'inline' | 'definition';
}

/**
 * Find the inline links (`[text](url "title")`, `[text](<url>)`) and reference definitions
 * (`[label]: url`) of a Markdown text, outside code spans, fenced and indented code and raw HTML.
 * Images (`![alt](src)`) are not links and are left out, and so are links inside an image's
 * description; autolinks (`<https://…>`) are left out, as they always carry a scheme. Reference links
 * (`[text][label]`) are found through their definition.
 *
 * @param markdown - CommonMark text; LF, CRLF and CR line endings.
 * @returns every link, in source order (by line; inline links before definitions on a line never mix).
 * @example
 * ```ts
 * scanLinks('See [billing](./billing.md#renewal).\n\n[faq]: /pages/faq.md');
 * // [{ url: './billing.md#renewal', line: 1, kind: 'inline' }, { url: '/pages/faq.md', line: 3, kind: 'definition' }]
 * ```
 */
export function scanLinks(markdown: string): LinkRef[] {
  const { leaves, definitions } = scanBlocks(markdown);
  const refs: LinkRef[] = [];
  const defined = new Set<string>();
  for (const definition of definitions) {
    defined.add(definition.label);
    refs.push({ url: definition.url, line: definition.line, kind: 'definition' });
  }
  for (const leaf of leaves) {
    const { links } = scanInline(leaf.text, defined, false);
    if (links.length === 0) continue;
    const lineOf = lineCounter(leaf.text, leaf.line);
    for (const link of links)
      refs.push({ url: link.url, line: lineOf(link.offset), kind: 'inline' });
  }
  return refs.sort((a, b) => a.line - b.line);
}

/** Line of an offset in `text` whose first line is `first`: a binary search over its line feeds. */
function lineCounter(text: string, first: number): (offset: number) => number {
  const feeds: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) feeds.push(i);
  return (offset) => first + firstAtLeast(feeds, offset);
}
