/**
 * Paging by offset, as both engines page a complete ranking: the continuation is the decimal offset
 * of the next item.
 */

/** Decimal digits of a positive offset, without leading zeros. */
const OFFSET = /^[1-9][0-9]{0,15}$/;

/**
 * The window of a complete list that one page shows, by offset: the continuation is the decimal offset
 * of the next item. A continuation that is not one (or points past the end) shows no items.
 *
 * @param items - every item, in order.
 * @param limit - most items.
 * @param continuation - the previous page's continuation, or `undefined` for the first page.
 * @returns the items shown (a fresh array) and the next continuation, `null` after the last.
 */
export function windowByOffset<T>(
  items: readonly T[],
  limit: number,
  continuation: string | undefined,
): { readonly items: T[]; readonly continuation: string | null } {
  const { from, to, next } = offsetRange(items.length, limit, continuation);
  return { items: from >= items.length ? [] : items.slice(from, to), continuation: next };
}

/**
 * The offsets of a page of `total` items, and the continuation after it (`null` after the last). A
 * continuation that is not a decimal offset starts past the end (no items).
 *
 * @param total - how many items there are.
 * @param limit - most items.
 * @param continuation - the previous page's continuation, or `undefined` for the first page.
 * @returns the first offset, the offset after the last, and the next continuation.
 */
export function offsetRange(
  total: number,
  limit: number,
  continuation: string | undefined,
): { readonly from: number; readonly to: number; readonly next: string | null } {
  const from =
    continuation === undefined
      ? 0
      : OFFSET.test(continuation) && Number.isSafeInteger(Number(continuation))
        ? Number(continuation)
        : total;
  const to = Math.min(total, from + limit);
  return { from, to, next: to < total ? String(to) : null };
}
