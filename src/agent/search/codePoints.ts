/** Code-point arithmetic on UTF-16 strings: counting and moving without splitting a surrogate pair. */

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * Code points of `text` in `[from, to)`.
 *
 * @param text - any string.
 * @param from - start (code units).
 * @param to - end (code units).
 * @returns the count; a pair counts once.
 */
export function countCodePoints(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    count++;
    if (isHigh(text.charCodeAt(i)) && i + 1 < to && isLow(text.charCodeAt(i + 1))) i++;
  }
  return count;
}

/**
 * Move forward `steps` code points from `index`, stopping at the end.
 *
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
 * @returns the new code-unit index.
 */
export function retreatCodePoints(text: string, index: number, steps: number): number {
  let i = index;
  for (let k = 0; k < steps && i > 0; k++) {
    i -= i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? 2 : 1;
  }
  return i;
}
