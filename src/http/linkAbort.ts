/**
 * Abort a controller when another signal aborts, with a way to stop listening: what
 * `AbortSignal.any` does, without keeping a listener on a long-lived signal after the call is over.
 *
 * @module
 */

/**
 * Make `controller` abort when `signal` does (at once if it already has).
 *
 * @returns a function that removes the listener; call it when the work is done.
 */
export function linkAbort(
  controller: AbortController,
  signal: AbortSignal | undefined,
): () => void {
  if (signal === undefined) return () => undefined;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => undefined;
  }
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
