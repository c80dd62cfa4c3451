/**
 * HTML tags and attributes as CommonMark reads them (micromark's `html-text`): tag names, open tags
 * with their attributes, closing tags, and the other inline raw HTML (comments, processing
 * instructions, declarations, CDATA). The one tag grammar of the package: a raw HTML block of kind 7
 * (`htmlBlock.ts`) is a complete tag on its line, and the link scanner of the agent layer skips inline
 * raw HTML (which binds tighter than link brackets) with `inlineHtmlEnd`. Forward-only scans that
 * stop at `end`; whitespace inside a tag is spaces, tabs and line endings. Internal to the package.
 */
import {
  APOSTROPHE,
  BACKTICK,
  BANG,
  COLON,
  DASH,
  EQUALS,
  GT,
  LT,
  PERIOD,
  QUESTION,
  QUOTATION_MARK,
  SLASH,
  UNDERSCORE,
  isAlnum,
  isAlpha,
  isSpaceOrLineEnding,
  skipSpaceOrLineEnding,
} from './chars.js';

const FAIL = -1;

/** The end of a tag name from `pos`: a letter, then letters, digits and `-`; or `-1`. */
export function tagNameEnd(s: string, pos: number, end: number): number {
  if (pos >= end || !isAlpha(s.charCodeAt(pos))) return FAIL;
  let i = pos + 1;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c) && c !== DASH) break;
    i++;
  }
  return i;
}

/** Whether `c` may start an attribute name (a letter, `_` or `:`). */
const isAttributeStart = (c: number): boolean => isAlpha(c) || c === UNDERSCORE || c === COLON;
/** Whether `c` may go on an attribute name (also digits, `.` and `-`). */
const isAttributeChar = (c: number): boolean =>
  isAlnum(c) || c === UNDERSCORE || c === PERIOD || c === COLON || c === DASH;

/**
 * The end of an open tag whose name ends at `pos`: its attributes (each after whitespace: a name,
 * maybe `=` and a value, quoted or not), then `>` or `/>`.
 *
 * @returns the position after the `>`, or `-1`.
 */
export function openTagEnd(s: string, pos: number, end: number): number {
  let i = pos;
  for (;;) {
    const before = i;
    i = skipSpaceOrLineEnding(s, i, end);
    const c = i < end ? s.charCodeAt(i) : FAIL;
    if (c === GT) return i + 1;
    if (c === SLASH) return i + 1 < end && s.charCodeAt(i + 1) === GT ? i + 2 : FAIL;
    if (i === before || !isAttributeStart(c)) return FAIL; // an attribute needs whitespace before it
    i++;
    while (i < end && isAttributeChar(s.charCodeAt(i))) i++;
    let j = skipSpaceOrLineEnding(s, i, end);
    if (j >= end || s.charCodeAt(j) !== EQUALS) continue;
    j = skipSpaceOrLineEnding(s, j + 1, end);
    const q = j < end ? s.charCodeAt(j) : FAIL;
    if (q === QUOTATION_MARK || q === APOSTROPHE) {
      j++;
      while (j < end && s.charCodeAt(j) !== q) j++;
      if (j === end) return FAIL;
      i = j + 1;
    } else {
      // Unquoted: not empty, no quote, `=`, `<` or backtick; a `/`, `>` or whitespace ends it (as in
      // micromark, a `/` past its first character ends it, so `a=b/c` is no attribute).
      if (q === FAIL || q === EQUALS || q === LT || q === GT || q === BACKTICK) return FAIL;
      j++;
      for (; j < end; j++) {
        const v = s.charCodeAt(j);
        if (v === SLASH || v === GT || isSpaceOrLineEnding(v)) break;
        if (v === QUOTATION_MARK || v === APOSTROPHE || v === EQUALS || v === LT || v === BACKTICK)
          return FAIL;
      }
      i = j;
    }
  }
}

/** The end of a closing tag whose name ends at `pos`: whitespace, then `>`; the position after it, or `-1`. */
export function closeTagEnd(s: string, pos: number, end: number): number {
  const i = skipSpaceOrLineEnding(s, pos, end);
  return i < end && s.charCodeAt(i) === GT ? i + 1 : FAIL;
}

/**
 * Inline raw HTML at `s[pos] === '<'`: an open or closing tag, a comment, a processing instruction, a
 * declaration or a CDATA section.
 *
 * @returns the position after it, or `-1`.
 */
export function inlineHtmlEnd(s: string, pos: number, end: number): number {
  const c = s.charCodeAt(pos + 1);
  if (isAlpha(c)) return openTagEnd(s, tagNameEnd(s, pos + 1, end), end);
  if (c === SLASH) {
    const name = tagNameEnd(s, pos + 2, end);
    return name < 0 ? FAIL : closeTagEnd(s, name, end);
  }
  if (c === QUESTION) return after(s, '?>', pos + 2, end);
  if (c !== BANG) return FAIL;
  if (s.startsWith('--', pos + 2)) {
    if (s.charCodeAt(pos + 4) === GT) return pos + 5; // <!-->
    if (s.startsWith('->', pos + 4)) return pos + 6; // <!--->
    return after(s, '-->', pos + 4, end);
  }
  if (s.startsWith('[CDATA[', pos + 2)) return after(s, ']]>', pos + 9, end);
  if (isAlpha(s.charCodeAt(pos + 2))) return after(s, '>', pos + 3, end);
  return FAIL;
}

/** The position after the first `marker` at or after `from` that ends by `end`, or `-1`. */
function after(s: string, marker: string, from: number, end: number): number {
  const at = s.indexOf(marker, from);
  return at < 0 || at + marker.length > end ? FAIL : at + marker.length;
}
