/**
 * The pieces of CommonMark link syntax (micromark's label, destination and title factories): link
 * labels, destinations and titles, as link reference definitions (`definition.ts`, line by line) and
 * inline links (the link scanner of the agent layer, over a paragraph's text) read them alike. Each
 * reads forward from a position up to an `end` and returns where it stopped, or `FAIL`; none
 * backtracks. A label or title that reaches `end` unclosed says so (`MORE`, or `FAIL` for a title),
 * so that a caller reading one line at a time can go on on the next line. Internal to the package.
 */
import {
  BACKSLASH,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  CR,
  DEL,
  GT,
  LF,
  LT,
  OPEN_BRACKET,
  OPEN_PAREN,
  QUOTATION_MARK,
  APOSTROPHE,
  SPACE,
  TAB,
} from './chars.js';

/** What a reader returns when the text is not the construct. */
export const FAIL = -1;
/** What `labelEnd` returns when the label is still open at `end`. */
export const MORE = -2;

/**
 * Deepest unescaped parenthesis nesting of a raw destination in an inline link (micromark's
 * `linkResourceDestinationBalanceMax`); a definition's destination has no limit.
 */
export const INLINE_BALANCE = 32;

/**
 * The end of the link destination at `pos`: `<…>` (no line ending, no unescaped `<` or `>`), or raw
 * text, not empty, with balanced unescaped parentheses (at most `maxBalance` deep) and no space or
 * control character inside parentheses. A raw destination ends at a space, a tab, a line ending, an
 * unbalanced `)` or `end`.
 *
 * @param maxBalance - the deepest nesting allowed (`INLINE_BALANCE` for an inline link).
 * @returns the position after the destination (after its `>` when angled), or `FAIL`.
 */
export function destinationEnd(
  s: string,
  pos: number,
  end: number,
  maxBalance = Number.POSITIVE_INFINITY,
): number {
  if (s.charCodeAt(pos) === LT) {
    let i = pos + 1;
    while (i < end) {
      const c = s.charCodeAt(i++);
      if (c === GT) return i;
      if (c === LF || c === LT) return FAIL;
      if (c === BACKSLASH && i < end) {
        const d = s.charCodeAt(i);
        if (d === LT || d === GT || d === BACKSLASH) i++;
      }
    }
    return FAIL;
  }
  let balance = 0;
  let i = pos;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (balance === 0 && (c === CLOSE_PAREN || c === SPACE || c === TAB || c === LF)) break;
    if (c === OPEN_PAREN) {
      if (balance >= maxBalance) return FAIL;
      balance++;
    } else if (c === CLOSE_PAREN) balance--;
    else if (c < SPACE || c === DEL || c === SPACE) return FAIL;
    else if (c === BACKSLASH && i + 1 < end) {
      const d = s.charCodeAt(i + 1);
      if (d === OPEN_PAREN || d === CLOSE_PAREN || d === BACKSLASH) i++;
    }
  }
  return i === pos || balance !== 0 ? FAIL : i;
}

/** The destination's text in `[pos, next)` (`destinationEnd`'s answer): inside the `<…>` when angled. */
export function destinationText(s: string, pos: number, next: number): readonly [number, number] {
  return s.charCodeAt(pos) === LT ? [pos + 1, next - 1] : [pos, next];
}

/**
 * The mark that closes a title opened by `c`: `"`, `'` or `)` for `"`, `'` and `(`; 0 when `c` opens
 * no title.
 */
export function titleClose(c: number): number {
  if (c === QUOTATION_MARK || c === APOSTROPHE) return c;
  return c === OPEN_PAREN ? CLOSE_PAREN : 0;
}

/**
 * The end of a title from `pos`, inside it (after its opening mark): the position after its closing
 * mark `close`, which a backslash escapes (as it escapes itself), or `FAIL` when `end` comes first.
 * As in micromark (remark), a `(…)` title may hold an unescaped `(`, which the CommonMark spec refuses.
 */
export function titleEnd(s: string, pos: number, end: number, close: number): number {
  for (let i = pos; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === close) return i + 1;
    if (c === BACKSLASH && i + 1 < end) {
      const d = s.charCodeAt(i + 1);
      if (d === close || d === BACKSLASH) i++;
    }
  }
  return FAIL;
}

/** Longest link label, in characters between the brackets (line endings not counted). */
export const MAX_LABEL = 999;

/**
 * The end of a link label from `from`, inside it (after its `[`): the index of its closing `]`, `FAIL`,
 * or `MORE` when `end` comes first. A label holds at most `MAX_LABEL` characters, no unescaped `[`, and
 * one that is not a space, tab or line ending. A label read one line at a time goes on with the
 * characters and the `seen` of the lines before: on `MORE`, the label holds `size + (end - from)`
 * characters, and has seen one when `seen` or `[from, end)` holds one.
 *
 * @param size - characters of the label before `from` (0 at its `[`).
 * @param seen - whether they hold one that is not a space, tab or line ending.
 */
export function labelEnd(s: string, from: number, end: number, size = 0, seen = false): number {
  for (let i = from; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === CLOSE_BRACKET) return seen ? i : FAIL;
    if (c === OPEN_BRACKET) return FAIL;
    if (c === LF) continue;
    if (++size > MAX_LABEL) return FAIL;
    if (c !== SPACE && c !== TAB) seen = true;
    if (c === BACKSLASH && i + 1 < end) {
      const d = s.charCodeAt(i + 1);
      if (d === OPEN_BRACKET || d === CLOSE_BRACKET || d === BACKSLASH) {
        if (++size > MAX_LABEL) return FAIL;
        i++;
      }
    }
  }
  return MORE;
}

/** A label as definitions and references match it: whitespace collapsed, trimmed, case-folded. */
export function normalizeLabel(label: string): string {
  let out = '';
  let space = false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c === SPACE || c === TAB || c === LF || c === CR) space = out.length > 0;
    else {
      if (space) out += ' ';
      space = false;
      out += label[i];
    }
  }
  return out.toLowerCase().toUpperCase();
}
