/**
 * The marker lines of docs-site blocks, read on a line's text after its container prefixes:
 * containers (`::: tip Title` … `:::` of VitePress, `:::tip[Title]` of Docusaurus) and MkDocs
 * admonitions (`!!! note "Title"`, `??? note`, `???+ note`, whose body is indented by four columns).
 * A marker line is not text; its title is. Internal to `src/markdown`.
 */
import {
  BANG,
  CLOSE_BRACKET,
  COLON,
  EQUALS,
  OPEN_BRACE,
  OPEN_BRACKET,
  PLUS,
  QUESTION,
  QUOTATION_MARK,
  isSpaceOrTab,
} from './chars.js';

/** `containerMarker`'s and `admonitionMarker`'s answer for a line that is no marker. */
export const NO_MARKER = -1;

/** Where a marker line's title is: `[titleStart, titleEnd)`, empty when it has none. */
export class MarkerTitle {
  titleStart = 0;
  titleEnd = 0;
}

/**
 * Reads a container marker at `p` (three or more `:`): a closing marker (colons alone), or an
 * opening one with a name and maybe a title (`::: tip Title`, `:::tip[Title]`, `::: details`).
 *
 * @param title - receives the title's range (empty for a closing marker or no title).
 * @returns `NO_MARKER`, or the number of colons.
 * @example
 * ```ts
 * containerMarker('::: tip Read this', 0, 17, t); // 3; t: [8, 17) ("Read this")
 * ```
 */
export function containerMarker(text: string, p: number, end: number, title: MarkerTitle): number {
  let k = p;
  while (k < end && text.charCodeAt(k) === COLON) k++;
  const colons = k - p;
  if (colons < 3) return NO_MARKER;
  title.titleStart = title.titleEnd = k;
  while (k < end && isSpaceOrTab(text.charCodeAt(k))) k++;
  if (k >= end) return colons; // a closing marker
  // The name: up to a blank, `[` or `{`.
  const nameStart = k;
  while (k < end) {
    const c = text.charCodeAt(k);
    if (isSpaceOrTab(c) || c === OPEN_BRACKET || c === OPEN_BRACE || c === COLON) break;
    k++;
  }
  if (k === nameStart) return NO_MARKER;
  let stop = end;
  while (stop > k && isSpaceOrTab(text.charCodeAt(stop - 1))) stop--;
  if (k < end && text.charCodeAt(k) === OPEN_BRACKET) {
    let close = stop - 1; // on the line only
    while (close > k && text.charCodeAt(close) !== CLOSE_BRACKET) close--;
    if (close > k) {
      title.titleStart = k + 1;
      title.titleEnd = close;
    }
    return colons;
  }
  if (k < end && text.charCodeAt(k) === OPEN_BRACE) return colons; // attributes only
  while (k < stop && isSpaceOrTab(text.charCodeAt(k))) k++;
  title.titleStart = k;
  title.titleEnd = stop;
  return colons;
}

/**
 * Reads an admonition marker at `p`: `!!!`, `???` or `???+`, a blank, a type (`note`, maybe more
 * classes), then maybe a quoted title; or a content tab's (`=== "Title"`, `===+`, `===!`), whose
 * body is indented as an admonition's. A definition's `:` and blanks may come first
 * (`:   !!! note`), as MkDocs pages write admonitions inside definition lists.
 *
 * @param title - receives the title's range (inside the quotes; empty without one).
 * @returns `NO_MARKER`, or where the marker starts (after a definition's `:`).
 * @example
 * ```ts
 * admonitionMarker('!!! note "Heads up"', 0, 19, t); // 0; t: [10, 18) ("Heads up")
 * ```
 */
export function admonitionMarker(text: string, p: number, end: number, title: MarkerTitle): number {
  if (p + 4 >= end) return NO_MARKER;
  if (text.charCodeAt(p) === COLON && isSpaceOrTab(text.charCodeAt(p + 1))) {
    p++;
    while (p < end && isSpaceOrTab(text.charCodeAt(p))) p++;
    if (p + 4 >= end) return NO_MARKER;
  }
  const at = p;
  const c = text.charCodeAt(p);
  if (c !== BANG && c !== QUESTION && c !== EQUALS) return NO_MARKER;
  if (text.charCodeAt(p + 1) !== c || text.charCodeAt(p + 2) !== c) return NO_MARKER;
  let k = p + 3;
  const d = text.charCodeAt(k);
  if ((c === QUESTION && d === PLUS) || (c === EQUALS && (d === PLUS || d === BANG))) k++;
  if (k >= end || !isSpaceOrTab(text.charCodeAt(k))) return NO_MARKER;
  while (k < end && isSpaceOrTab(text.charCodeAt(k))) k++;
  if (k >= end) return NO_MARKER;
  // An admonition's type comes first; a content tab has only its quoted title.
  if ((text.charCodeAt(k) === QUOTATION_MARK) !== (c === EQUALS)) return NO_MARKER;
  title.titleStart = title.titleEnd = end;
  // Both searches stay on the line: a search past it would make a page of markers quadratic.
  let open = k;
  while (open < end && text.charCodeAt(open) !== QUOTATION_MARK) open++;
  if (open < end) {
    let close = end - 1;
    while (close > open && text.charCodeAt(close) !== QUOTATION_MARK) close--;
    if (close > open) {
      title.titleStart = open + 1;
      title.titleEnd = close;
    }
  }
  return at;
}
