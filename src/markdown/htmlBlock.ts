/**
 * Raw HTML blocks (CommonMark 4.6, micromark-core-commonmark's `html-flow`): the seven kinds of start
 * condition, with the one list of block tag names, and the end conditions of kinds 1-5 (kinds 6
 * and 7 end at a blank line). A kind 7 block starts with a complete tag of the one tag grammar
 * (`htmlSyntax.ts`). Internal to `src/markdown`.
 */
import {
  BANG,
  DASH,
  GT,
  LT,
  QUESTION,
  SLASH,
  SPACE,
  TAB,
  contains,
  has,
  isAlpha,
  onlySpaceOrTab,
} from './chars.js';
import { closeTagEnd, openTagEnd, tagNameEnd } from './htmlSyntax.js';

/** Kind 1 HTML blocks (raw text, ended by their closing tag). */
const RAW_NAMES: ReadonlySet<string> = new Set(['pre', 'script', 'style', 'textarea']);
/** Kind 6 HTML blocks (ended by a blank line): CommonMark's list, as micromark has it. */
const BLOCK_NAMES: ReadonlySet<string> = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

/** Whether `<!--` is at `p` (a `<`). */
export function isCommentStart(text: string, p: number): boolean {
  return (
    text.charCodeAt(p + 1) === BANG &&
    text.charCodeAt(p + 2) === DASH &&
    text.charCodeAt(p + 3) === DASH
  );
}

/**
 * The kind (1-7) of the raw HTML block that the line `[p, end)` (from its `<`) starts, or 0.
 *
 * @param text - the whole text.
 * @param p - the `<`, after at most three columns of indentation.
 * @param end - the end of the line.
 * @returns 1-7, or 0 when the line starts no HTML block. Kind 7 may not interrupt a paragraph: the
 *   caller decides.
 */
export function htmlStart(text: string, p: number, end: number): number {
  const c = text.charCodeAt(p + 1);
  if (c === BANG) {
    if (text.startsWith('<!--', p)) return 2;
    if (text.startsWith('<![CDATA[', p)) return 5;
    return isAlpha(text.charCodeAt(p + 2)) ? 4 : 0;
  }
  if (c === QUESTION) return 3;
  const closing = c === SLASH;
  const nameStart = closing ? p + 2 : p + 1;
  const q = tagNameEnd(text, nameStart, end);
  if (q < 0) return 0;
  const d = q < end ? text.charCodeAt(q) : SPACE;
  const ends = d === SPACE || d === TAB || d === GT;
  if (!ends && d !== SLASH) return 0;
  const name = q - nameStart <= 10 ? text.slice(nameStart, q).toLowerCase() : '';
  if (!closing && d !== SLASH && RAW_NAMES.has(name)) return 1;
  if (BLOCK_NAMES.has(name)) {
    if (ends) return 6;
    return text.charCodeAt(q + 1) === GT ? 6 : 0;
  }
  // Kind 7: a complete open or closing tag (`htmlSyntax.ts`), then only blanks.
  const tagEnd = closing ? closeTagEnd(text, q, end) : openTagEnd(text, q, end);
  return tagEnd >= 0 && onlySpaceOrTab(text, tagEnd, end) ? 7 : 0;
}

/**
 * Whether the line `[from, end)` holds the end condition of an HTML block of kind 1-5.
 *
 * @param kind - 1-5; kinds 6 and 7 end at a blank line instead.
 */
export function htmlEnds(text: string, from: number, end: number, kind: number): boolean {
  switch (kind) {
    case 1:
      for (let i = from; i + 1 < end; i++) {
        if (text.charCodeAt(i) !== LT || text.charCodeAt(i + 1) !== SLASH) continue;
        let q = i + 2;
        while (q < end && isAlpha(text.charCodeAt(q))) q++;
        if (
          q < end &&
          text.charCodeAt(q) === GT &&
          q - i - 2 <= 8 &&
          RAW_NAMES.has(text.slice(i + 2, q).toLowerCase())
        )
          return true;
      }
      return false;
    case 2:
      return commentEnds(text, from, end);
    case 3:
      return has(text, from, end, '?>');
    case 4:
      return contains(text, from, end, GT);
    default:
      return has(text, from, end, ']]>');
  }
}

/**
 * Whether `[from, end)` contains `-->`. From the end back, looking for the `>`: a comment line most
 * often ends with it, so an anchor line costs three reads.
 */
export function commentEnds(text: string, from: number, end: number): boolean {
  for (let i = end - 1; i >= from + 2; i--) {
    if (
      text.charCodeAt(i) === GT &&
      text.charCodeAt(i - 1) === DASH &&
      text.charCodeAt(i - 2) === DASH
    )
      return true;
  }
  return false;
}
