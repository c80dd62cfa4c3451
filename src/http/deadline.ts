/**
 * Request deadlines that share their timers: every request whose time runs out in the same short
 * slice of time shares one timer, one abort signal and one "expired" promise. On Node 20 an
 * `AbortSignal` costs several microseconds to make, and a timer and a promise per request more: at
 * thousands of small reads a second that was a tenth of a request's CPU. A slice lasts 1/50 of the
 * time limit, at most 100 ms, so a request may run that much past its limit, never less.
 *
 * @module
 */
import { linkAbort } from './linkAbort.js';

/** Raised by `Deadline.race` when the request's time is up. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/** One slice of time: the requests that expire together. */
class Slice {
  #users = 0;
  #controller: AbortController | undefined;
  #fired = false;
  readonly expired: Promise<never>;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onDone: () => void;

  constructor(delayMs: number, onDone: () => void) {
    let expire!: (error: DeadlineError) => void;
    this.expired = new Promise<never>((_, reject) => {
      expire = reject;
    });
    this.expired.catch(() => undefined);
    this.#onDone = onDone;
    this.#timer = setTimeout(() => {
      this.#fired = true;
      onDone();
      const error = new DeadlineError('deadline');
      expire(error);
      this.#controller?.abort(error);
    }, delayMs);
  }

  /** The slice's abort signal, made when first asked for. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#fired) this.#controller.abort(new DeadlineError('deadline'));
    }
    return this.#controller.signal;
  }

  enter(): void {
    this.#users++;
  }

  /** A request is done: the last one out stops the timer. */
  leave(): void {
    if (--this.#users === 0 && !this.#fired) {
      clearTimeout(this.#timer);
      this.#onDone();
    }
  }
}

/** The slices of one handler: its time limit and the open slices by end time. */
export class DeadlineClock {
  readonly #timeoutMs: number;
  readonly #granularityMs: number;
  readonly #slices = new Map<number, Slice>();

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#granularityMs = Math.max(1, Math.min(100, Math.floor(timeoutMs / 50)));
  }

  /** A deadline `timeoutMs` from now, in the slice that ends next after it. */
  start(request: Request): Deadline {
    const now = Date.now();
    const g = this.#granularityMs;
    const end = Math.ceil((now + this.#timeoutMs) / g) * g;
    let slice = this.#slices.get(end);
    if (slice === undefined) {
      const created: Slice = new Slice(end - now, () => {
        if (this.#slices.get(end) === created) this.#slices.delete(end);
      });
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
  #own: AbortController | undefined;
  #ownAborted: Promise<never> | undefined;
  readonly #unlink: (() => void)[] = [];
  #disposed = false;

  constructor(slice: Slice, request: Request) {
    this.#slice = slice;
    // The request's signal is read only for a call that wants its own: Node's adapter makes it on demand.
    this.#request = request;
  }

  /** Aborted when the time is up (shared with the requests of the same slice). */
  get signal(): AbortSignal {
    return this.#own?.signal ?? this.#slice.signal;
  }

  /**
   * A signal of this request's own, aborted when the time is up or the client hangs up: for calls
   * that may run long (search), where stopping early saves real work.
   */
  ownSignal(): AbortSignal {
    if (this.#own === undefined) {
      const own = new AbortController();
      this.#own = own;
      this.#unlink.push(linkAbort(own, this.#slice.signal), linkAbort(own, this.#request.signal));
      // A client that hung up is not waited for either.
      this.#ownAborted = new Promise<never>((_, reject) => {
        if (own.signal.aborted) reject(new DeadlineError('deadline'));
        else own.signal.addEventListener('abort', () => reject(new DeadlineError('deadline')), { once: true });
      });
      this.#ownAborted.catch(() => undefined);
    }
    return this.#own.signal;
  }

  /** `work`, or `DeadlineError` once the time is up (`work`'s later rejection is then ignored). */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race(this.#ownAborted === undefined ? [work, this.#slice.expired] : [work, this.#slice.expired, this.#ownAborted]);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const unlink of this.#unlink) unlink();
    this.#slice.leave();
  }
}
