/**
 * A page's default title and description from its text: an MDX page's `export const title` /
 * `description` (string literals), else the first ATX heading outside code, and the first paragraph
 * after it (or, with no heading, the first paragraph), inline markup removed. Read on the page's
 * text (`pageText`): heading-ID syntax, container and admonition markers, and in MDX pages ESM, JSX
 * and MDX comments are not text. The block structure is CommonMark's, from the same linear scanner
 * that finds links, so a heading inside a fenced or indented code block, or a paragraph made only of
 * link reference definitions, never counts. A long `.md` page is read from its opening alone when
 * that settles both as the whole page would (`summarizeFrom`).
 */
import {
  BACKSLASH,
  BOM,
  CR,
  GT,
  LT,
  LF,
  NBSP,
  OPEN_BRACKET,
  SPACE,
  TAB,
} from '../../markdown/chars.js';
import { readsAsMdx, scanPageText } from '../../markdown/pageText.js';
import { scanBlocks } from '../relations/markdownBlocks.js';
import { type Labels, scanInline } from '../relations/inlineScan.js';
import { normalizeLabel } from '../../markdown/linkSyntax.js';

/** Longest description, in code points, `…` included. */
const DESCRIPTION_CHARS = 200;

const NO_LABELS: Labels = new Set<string>();

/**
 * Inline Markdown as plain text: links keep their text, images their alt text, code spans their
 * content; emphasis markers, HTML tags and backslashes of escapes go; character references are
 * decoded; whitespace runs become one space, trimmed. Linear.
 *
 * @param text - the inline text of one paragraph or heading.
 * @param labels - normalized labels of the document's reference definitions, so `[text][label]` loses its label.
 * @returns the plain text.
 * @example
 * ```ts
 * plainInline('See **[billing](./b.md)** and `code`.'); // 'See billing and code.'
 * ```
 */
export function plainInline(text: string, labels: Labels = NO_LABELS): string {
  return collapseWhitespace(scanInline(text, labels, true).text);
}

/** Whitespace runs (Unicode white space included) as one space, trimmed. Linear. */
export function collapseWhitespace(text: string): string {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : SPACE;
    const space =
      c === SPACE ||
      (c >= TAB && c <= CR) ||
      c === NBSP ||
      c === 0x3000 ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === BOM ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x1680 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x85;
    if (space) {
      if (start >= 0) parts.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  return parts.join(' ');
}

/**
 * `text` cut to at most `max` code points, the last of them `…` when anything was cut (whitespace
 * before the `…` removed). A surrogate pair is never split.
 *
 * @param text - the text to cut.
 * @param max - the largest length in code points, at least 1.
 * @returns `text` itself when it fits.
 */
export function cutCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let points = 0;
  let keep = 0; // end of the first max - 1 code points
  for (let i = 0; i < text.length; points++) {
    if (points === max - 1) keep = i;
    else if (points === max) return `${text.slice(0, keep).trimEnd()}…`; // a code point past the limit
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return text;
}

/** What the text says about itself, where it says it. */
export interface TextSummary {
  /** An MDX page's `export const title`, else the first non-empty ATX heading outside code, as plain text. */
  readonly title: string | undefined;
  /**
   * An MDX page's `export const description`, else the first paragraph after that heading (or the
   * first one), plain, at most 200 code points.
   */
  readonly description: string | undefined;
}

/**
 * The title and description a page's text gives.
 *
 * @param text - the document's text (`catalog.read` of the whole document).
 * @param mdxPath - whether the page's path ends in `.mdx` (see `readsAsMdx`).
 * @returns `undefined` fields where the text has none.
 * @example
 * ```ts
 * summarize('## Props {#props}\n\nThe props.\n'); // { title: 'Props', description: 'The props.' }
 * summarize('export const title = "flex";\n\n# Examples\n', true); // title: 'flex'
 * ```
 */
export function summarize(text: string, mdxPath = false): TextSummary {
  return summarizeFrom(text, mdxPath, OPENING_CHARS);
}

/**
 * Where a long page's opening is read alone first (`summarizeFrom`): the page up to the end of the
 * first blank line at or after this many code units.
 */
export const OPENING_CHARS = 4096;

/**
 * `summarize`, reading a `.md` page longer than `openingChars` from its opening alone when that is
 * sure to give the same title and description (`summarizeText`'s `opening`), else whole. Internal;
 * exported for the property that both readings agree.
 *
 * @param text - the document's text.
 * @param mdxPath - whether the page's path ends in `.mdx`.
 * @param openingChars - the least length of the opening (`Infinity`: always the whole page).
 * @returns what `summarize` returns.
 */
export function summarizeFrom(text: string, mdxPath: boolean, openingChars: number): TextSummary {
  const mdx = readsAsMdx(mdxPath, text);
  // An MDX page's `export const title` may come anywhere: it is always read whole. Of a `.md` page,
  // the lines before a blank line read the same alone as in the whole page (`scanPageText` keeps
  // each line's place, and what it reads over several lines stops at a blank line).
  if (!mdx) {
    const cut = openingEnd(text, openingChars);
    if (cut !== -1) {
      const found = summarizeText(scanPageText(text.slice(0, cut), false, false).text, true, () =>
        labelsAfter(text, cut),
      );
      if (found !== undefined) return found;
    }
  }
  // References stay as written: `plainInline` decodes each inline text once.
  const page = scanPageText(text, mdx, false);
  const found = summarizeText(page.text, false)!;
  const title = nonEmpty(page.title) ?? found.title;
  const description = nonEmpty(page.description);
  return {
    title,
    description:
      description === undefined ? found.description : cutCodePoints(description, DESCRIPTION_CHARS),
  };
}

/**
 * Just past the first blank line (nothing but spaces and tabs before its `\n`) that ends at or after
 * `at`; `-1` when the text is no longer than `at` or has no such line before its end. Nothing the
 * scanners read goes on over a blank line: a paragraph, a link reference definition, a raw tag or
 * comment inside a paragraph's text (`inlineText` looks ahead to the next blank line at most).
 */
function openingEnd(text: string, at: number): number {
  const n = text.length;
  if (n <= at) return -1;
  for (let p = text.indexOf('\n', at); p !== -1; p = text.indexOf('\n', p + 1)) {
    let q = p + 1;
    while (q < n && (text.charCodeAt(q) === SPACE || text.charCodeAt(q) === TAB)) q++;
    if (q < n && text.charCodeAt(q) === CR) q++;
    if (q >= n) return -1;
    if (text.charCodeAt(q) === LF) return q + 1 < n ? q + 1 : -1;
  }
  return -1;
}

/**
 * The labels that link reference definitions after `cut` (the start of a line) may have, normalized,
 * or `undefined` when this cannot tell. Read on the raw text, while the whole page's definitions are
 * read on its page text (`scanPageText`), which removes raw HTML and breaks lines at a `\r` as well:
 * so each `]:` is read back to the last `[` before it on its line, and the answer is `undefined`
 * when that meets a line break (`\n` or `\r`: the label may have begun on an earlier line, behind a
 * quote's or a list's marker), a `<` or `>` (a tag or comment the page text removes, or a `[` inside
 * one), or a `]:` read before; when the `[` follows a backslash (it may be escaped); and when a `]<`
 * follows the cut (a tag between a label and its colon, removed, makes a `]:`). Otherwise every label
 * of a definition after the cut is in the set (and more: any `[x]:` counts, in code too). Linear: no
 * character is read back over twice.
 */
function labelsAfter(text: string, cut: number): ReadonlySet<string> | undefined {
  if (text.indexOf(']<', cut) !== -1) return undefined;
  const labels = new Set<string>();
  let from = cut;
  for (let at = text.indexOf(']:', cut); at !== -1; at = text.indexOf(']:', at + 2)) {
    let open = at - 1;
    for (; open >= from; open--) {
      const c = text.charCodeAt(open);
      if (c === OPEN_BRACKET || c === LF || c === CR || c === LT || c === GT) break;
    }
    if (open < from || text.charCodeAt(open) !== OPEN_BRACKET) return undefined;
    if (text.charCodeAt(open - 1) === BACKSLASH) return undefined;
    labels.add(normalizeLabel(text.slice(open + 1, at)));
    from = at + 2;
  }
  return labels;
}

/** `text` collapsed, or `undefined` when that is empty. */
function nonEmpty(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const plain = collapseWhitespace(text);
  return plain.length > 0 ? plain : undefined;
}

/**
 * `summarize` on a text without dialect markup. With `opening` (the text is a page's opening, cut
 * after a blank line), `undefined` unless the opening settles the answer as the whole page would:
 * its title is an ATX heading and a paragraph follows it in the opening (the blocks before a blank
 * line are the same in the opening as in the whole page), and no label that the inline scan of the
 * title or that paragraph looks up, undefined in the opening, is among those the rest of the page may
 * define (`later`, called at the first such label: `labelsAfter`; `undefined` from it means any
 * such label sends the page to be read whole).
 */
function summarizeText(
  text: string,
  opening: boolean,
  later?: () => ReadonlySet<string> | undefined,
): TextSummary | undefined {
  const { leaves, definitions } = scanBlocks(text);
  const defined = new Set(definitions.map((d) => d.label));
  // In an opening, a label looked up and not defined there may be defined later in the page.
  let unsure = false;
  let after: ReadonlySet<string> | undefined | null = null;
  const labels: Labels = opening
    ? {
        has: (label) => {
          if (defined.has(label)) return true;
          if (after === null) after = later?.();
          if (after === undefined || after.has(label)) unsure = true;
          return false;
        },
      }
    : defined;
  let title: string | undefined;
  let paragraph: string | undefined;
  let firstParagraph: string | undefined;
  for (const leaf of leaves) {
    if (leaf.kind === 'heading') {
      if (title === undefined && leaf.atx) {
        const text = plainInline(leaf.text, labels);
        if (text.length > 0) title = text;
      }
    } else if (title !== undefined) {
      paragraph = leaf.text;
      break;
    } else firstParagraph ??= leaf.text;
  }
  if (opening && paragraph === undefined) return undefined;
  const source = title === undefined ? firstParagraph : paragraph;
  const plain = source === undefined ? '' : plainInline(source, labels);
  if (unsure) return undefined;
  return {
    title,
    description: plain.length > 0 ? cutCodePoints(plain, DESCRIPTION_CHARS) : undefined,
  };
}
