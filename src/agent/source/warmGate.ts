/**
 * A source's search engine behind its warm-up: `warm()` starts one shared build (the engine's `warm`)
 * and, until it is done, a search waits for it at most `WARM_WAIT_MS` and is then refused with
 * `SEARCH_UNAVAILABLE` and a `retryAfterSeconds` estimated from the build's progress, instead of
 * waiting behind the build (a 200 MB knowledge base takes minutes) and timing out. A source that is
 * never warmed builds on its first search, as before.
 *
 * @module
 */
import { KnowledgeToolError } from '../errors/index.js';
import { raceAbort } from '../search/limits.js';
import type { SearchEngine, SearchWarmProgress } from '../search/port.js';

/** Longest `retryAfterSeconds` a refused search is given: it asks again within a minute at most. */
export const MAX_WARM_RETRY_SECONDS = 60;

/** A warm-up in progress. */
interface Warming {
  readonly done: Promise<void>;
  readonly startedAt: number;
  progress: SearchWarmProgress | undefined;
  readonly listeners: Set<(progress: SearchWarmProgress) => void>;
  /** Callers of `warm()` still waiting; one without a signal waits for good. */
  waiters: number;
  /** Stops the build once every caller has stopped waiting (a server that is shutting down). */
  readonly controller: AbortController;
}

/**
 * Seconds until a build is likely done: the time so far scaled by the work left, at least 1, at most
 * `MAX_WARM_RETRY_SECONDS`; without progress yet, the time so far (at least 1).
 *
 * @param elapsedMs - time since the build started.
 * @param progress - the build's last progress, if any.
 */
export function warmRetrySeconds(
  elapsedMs: number,
  progress: SearchWarmProgress | undefined,
): number {
  const elapsed = Math.max(0, elapsedMs) / 1000;
  const estimate =
    progress !== undefined && progress.done > 0 && progress.total >= progress.done
      ? (elapsed * (progress.total - progress.done)) / progress.done
      : elapsed;
  return Math.min(MAX_WARM_RETRY_SECONDS, Math.max(1, Math.ceil(estimate)));
}

/** Longest a search waits for a warm-up in progress before it is refused. */
export const WARM_WAIT_MS = 1000;

/**
 * Wrap `engine` so that its warm-up is shared and a search during it waits at most `waitMs` (a small
 * knowledge base is ready by then), then is refused with `SEARCH_UNAVAILABLE` and `retryAfterSeconds`.
 *
 * @param engine - the source's engine.
 * @param waitMs - how long a search waits for the warm-up (tests pass their own).
 * @param now - the clock (tests pass their own).
 * @returns the gated engine: `warm` shared, with progress; `search` waiting or refusing while a
 *   warm-up runs, else the engine's.
 */
export function gateWarmUp(
  engine: SearchEngine,
  waitMs: number = WARM_WAIT_MS,
  now: () => number = Date.now,
): SearchEngine {
  const warmEngine = engine.warm?.bind(engine);
  if (warmEngine === undefined) return engine;
  let warming: Warming | undefined;
  let ready = false;

  const start = (): Warming => {
    const listeners = new Set<(progress: SearchWarmProgress) => void>();
    const controller = new AbortController();
    const current: Warming = {
      startedAt: now(),
      progress: undefined,
      listeners,
      waiters: 0,
      controller,
      // Not a caller's signal: the build goes on while anyone waits for it.
      done: warmEngine(controller.signal, (progress) => {
        if (warming !== current) return;
        current.progress = Object.freeze({ done: progress.done, total: progress.total });
        for (const listener of listeners) listener(current.progress);
      }).then(
        () => {
          if (warming === current) {
            ready = true;
            warming = undefined;
          }
        },
        (error: unknown) => {
          // A failed warm-up leaves the source cold: the next search or `warm()` tries again.
          if (warming === current) warming = undefined;
          throw error;
        },
      ),
    };
    current.done.catch(() => undefined);
    return current;
  };

  /**
   * Wait for the warm-up at most `waitMs`, then refuse. A failed warm-up is not waited on: the search
   * goes on and builds what it needs itself (and says what failed).
   */
  const waitOrRefuse = async (current: Warming, signal: AbortSignal | undefined): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    try {
      const outcome = await raceAbort(
        Promise.race([
          current.done.then(
            () => 'ready' as const,
            () => 'failed' as const,
          ),
          late,
        ]),
        signal,
      );
      if (outcome !== 'late') return;
    } finally {
      clearTimeout(timer);
    }
    const seconds = warmRetrySeconds(now() - current.startedAt, current.progress);
    const { progress } = current;
    const share =
      progress !== undefined && progress.total > 0
        ? ` (${Math.floor((100 * progress.done) / progress.total)}% done)`
        : '';
    throw new KnowledgeToolError(
      'SEARCH_UNAVAILABLE',
      `Search is not ready yet: its index is being built${share}. Search again in ${seconds} s (retryAfterSeconds); meanwhile list_tree, read_file on index.md and the other tools answer as usual.`,
      { retryAfterSeconds: seconds },
    );
  };

  return Object.freeze({
    async warm(signal?: AbortSignal, onProgress?: (progress: SearchWarmProgress) => void) {
      if (ready) return;
      const current = (warming ??= start());
      if (onProgress !== undefined) {
        current.listeners.add(onProgress);
        if (current.progress !== undefined) onProgress(current.progress);
      }
      current.waiters++;
      try {
        await raceAbort(current.done, signal);
      } finally {
        if (onProgress !== undefined) current.listeners.delete(onProgress);
        // The last caller gave up: stop the build rather than spend the process on it.
        if (--current.waiters === 0 && signal?.aborted === true && warming === current)
          current.controller.abort(signal.reason);
      }
    },
    async search(request) {
      const current = warming;
      if (current !== undefined) await waitOrRefuse(current, request.signal);
      return engine.search(request);
    },
  } satisfies SearchEngine);
}

/**
 * The `onProgress` of a `warm()` context when it is a function, else `undefined` (a listener that
 * throws is the caller's: its error does not stop the build).
 *
 * @param context - what `warm()` was given.
 */
export function progressListener(
  context: unknown,
): ((progress: SearchWarmProgress) => void) | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const listener = (context as { onProgress?: unknown }).onProgress;
  if (typeof listener !== 'function') return undefined;
  return (progress) => {
    try {
      (listener as (progress: SearchWarmProgress) => void)(progress);
    } catch {
      // Progress is advisory.
    }
  };
}
