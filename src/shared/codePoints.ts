/**
 * Code-point arithmetic on UTF-16 strings: counting and moving without splitting a surrogate pair.
 * Shared by the core (read limits), the agent source (sizes, query length) and its search engine
 * (excerpts, cut texts). A valid
 * surrogate pair is one code point; an unpaired surrogate counts as one on its own.
 *
 * @module
 */

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * Code points of `text` in `[from, to)`: its code units less one per surrogate pair inside the range.
 *
 * @param text - any string.
 * @param from - start (code units).
 * @param to - end (code units).
 * @returns the count; a pair counts once.
 * @example
 * ```ts
 * countCodePoints('a😀b'); // 3
 * ```
 */
export function countCodePoints(text: string, from = 0, to = text.length): number {
  let count = to - from;
  for (let i = from; i < to - 1; i++) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * Move forward `steps` code points from `index`, stopping at the end.
 *
 * @param text - any string.
 * @param index - start (code units).
 * @param steps - code points to move.
 * @returns the new code-unit index.
 */
export function advanceCodePoints(text: string, index: number, steps: number): number {
  let i = index;
  for (let k = 0; k < steps && i < text.length; k++) {
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

/**
 * Move back `steps` code points from `index`, stopping at the start.
 *
 * @param text - any string.
 * @param index - start (code units).
 * @param steps - code points to move.
 * @returns the new code-unit index.
 */
export function retreatCodePoints(text: string, index: number, steps: number): number {
  let i = index;
  for (let k = 0; k < steps && i > 0; k++) {
    i -= i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? 2 : 1;
  }
  return i;
}

/**
 * Code-point order of two strings (JavaScript's default sort compares UTF-16 code units, which puts
 * astral characters before U+E000–U+FFFF).
 *
 * @returns negative, zero or positive, as for `Array.prototype.sort`.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * Whether `text` has no unpaired surrogate (`String.prototype.isWellFormed`, which ES2022's lib lacks):
 * what `encodeURIComponent` needs not to throw `URIError`.
 *
 * @param text - any string.
 * @returns `false` when some `\ud800`–`\udfff` code unit is not half of a pair.
 * @example
 * ```ts
 * isWellFormed('a😀b'); // true
 * isWellFormed('\ud800'); // false
 * ```
 */
export function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (!isHigh(c) || !isLow(text.charCodeAt(i + 1))) return false;
    i++;
  }
  return true;
}
