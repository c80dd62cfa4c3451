/**
 * The headings of a page, as the way into it: every ATX and setext heading outside code (read with
 * the one block scanner, so a `#` line inside a fenced or indented code block never counts), with
 * its depth, its text (the explicit ID syntax of docs sites stripped), its ID (that explicit ID, else
 * the GitHub-style slug of its text, made unique in page order) and its range: from the heading's
 * line to just before the next heading of the same or a higher level, or the end of the text. One
 * linear pass; no regular expression runs on the page's text (only on each heading's short text).
 */
import { BlockScanner } from './blockScanner.js';
import { EQUALS, HASH } from './chars.js';
import { splitHeadingId } from './headingId.js';
import { atxText } from './leafStarts.js';
import { ATX_HEADING, PARAGRAPH_LINE, PARAGRAPH_START, SETEXT_UNDERLINE } from './lineKinds.js';
import { LineReader } from './lines.js';

/** One heading of a text and its range, in UTF-16 code units of that text. */
export interface HeadingRange {
  /** The explicit ID the heading writes, else the slug of `text`; unique within the text. */
  readonly id: string;
  /** The heading's text: the ID syntax stripped, inline markup reduced by the `plain` given. */
  readonly text: string;
  /** 1 to 6: the number of `#`, or 1 for a `=` underline and 2 for a `-` one. */
  readonly depth: number;
  /** Where the heading's first line starts (its container prefixes included). */
  readonly start: number;
  /** Where the next heading of the same or a higher level starts, or the text's length. */
  readonly end: number;
}

/** What a heading's raw inline text is reduced to; the default only collapses whitespace. */
export type PlainInline = (raw: string) => string;

const collapse: PlainInline = (raw) => raw.replace(/\s+/g, ' ').trim();

/**
 * Characters a GitHub slug drops: everything but letters, marks, numbers, connector punctuation
 * (`_`), spaces and `-` (github-slugger's rule). A character class: linear, no backtracking.
 */
const SLUG_DROP = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

/**
 * The GitHub-style slug of a heading's text: lower case, punctuation and symbols dropped, each space
 * a `-` (CJK and other letters kept).
 *
 * @param text - a heading's plain text.
 * @returns its slug, possibly empty (a heading of symbols only).
 * @example
 * ```ts
 * headingSlug('Props & Events: v2.0'); // 'props--events-v20'
 * headingSlug('快速上手 Quick Start'); // '快速上手-quick-start'
 * ```
 */
export function headingSlug(text: string): string {
  return text.toLowerCase().replace(SLUG_DROP, '').replaceAll(' ', '-');
}

/**
 * IDs made unique in page order as GitHub does: the second `intro` is `intro-1`, the third
 * `intro-2`, skipping any suffix already taken. An empty slug is `heading`.
 */
class UniqueIds {
  private readonly seen = new Map<string, number>();

  take(wanted: string): string {
    const base = wanted.length > 0 ? wanted : 'heading';
    let id = base;
    let n = this.seen.get(base);
    if (n !== undefined) {
      do {
        n++;
        id = `${base}-${n}`;
      } while (this.seen.has(id));
      this.seen.set(base, n);
    }
    this.seen.set(id, 0);
    return id;
  }
}

/**
 * Every ATX and setext heading of `text` outside code, in page order, with its range. Linear in the
 * text's length (plus `plain` on each heading's text), whatever the nesting of block quotes and lists.
 *
 * @param text - CommonMark text; LF, CRLF and CR line endings.
 * @param plain - reduces a heading's inline text (its ID syntax already stripped) to plain text;
 *   the agent layer passes its inline reader, the default collapses whitespace only.
 * @returns the headings; `[]` for a text without one.
 * @example
 * ```ts
 * scanHeadings('# A\n\ntext\n\n## B {#b-id}\n\nmore\n');
 * // [{ id: 'a', text: 'A', depth: 1, start: 0, end: 26 },
 * //  { id: 'b-id', text: 'B', depth: 2, start: 10, end: 26 }]
 * ```
 */
export function scanHeadings(text: string, plain: PlainInline = collapse): HeadingRange[] {
  const found: { id: string; text: string; depth: number; start: number; end: number }[] = [];
  const ids = new UniqueIds();
  const open: number[] = []; // indexes in `found` of headings whose range is still open
  const add = (raw: string, depth: number, start: number): void => {
    while (open.length > 0 && found[open[open.length - 1]!]!.depth >= depth)
      found[open.pop()!]!.end = start;
    const split = splitHeadingId(raw);
    const shown = plain(split.text);
    const id = ids.take(split.id ?? headingSlug(shown));
    open.push(found.length);
    found.push({ id, text: shown, depth, start, end: text.length });
  };

  const scanner = new BlockScanner(text);
  const lines = new LineReader(text);
  let paragraph: string[] = [];
  let paragraphStart = 0;
  while (lines.read()) {
    scanner.contentAt = -1;
    const kind = scanner.line(lines.start, lines.end, lines.first, lines.code);
    const at = scanner.contentAt < 0 ? lines.first : scanner.contentAt;
    if (kind === PARAGRAPH_LINE) {
      if (paragraph.length === 0) paragraphStart = lines.start;
      paragraph.push(text.slice(at, lines.end));
      continue;
    }
    if (kind === SETEXT_UNDERLINE && paragraph.length > 0) {
      add(paragraph.join('\n'), text.charCodeAt(at) === EQUALS ? 1 : 2, paragraphStart);
    }
    paragraph = [];
    if (kind === PARAGRAPH_START) {
      paragraphStart = lines.start;
      paragraph.push(text.slice(at, lines.end));
    } else if (kind === ATX_HEADING) {
      let hashes = at;
      while (text.charCodeAt(hashes) === HASH) hashes++;
      const [from, to] = atxText(text, at, lines.end);
      add(text.slice(from, to), hashes - at, lines.start);
    }
  }
  return found;
}
