/** Polling with a deadline: wait for a condition instead of sleeping for a fixed time. */

/** Options of `waitFor`. */
export interface WaitOptions {
  /** Give up after this long (default 10 s). */
  readonly timeoutMs?: number | undefined;
  /** Time between tries (default 25 ms). */
  readonly intervalMs?: number | undefined;
  /** What was awaited, for the failure message. */
  readonly what?: (() => string) | string | undefined;
}

/**
 * Calls `probe` until it returns something other than `undefined`, and returns that.
 *
 * @throws {Error} naming `what` when `timeoutMs` passes first; the last error `probe` threw is its cause.
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what =
        typeof options.what === 'function' ? options.what() : (options.what ?? 'a condition');
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}`,
        lastError === undefined ? undefined : { cause: lastError },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
}
