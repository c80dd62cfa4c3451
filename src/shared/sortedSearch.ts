/**
 * Binary search in an ascending array of numbers: the one lower bound that the block scanner's
 * containers, the `read_file` part boundaries and the link scanner's line numbers share.
 *
 * @module
 */

/**
 * The first index of `sorted` (ascending) whose value is at least `value`, or `sorted.length`.
 * Logarithmic in the array's length.
 *
 * @param sorted - numbers in ascending order.
 * @param value - the value to find.
 * @returns the index, from 0 to `sorted.length`.
 * @example
 * ```ts
 * firstAtLeast([1, 3, 3, 7], 3); // 1
 * firstAtLeast([1, 3, 3, 7], 8); // 4
 * ```
 */
export function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
