/**
 * Long synchronous work cut into slices: `pace()` after each step yields to the event loop once a slice
 * has run `SLICE_MS`, so timers, I/O and other calls go on while an index is built.
 *
 * @module
 */

/** Longest run between two yields, in milliseconds. */
export const SLICE_MS = 20;

/**
 * Resolve on a later turn of the event loop, after pending I/O and timers: `setImmediate` where there
 * is one (Node, Bun, Deno: no 1 ms clamp, so yielding costs no idle time), else `setTimeout(0)`.
 */
function nextTurn(resolve: () => void): void {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown })
    .setImmediate;
  if (typeof immediate === 'function') immediate(resolve);
  else setTimeout(resolve, 0);
}

/**
 * A pacer: call it after each step of a long loop and await what it returns when that is a promise
 * (it is one only when the slice is over, so a step costs one clock read otherwise).
 *
 * @param signal - checked at each yield: its reason is thrown once it aborts.
 * @returns the pacer.
 * @example
 * ```ts
 * const pace = createPacer(signal);
 * for (const item of items) {
 *   work(item);
 *   const paused = pace();
 *   if (paused !== undefined) await paused;
 * }
 * ```
 */
export function createPacer(signal?: AbortSignal): () => Promise<void> | undefined {
  let sliceStart = Date.now();
  return () => {
    if (Date.now() - sliceStart < SLICE_MS) return undefined;
    return new Promise<void>(nextTurn).then(() => {
      signal?.throwIfAborted();
      sliceStart = Date.now();
    });
  };
}
