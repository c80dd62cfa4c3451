/**
 * Request deadlines that share their timers: every request whose time runs out in the same short
 * slice of time shares one timer and one "expired" promise. A timer and a promise per request were a
 * measurable part of a small read's CPU. A slice lasts 1/50 of the time limit, at most 100 ms, so a
 * request may run that much past its limit, never less. Each request that asks for an abort signal
 * gets one of its own (sources add listeners to it); the slice aborts those of its requests, and a
 * request's signal is also aborted when the request ends, so no call it started outlives it unnoticed.
 *
 * A slice whose last request is answered stops its timer at the next turn of the event loop, not at
 * once: requests that a server reads in one turn (one after the other, each answered before the next
 * starts) then share a slice instead of making and stopping a timer and a promise each.
 *
 * @module
 */
import { linkAbort } from './linkAbort.js';

/** Raised by `Deadline.race` when the request's time is up. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/** The reason a request's signal is aborted with once it is answered: one object, no stack captured per request. */
const ANSWERED = new DeadlineError('The request has been answered.');

/** The longest delay a timer can wait (2³¹ − 1 ms); a longer one fires at once. */
const MAX_DELAY = 2_147_483_647;

/** One slice of time: the requests that expire together. */
class Slice {
  #users = 0;
  #fired = false;
  #stopped = false;
  readonly #controllers = new Set<AbortController>();
  readonly expired: Promise<never>;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onDone: () => void;
  readonly #onEmpty: (slice: Slice) => void;

  /**
   * @param delayMs - until the slice's time is up.
   * @param onDone - the slice is over (its time is up, or its timer is stopped): no request may join it.
   * @param onEmpty - its last request left: `stopIfEmpty` may be called.
   */
  constructor(delayMs: number, onDone: () => void, onEmpty: (slice: Slice) => void) {
    let expire!: (error: DeadlineError) => void;
    this.expired = new Promise<never>((_, reject) => {
      expire = reject;
    });
    this.expired.catch(() => undefined);
    this.#onDone = onDone;
    this.#onEmpty = onEmpty;
    this.#timer = setTimeout(
      () => {
        this.#fired = true;
        onDone();
        const error = new DeadlineError('deadline');
        expire(error);
        for (const controller of this.#controllers) controller.abort(error);
        this.#controllers.clear();
      },
      Math.min(MAX_DELAY, Math.max(0, delayMs)),
    );
  }

  /** A signal for one request of this slice, aborted when the slice's time is up. */
  controller(): AbortController {
    const controller = new AbortController();
    if (this.#fired) controller.abort(new DeadlineError('deadline'));
    else this.#controllers.add(controller);
    return controller;
  }

  enter(): void {
    this.#users++;
  }

  /** A request is done: the last one out tells the clock, which stops the timer if no one joins. */
  leave(controller: AbortController | undefined): void {
    if (controller !== undefined) this.#controllers.delete(controller);
    if (--this.#users === 0 && !this.#fired) this.#onEmpty(this);
  }

  /** Stop the timer and end the slice, if it still has no request (none joined since it emptied). */
  stopIfEmpty(): void {
    if (this.#users !== 0 || this.#fired || this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#onDone();
  }
}

/** The slices of one handler: its time limit and the open slices by end time. */
export class DeadlineClock {
  readonly #timeoutMs: number;
  readonly #granularityMs: number;
  readonly #slices = new Map<number, Slice>();
  /** Slices whose last request left in this turn of the event loop: stopped at the next turn if still empty. */
  #emptied = new Set<Slice>();
  #sweepTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #onEmpty = (slice: Slice): void => {
    this.#emptied.add(slice);
    this.#sweepTimer ??= setTimeout(this.#sweep, 0);
  };
  readonly #sweep = (): void => {
    this.#sweepTimer = undefined;
    const emptied = this.#emptied;
    this.#emptied = new Set();
    for (const slice of emptied) slice.stopIfEmpty();
  };

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#granularityMs = Math.max(1, Math.min(100, Math.floor(timeoutMs / 50)));
  }

  /** A deadline `timeoutMs` from now, in the slice that ends next after it. */
  start(request: Request): Deadline {
    // A monotonic clock: a wall clock stepping back would put a request in a slice that ends too soon.
    const now = performance.now();
    const g = this.#granularityMs;
    const end = Math.ceil((now + this.#timeoutMs) / g) * g;
    let slice = this.#slices.get(end);
    if (slice === undefined) {
      const created: Slice = new Slice(
        end - now,
        () => {
          if (this.#slices.get(end) === created) this.#slices.delete(end);
        },
        this.#onEmpty,
      );
      this.#slices.set(end, created);
      slice = created;
    }
    slice.enter();
    return new Deadline(slice, request);
  }
}

/** One request's time limit: a signal for the source and a race for every await. */
export class Deadline {
  readonly #slice: Slice;
  readonly #request: Request;
  #controller: AbortController | undefined;
  #hangUp: Promise<never> | undefined;
  #unlink: (() => void) | undefined;
  #disposed = false;
  #pending = 0;

  constructor(slice: Slice, request: Request) {
    this.#slice = slice;
    // The request's signal is read only for a search: Node's adapter makes it on demand.
    this.#request = request;
  }

  /** This request's signal, made when first asked for: aborted when the time is up or the request ends. */
  get signal(): AbortSignal {
    this.#controller ??= this.#slice.controller();
    return this.#controller.signal;
  }

  /**
   * The signal, also aborted when the client hangs up, and then not waited for: for calls that may run
   * long (search), where stopping early saves real work.
   */
  hangUpSignal(): AbortSignal {
    const signal = this.signal;
    if (this.#hangUp === undefined) {
      this.#unlink = linkAbort(this.#controller!, this.#request.signal);
      this.#hangUp = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(new DeadlineError('deadline'));
        else
          signal.addEventListener('abort', () => reject(new DeadlineError('deadline')), {
            once: true,
          });
      });
      this.#hangUp.catch(() => undefined);
    }
    return signal;
  }

  /** `work`, or `DeadlineError` once the time is up (`work`'s later rejection is then ignored). */
  race<T>(work: Promise<T>): Promise<T> {
    this.#pending++;
    const settled = (): void => {
      this.#pending--;
    };
    work.then(settled, settled);
    return Promise.race(
      this.#hangUp === undefined
        ? [work, this.#slice.expired]
        : [work, this.#slice.expired, this.#hangUp],
    );
  }

  /** The request is answered: stop its signal's listeners, and abort any call it left running. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#unlink?.();
    const controller = this.#controller;
    this.#slice.leave(controller);
    if (controller !== undefined && this.#pending > 0 && !controller.signal.aborted)
      controller.abort(ANSWERED);
  }
}
