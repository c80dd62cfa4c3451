/**
 * The handler's shared deadlines: requests that expire in the same slice share one timer and one
 * signal; a deadline never fires early, fires at most one slice late, and no timer outlives its requests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineClock, DeadlineError } from '../../src/http/deadline.js';

const request = (): Request => new Request('http://kb.test/x');

afterEach(() => {
  vi.useRealTimers();
});

describe('DeadlineClock', () => {
  it('never fires early, and at most one slice (1/50 of the limit) late', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock(1_000); // slices of 20 ms
    const deadline = clock.start(request());
    let settled = false;
    const raced = deadline.race(new Promise(() => undefined)).catch((error: unknown) => {
      settled = true;
      return error;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(21);
    expect(settled).toBe(true);
    expect(await raced).toBeInstanceOf(DeadlineError);
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it('requests in one slice share one timer and one signal; the last one out stops the timer', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock(30_000);
    const a = clock.start(request());
    const b = clock.start(request());
    expect(a.signal).toBe(b.signal);
    expect(vi.getTimerCount()).toBe(1);
    a.dispose();
    expect(vi.getTimerCount()).toBe(1);
    b.dispose();
    b.dispose(); // twice is harmless
    expect(vi.getTimerCount()).toBe(0);
    const c = clock.start(request());
    expect(vi.getTimerCount()).toBe(1);
    c.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a finished race is not disturbed when the slice fires later', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock(100);
    const deadline = clock.start(request());
    await expect(deadline.race(Promise.resolve(7))).resolves.toBe(7);
    const other = clock.start(request());
    await vi.advanceTimersByTimeAsync(200);
    expect(other.signal.aborted).toBe(true);
    deadline.dispose();
    other.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an own signal also aborts when the client hangs up, and then the race ends', async () => {
    const controller = new AbortController();
    const clock = new DeadlineClock(60_000);
    const deadline = clock.start(new Request('http://kb.test/x', { signal: controller.signal }));
    const own = deadline.ownSignal();
    const neighbour = clock.start(request());
    expect(own).not.toBe(neighbour.signal);
    const raced = deadline.race(new Promise(() => undefined));
    controller.abort();
    expect(own.aborted).toBe(true);
    await expect(raced).rejects.toBeInstanceOf(DeadlineError);
    expect(neighbour.signal.aborted).toBe(false);
    deadline.dispose();
    neighbour.dispose();
  });
});
