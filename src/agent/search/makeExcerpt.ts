import { advanceCodePoints, retreatCodePoints } from '../../shared/codePoints.js';
import { isWhitespaceCode } from '../../markdown/chars.js';

/** The excerpt's ellipsis mark, at each cut end. */
export const CUT = '…';
/** How far (code units) a cut may move to land on a space between words. */
const SNAP = 16;

/**
 * The whitespace runs collapsing must rewrite: runs of two or more, and single whitespace characters
 * other than a space. Replacing these by one space gives what replacing every `\s+` run does, but
 * leaves the many single spaces of prose alone: about three times faster on English text. Linear (no
 * nested quantifiers).
 */
export const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;

/**
 * Collapse whitespace as excerpts do: every run of JavaScript whitespace (`\s`) becomes one space, ends
 * trimmed.
 *
 * @param text - any text.
 * @returns the collapsed text.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ').trim();
}

/** Whether `text[from, to)` holds a character that is not whitespace (`/\S/`), without slicing it. */
export function hasTextIn(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhitespaceCode(text.charCodeAt(i))) return true;
  return false;
}

/**
 * At most `maxChars` code points of `text` (whitespace-collapsed), `…` marks included, around the
 * code-unit range `[start, end)`: about a quarter of the room before it, the rest after; cuts move to a
 * space when one is near so words stay whole, and past a long word or URL to the next word boundary
 * (a space, or beside a CJK character) when none is; a `…` marks each cut end. The words are the
 * text's own.
 *
 * @param text - whitespace-collapsed text.
 * @param start - start of the matched term (code units); `0` for the text's start.
 * @param end - end of the matched term.
 * @param maxChars - largest result, in code points.
 * @param before - the source continues before `text` (so its start is a cut too).
 * @param after - the source continues after `text`.
 * @returns the excerpt.
 */
export function makeExcerpt(
  text: string,
  start: number,
  end: number,
  maxChars: number,
  before = false,
  after = false,
): string {
  // Without a surrogate (nearly every text), a code point is a code unit: no counting loops.
  return cutExcerpt(text, start, end, maxChars, before, after, !HIGH_SURROGATE.test(text));
}

/** `makeExcerpt`, told whether `text` is free of high surrogates (`bmp`) instead of testing it. */
export function cutExcerpt(
  text: string,
  start: number,
  end: number,
  maxChars: number,
  before: boolean,
  after: boolean,
  bmp: boolean,
): string {
  if (!before && !after && fitsIn(text, 0, maxChars, bmp)) return text;
  if (maxChars < 3) return maxChars >= 1 ? CUT : '';
  const tail = after ? 1 : 0;
  let from = snapForward(text, retreat(text, start, Math.floor((maxChars - 2) / 4), bmp), start);
  const head = from > 0 || before ? 1 : 0;
  let to: number;
  if (fitsIn(text, from, maxChars - head - tail, bmp)) {
    to = text.length;
    if (head === 1)
      from = snapForward(text, retreat(text, text.length, maxChars - 1 - tail, bmp), start);
  } else {
    const cut = bmp
      ? Math.min(text.length, from + maxChars - head - 1)
      : advanceCodePoints(text, from, maxChars - head - 1);
    // A long last word is dropped rather than cut, when that loses at most a third of the room.
    to = snapBack(text, cut, Math.max(end, from + 1), cut - Math.floor(maxChars / 3));
  }
  const body = text.slice(from, to).trim();
  return (from > 0 || before ? CUT : '') + body + (to < text.length || after ? CUT : '');
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

/** `retreatCodePoints`, in one step when the text has no surrogate pair. */
function retreat(text: string, index: number, steps: number, bmp: boolean): number {
  return bmp ? Math.max(0, index - steps) : retreatCodePoints(text, index, steps);
}

/**
 * Whether `text` from `from` on has at most `limit` code points (`countCodePoints(text, from) <=
 * limit`), reading at most `limit + 1` code points rather than the whole rest (none when `bmp`: the
 * text has no surrogate pair).
 */
function fitsIn(text: string, from: number, limit: number, bmp: boolean): boolean {
  const units = text.length - from;
  if (units <= limit) return true;
  if (bmp || units > 2 * limit + 1) return false;
  return advanceCodePoints(text, from, limit) === text.length;
}

/**
 * A cut start at or after `from`, before `limit` (the term): `from` at a word's start; else just
 * after a space within `SNAP`; else (a long word, a URL) the first word boundary before the term, so
 * the excerpt never opens inside a word it could have skipped.
 */
function snapForward(text: string, from: number, limit: number): number {
  if (from === 0 || text.charCodeAt(from - 1) === 32) return from;
  const space = text.indexOf(' ', from);
  if (space !== -1 && space < from + SNAP && space < limit) return space + 1;
  if (isWordBoundary(text, from)) return from;
  for (let i = from + 1; i < limit; i++) if (isWordBoundary(text, i)) return i;
  return from;
}

/**
 * A cut end at or before `to`, after `limit` (the term's end): `to` at a word's end; else at a
 * space within `SNAP`; else (a long word, a URL) the last word boundary at most `floor` back.
 */
function snapBack(text: string, to: number, limit: number, floor: number): number {
  if (to >= text.length || text.charCodeAt(to) === 32) return to;
  const space = text.lastIndexOf(' ', to - 1);
  if (space > to - SNAP && space >= limit) return space;
  if (isWordBoundary(text, to)) return to;
  for (let i = to - 1; i > limit && i >= floor; i--) if (isWordBoundary(text, i)) return i;
  return to;
}

/**
 * Whether a cut at `i` falls between words: beside a space, or beside a CJK character (a script
 * written without spaces), never inside a surrogate pair.
 */
function isWordBoundary(text: string, i: number): boolean {
  const before = text.charCodeAt(i - 1);
  const after = text.charCodeAt(i);
  if (after >= 0xdc00 && after <= 0xdfff) return false;
  return before === 32 || after === 32 || isWide(before) || isWide(after);
}

/** CJK and other wide characters of the Basic Multilingual Plane (from U+2E80), not surrogates. */
function isWide(c: number): boolean {
  return c >= 0x2e80 && (c < 0xd800 || c > 0xdfff);
}
