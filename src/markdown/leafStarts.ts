/**
 * The one-line leaf blocks and what may interrupt a paragraph (CommonMark 4.1-4.3, micromark's
 * `heading-atx`, `setext-underline`, `thematic-break`): ATX headings and their text, setext
 * underlines, thematic breaks, and the character tables that send a line to the full rule.
 * Internal to `src/markdown`.
 */
import { htmlStart, isCommentStart } from './htmlBlock.js';
import { fenceOpenLength } from './fencedCode.js';
import {
  BACKTICK,
  CLOSE_PAREN,
  DASH,
  EQUALS,
  GT,
  HASH,
  LT,
  ONE,
  OPEN_BRACKET,
  PERIOD,
  PLUS,
  SPACE,
  STAR,
  TAB,
  TILDE,
  UNDERSCORE,
  isSpaceOrTab,
  onlySpaceOrTab,
} from './chars.js';

/** Characters that can start a block other than a paragraph (after 0-3 columns of indentation). */
export const SPECIAL = new Uint8Array(128);
for (const c of '>#`~<=-*_+0123456789') SPECIAL[c.charCodeAt(0)] = 1;
/** `SPECIAL`, and `[`, which may start a link reference definition (but cannot interrupt a paragraph). */
export const STARTS = SPECIAL.slice();
STARTS[OPEN_BRACKET] = 1;

/** `#` to `######` at `p`, then a space, a tab or the end of the line. */
export function isAtxHeading(text: string, p: number, end: number): boolean {
  let q = p + 1;
  while (q < end && q - p < 7 && text.charCodeAt(q) === HASH) q++;
  const d = q < end ? text.charCodeAt(q) : SPACE;
  return q - p <= 6 && (d === SPACE || d === TAB);
}

/**
 * The text of the ATX heading at `p` (its first `#`) on the line ending at `end`: without the
 * opening sequence, the closing sequence and the blanks around them.
 *
 * @returns `[start, end)` of the heading's text (empty for `#` alone).
 */
export function atxText(text: string, p: number, end: number): readonly [number, number] {
  let i = p;
  while (i < end && text.charCodeAt(i) === HASH) i++;
  let start = i;
  while (start < end && isSpaceOrTab(text.charCodeAt(start))) start++;
  let stop = end;
  while (stop > start && isSpaceOrTab(text.charCodeAt(stop - 1))) stop--;
  let hashes = stop;
  while (hashes > start && text.charCodeAt(hashes - 1) === HASH) hashes--;
  if (hashes === start) stop = start;
  else if (hashes < stop && isSpaceOrTab(text.charCodeAt(hashes - 1))) {
    stop = hashes;
    while (stop > start && isSpaceOrTab(text.charCodeAt(stop - 1))) stop--;
  }
  if (start > stop) start = stop;
  return [start, stop];
}

/**
 * `-`, `*` or `+` at `p`, one space, then a character that starts no block: a list item whose first
 * line is paragraph text (never a thematic break or a setext underline).
 */
export function isBulletWithText(text: string, p: number, end: number): boolean {
  if (p + 2 >= end || text.charCodeAt(p + 1) !== SPACE) return false;
  const d = text.charCodeAt(p + 2);
  return d >= 128 || (SPECIAL[d] === 0 && d !== SPACE && d !== TAB);
}

/**
 * Whether the line from `p` (its first character `c`, indented 0-3 columns) starts a block that
 * closes the open containers even where the line could be a lazy paragraph line: an ATX heading, an
 * HTML comment, a bullet list item that starts with text.
 */
export function interruptsParagraph(text: string, p: number, end: number, c: number): boolean {
  if (c === HASH) return isAtxHeading(text, p, end);
  if (c === LT) return isCommentStart(text, p);
  return (c === DASH || c === STAR || c === PLUS) && isBulletWithText(text, p, end);
}

/** `===` or `---` alone (after 0-3 spaces), trailing spaces or tabs allowed. */
export function isSetextUnderline(text: string, p: number, end: number, c: number): boolean {
  let q = p;
  while (q < end && text.charCodeAt(q) === c) q++;
  return onlySpaceOrTab(text, q, end);
}

/**
 * Whether the line from `p` is a thematic break: three or more `c` (`*`, `-` or `_`), the same one,
 * with only spaces or tabs between.
 *
 * @returns -1 for a thematic break; else where the scan stopped (the first other character, or
 *   `end`): from any position after `p` and before it, the line is no thematic break of `c` either.
 */
export function thematicBreakMiss(text: string, p: number, end: number, c: number): number {
  let count = 0;
  for (let q = p; q < end; q++) {
    const d = text.charCodeAt(q);
    if (d === c) count++;
    else if (d !== SPACE && d !== TAB) return q;
  }
  return count >= 3 ? -1 : end;
}

/**
 * Whether a line that follows a paragraph's line at top level ends that paragraph, by CommonMark's
 * rules for what may interrupt one: an ATX heading, a code fence, a block quote, a thematic break or
 * a setext underline (which ends it as a heading), a bullet list item that is not empty, an ordered
 * one numbered 1 that is not, or an HTML block of kinds 1-6. For readers that look ahead over
 * a paragraph's next lines without the block scanner (`inlineText`); lines inside containers are
 * judged as at top level, so a block quote's next line (`>`) ends the look.
 *
 * @param text - the whole text.
 * @param p - the line's first character that is not a space (at most three spaces in).
 * @param end - the line's end.
 * @returns whether the paragraph stops before this line.
 */
export function endsParagraph(text: string, p: number, end: number): boolean {
  const c = text.charCodeAt(p);
  switch (c) {
    case HASH:
      return isAtxHeading(text, p, end);
    case BACKTICK:
    case TILDE:
      return fenceOpenLength(text, p, end, c) > 0;
    case GT:
      return true;
    case EQUALS:
      return isSetextUnderline(text, p, end, c);
    case DASH:
    case STAR:
    case UNDERSCORE:
    case PLUS:
      return (
        (c !== PLUS && thematicBreakMiss(text, p, end, c) === -1) ||
        (c === DASH && isSetextUnderline(text, p, end, c)) ||
        (c !== UNDERSCORE &&
          isSpaceOrTab(text.charCodeAt(p + 1)) &&
          !onlySpaceOrTab(text, p + 1, end))
      );
    case ONE: {
      const d = text.charCodeAt(p + 1);
      return (
        (d === PERIOD || d === CLOSE_PAREN) &&
        isSpaceOrTab(text.charCodeAt(p + 2)) &&
        !onlySpaceOrTab(text, p + 2, end)
      );
    }
    case LT: {
      const kind = htmlStart(text, p, end);
      return kind >= 1 && kind <= 6;
    }
    default:
      return false;
  }
}
