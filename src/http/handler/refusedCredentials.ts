/**
 * Refused credentials, limited per client address: a client whose credentials `access` refused
 * `REFUSALS_ALLOWED` times is answered 429 before `access` runs, and regains one try per second. A
 * rate limit keyed on the credentials a request claims gives each forged token a fresh bucket; this
 * limits rotating forged tokens whatever the key. Only where the address is known (an adapter gave it).
 *
 * @module
 */

/** Refusals a client address may have before it must wait. */
export const REFUSALS_ALLOWED = 30;
/** Tries a limited client address regains per second. */
export const REFUSALS_REFILL_PER_SECOND = 1;
/** Most addresses tracked; past it the one refused longest ago (and so most refilled) is dropped. */
const MAX_ADDRESSES = 10_000;

interface Refusals {
  /** Tries left. */
  tries: number;
  at: number;
}

/** The refusals of each client address. */
export class RefusedCredentials {
  readonly #byAddress = new Map<string, Refusals>();
  readonly #now: () => number;

  /** @param now - the clock, in milliseconds. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The seconds `address` must wait before `access` is asked again, or 0 when it may go on. */
  waitSeconds(address: string | null): number {
    if (address === null) return 0;
    const entry = this.#refilled(address);
    if (entry === undefined || entry.tries >= 1) return 0;
    return Math.ceil((1 - entry.tries) / REFUSALS_REFILL_PER_SECOND);
  }

  /** Count one refusal of `address`'s credentials. */
  refused(address: string | null): void {
    if (address === null) return;
    let entry = this.#refilled(address);
    if (entry === undefined) {
      if (this.#byAddress.size >= MAX_ADDRESSES)
        this.#byAddress.delete(this.#byAddress.keys().next().value!);
      entry = { tries: REFUSALS_ALLOWED, at: this.#now() };
    }
    entry.tries -= 1;
    // Most recently refused last: the first entry is the one refused longest ago.
    this.#byAddress.delete(address);
    this.#byAddress.set(address, entry);
  }

  #refilled(address: string): Refusals | undefined {
    const entry = this.#byAddress.get(address);
    if (entry === undefined) return undefined;
    const t = this.#now();
    entry.tries = Math.min(
      REFUSALS_ALLOWED,
      entry.tries + (Math.max(0, t - entry.at) / 1000) * REFUSALS_REFILL_PER_SECOND,
    );
    entry.at = Math.max(entry.at, t);
    if (entry.tries >= REFUSALS_ALLOWED) {
      this.#byAddress.delete(address);
      return undefined;
    }
    return entry;
  }
}
