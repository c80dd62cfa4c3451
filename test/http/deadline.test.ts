/**
 * The handler's deadlines: requests that expire in the same slice share one timer; each request that
 * asks for a signal gets its own. A deadline never fires early, fires at most one slice late, no timer
 * outlives its requests by more than a turn of the event loop, and a request's signal is aborted when it is answered.
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
    const signal = deadline.signal;
    let settled = false;
    const raced = deadline.race(new Promise(() => undefined)).catch((error: unknown) => {
      settled = true;
      return error;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(21);
    expect(settled).toBe(true);
    expect(await raced).toBeInstanceOf(DeadlineError);
    expect(signal.aborted).toBe(true);
    deadline.dispose();
  });

  it('requests in one slice share one timer but not their signals; the last one out stops the timer at the next turn', () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock(30_000);
    const a = clock.start(request());
    const b = clock.start(request());
    expect(a.signal).not.toBe(b.signal);
    expect(a.signal).toBe(a.signal);
    expect(vi.getTimerCount()).toBe(1);
    a.dispose();
    expect(vi.getTimerCount()).toBe(1);
    b.dispose();
    b.dispose(); // twice is harmless
    // The slice's timer and the turn's sweep; the sweep stops the empty slice.
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(0);
    expect(vi.getTimerCount()).toBe(0);
    const c = clock.start(request());
    expect(vi.getTimerCount()).toBe(1);
    c.dispose();
    vi.advanceTimersByTime(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('requests answered one after the other in one turn share one slice; it still fires for a later one', async () => {
    vi.useFakeTimers();
    const clock = new DeadlineClock(1_000); // slices of 20 ms
    for (let i = 0; i < 100; i++) clock.start(request()).dispose();
    expect(vi.getTimerCount()).toBe(2); // one slice, one sweep
    // A request joins the emptied slice before the sweep: the sweep leaves it running.
    const late = clock.start(request());
    const signal = late.signal;
    vi.advanceTimersByTime(0);
    expect(vi.getTimerCount()).toBe(1);
    const raced = late.race(new Promise(() => undefined)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_020);
    expect(await raced).toBeInstanceOf(DeadlineError);
    expect(signal.aborted).toBe(true);
    late.dispose();
    vi.advanceTimersByTime(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a request's signal is aborted when it is answered with a call still running, and only then", async () => {
    const clock = new DeadlineClock(60_000);
    const left = clock.start(request());
    const leftSignal = left.signal;
    void left.race(new Promise(() => undefined)).catch(() => undefined);
    left.dispose();
    expect(leftSignal.aborted).toBe(true);
    const done = clock.start(request());
    const doneSignal = done.signal;
    await done.race(Promise.resolve(1));
    done.dispose();
    expect(doneSignal.aborted).toBe(false);
  });

  it('the longest limit (2^31 - 1 ms) is honoured, not fired at once', async () => {
    vi.useFakeTimers();
    const deadline = new DeadlineClock(2_147_483_647).start(request());
    const signal = deadline.signal;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(signal.aborted).toBe(false);
    deadline.dispose();
  });

  it('a hang-up signal also aborts when the client hangs up, and then the race ends; neighbours are untouched', async () => {
    const controller = new AbortController();
    const clock = new DeadlineClock(60_000);
    const deadline = clock.start(new Request('http://kb.test/x', { signal: controller.signal }));
    const own = deadline.hangUpSignal();
    const neighbour = clock.start(request());
    const raced = deadline.race(new Promise(() => undefined));
    controller.abort();
    expect(own.aborted).toBe(true);
    await expect(raced).rejects.toBeInstanceOf(DeadlineError);
    expect(neighbour.signal.aborted).toBe(false);
    deadline.dispose();
    neighbour.dispose();
  });

  it('many concurrent requests add no listener to any shared signal (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    const clock = new DeadlineClock(30_000);
    const deadlines = Array.from({ length: 50 }, () => clock.start(request()));
    for (const d of deadlines) d.signal.addEventListener('abort', () => undefined);
    for (const d of deadlines) d.dispose();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
  });
});
