import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';

/** What a stage run under a time limit came to. */
export type Settled<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly timedOut: boolean; readonly error: unknown };

/**
 * The error a cancelled call rejects with: the signal's reason when it is a `KnowledgeToolError` (a
 * caller's own time limit), else `TIMEOUT`.
 *
 * @param signal - an aborted signal.
 * @param what - the call, for the message.
 */
export function abortError(signal: AbortSignal, what: string): KnowledgeToolError {
  const reason: unknown = signal.reason;
  if (isKnowledgeToolError(reason)) return reason;
  return new KnowledgeToolError(
    'TIMEOUT',
    `${what} was cancelled by its caller before it finished. Call it again if the answer is still needed.`,
    { cause: reason },
  );
}

/**
 * Settle `promise`, or reject with `signal.reason` as soon as `signal` aborts.
 *
 * @param promise - the work (its later rejection stays handled).
 * @param signal - the signal to watch.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() =>
    signal.removeEventListener('abort', onAbort!),
  );
}

/**
 * Run `task` with its own signal, aborted after `ms` milliseconds or when `parent` aborts; never
 * rejects for the task's own failure or time-out (those are reported), only when `parent` aborts.
 *
 * @param task - the stage, given the signal to pass on.
 * @param ms - its time limit.
 * @param parent - the search's signal.
 * @returns the task's value, or why it has none.
 */
export async function withTimeout<T>(
  task: (signal: AbortSignal) => Promise<T>,
  ms: number,
  parent: AbortSignal,
): Promise<Settled<T>> {
  const controller = new AbortController();
  const marker = new Error('stage time limit');
  const timer = setTimeout(() => controller.abort(marker), ms);
  const onParent = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', onParent, { once: true });
  try {
    const value = await raceAbort(
      Promise.resolve().then(() => task(controller.signal)),
      controller.signal,
    );
    return { ok: true, value };
  } catch (error) {
    if (parent.aborted) throw parent.reason;
    return {
      ok: false,
      timedOut: controller.signal.aborted && controller.signal.reason === marker,
      error,
    };
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onParent);
  }
}
