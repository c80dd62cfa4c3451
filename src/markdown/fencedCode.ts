/**
 * Fenced code (CommonMark 4.5, micromark's `code-fenced`): the opening fence and the closing one.
 * Internal to `src/markdown`.
 */
import { BACKTICK, contains, onlySpaceOrTab } from './chars.js';

/**
 * The length of the opening fence at `p` (`c`, a `` ` `` or `~`, is its character), or 0 when the
 * line opens none: fewer than three, or a backtick fence whose info string holds a backtick.
 */
export function fenceOpenLength(text: string, p: number, end: number, c: number): number {
  let q = p + 1;
  while (q < end && text.charCodeAt(q) === c) q++;
  if (q - p < 3 || (c === BACKTICK && contains(text, q, end, BACKTICK))) return 0;
  return q - p;
}

/**
 * Whether the line from `p` (its first non-blank character, at most three columns in) closes a
 * fence of `length` characters `c`: as many or more, then only blanks.
 */
export function fenceCloses(
  text: string,
  p: number,
  end: number,
  c: number,
  length: number,
): boolean {
  if (text.charCodeAt(p) !== c) return false;
  let q = p + 1;
  while (q < end && text.charCodeAt(q) === c) q++;
  return q - p >= length && onlySpaceOrTab(text, q, end);
}
