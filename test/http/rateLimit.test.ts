/**
 * `createMemoryRateLimiter` on a fake clock: the burst, the refill, `retryAfterSeconds`, one bucket per
 * key, `maxKeys` eviction, and its option errors; and its answers through the handler.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/http/createMemoryRateLimiter.js';
import type {
  KnowledgeRateLimit,
  MemoryRateLimiterOptions,
  RateLimitRequestInfo,
} from '../../src/http/types.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { BASE_PATH, exampleHandler, ORIGIN } from '../helpers/exampleHandler.js';
import { expectError, get } from '../helpers/handler-http.js';

const INFO: RateLimitRequestInfo = { knowledgeBaseId: 'example', operation: 'search_files' };

/** A limiter on a clock the test moves, in milliseconds. */
function limiter(options: Omit<MemoryRateLimiterOptions, 'now'>): {
  readonly limit: (key?: string) => unknown;
  readonly clock: { now: number };
} {
  const clock = { now: 1_000_000 };
  const hook: KnowledgeRateLimit = createMemoryRateLimiter({
    key: (request) => request.headers.get('x-key') ?? '',
    ...options,
    now: () => clock.now,
  });
  const limit = (key = 'a'): unknown =>
    hook(new Request(`${ORIGIN}/x`, { headers: { 'x-key': key } }), INFO);
  return { limit, clock };
}

const OK = { ok: true };

describe('createMemoryRateLimiter', () => {
  it('lets a burst of capacity through, then refuses with the wait for the next token', () => {
    const { limit } = limiter({ capacity: 3, refillPerSecond: 1 });
    expect([limit(), limit(), limit()]).toEqual([OK, OK, OK]);
    expect(limit()).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limit()).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('refills at refillPerSecond, never above capacity', () => {
    const { limit, clock } = limiter({ capacity: 2, refillPerSecond: 2 });
    expect([limit(), limit()]).toEqual([OK, OK]);
    expect(limit()).toMatchObject({ ok: false });
    clock.now += 500;
    expect(limit()).toEqual(OK);
    expect(limit()).toMatchObject({ ok: false });
    clock.now += 3_600_000;
    expect([limit(), limit()]).toEqual([OK, OK]);
    expect(limit()).toMatchObject({ ok: false });
  });

  it('retryAfterSeconds is the whole seconds until one token, and waiting that long is enough', () => {
    const { limit, clock } = limiter({ capacity: 1, refillPerSecond: 0.25 });
    expect(limit()).toEqual(OK);
    expect(limit()).toEqual({ ok: false, retryAfterSeconds: 4 });
    clock.now += 1000;
    expect(limit()).toEqual({ ok: false, retryAfterSeconds: 3 });
    clock.now += 2500;
    // 3.5 s refilled 0.875 tokens: 0.125 to go, half a second, rounded up.
    expect(limit()).toEqual({ ok: false, retryAfterSeconds: 1 });
    clock.now += 1000;
    expect(limit()).toEqual(OK);
  });

  it('a clock that steps back and forward again refills the time once', () => {
    const { limit, clock } = limiter({ capacity: 1, refillPerSecond: 1 });
    expect(limit()).toEqual(OK);
    clock.now -= 10_000;
    expect(limit()).toMatchObject({ ok: false });
    clock.now += 10_000;
    expect(limit()).toMatchObject({ ok: false });
    clock.now += 1_000;
    expect(limit()).toEqual(OK);
  });

  it('refused requests take no token', () => {
    const { limit, clock } = limiter({ capacity: 1, refillPerSecond: 1 });
    expect(limit()).toEqual(OK);
    for (let i = 0; i < 10; i++) expect(limit()).toMatchObject({ ok: false });
    clock.now += 1000;
    expect(limit()).toEqual(OK);
  });

  it('keeps one bucket per key; the default key is one bucket for all', () => {
    const { limit } = limiter({ capacity: 1, refillPerSecond: 1 });
    expect([limit('a'), limit('b'), limit('c')]).toEqual([OK, OK, OK]);
    expect([limit('a'), limit('b')]).toEqual([
      { ok: false, retryAfterSeconds: 1 },
      { ok: false, retryAfterSeconds: 1 },
    ]);
    const shared = createMemoryRateLimiter({ capacity: 1, refillPerSecond: 1, now: () => 0 });
    expect(shared(new Request(`${ORIGIN}/a`, { headers: { authorization: 'one' } }), INFO)).toEqual(
      OK,
    );
    expect(
      shared(new Request(`${ORIGIN}/b`, { headers: { authorization: 'two' } }), INFO),
    ).toMatchObject({ ok: false });
  });

  it('the key function hears the request and what it asks for', () => {
    const heard: [string, RateLimitRequestInfo][] = [];
    const hook = createMemoryRateLimiter({
      capacity: 5,
      refillPerSecond: 1,
      key: (request, info) => {
        heard.push([new URL(request.url).pathname, info]);
        return `${info.knowledgeBaseId ?? '*'}:${info.operation}`;
      },
    });
    hook(new Request(`${ORIGIN}/p`), INFO);
    hook(new Request(`${ORIGIN}/q`), { knowledgeBaseId: null, operation: 'list_knowledge_bases' });
    expect(heard).toEqual([
      ['/p', INFO],
      ['/q', { knowledgeBaseId: null, operation: 'list_knowledge_bases' }],
    ]);
  });

  it('over maxKeys a bucket is replaced only once it has refilled, else new keys share one overflow bucket', () => {
    const { limit, clock } = limiter({ capacity: 1, refillPerSecond: 1, maxKeys: 2 });
    expect([limit('a'), limit('b')]).toEqual([OK, OK]);
    // Both still refilling: `c` and `d` share the overflow bucket, `a` and `b` keep theirs.
    expect(limit('c')).toEqual(OK);
    expect(limit('d')).toMatchObject({ ok: false });
    expect(limit('a')).toMatchObject({ ok: false });
    clock.now += 1_000;
    // `b` has refilled (and `a`, used later, too): `e` replaces the least recently used full one.
    expect(limit('e')).toEqual(OK);
    expect(limit('e')).toMatchObject({ ok: false });
  });

  it('holds no more than maxKeys buckets, and no number of new keys resets a limited one', () => {
    const { limit } = limiter({ capacity: 1, refillPerSecond: 0.001, maxKeys: 3 });
    for (let i = 0; i < 100; i++) limit(`k${i}`);
    // The first three were kept (still empty), the rest shared one overflow bucket.
    for (const key of ['k0', 'k1', 'k2', 'k50', 'k99'])
      expect(limit(key)).toMatchObject({ ok: false });
  });

  it('10,050 distinct keys (the default maxKeys and more) do not give a limited caller a full bucket', () => {
    const { limit } = limiter({ capacity: 2, refillPerSecond: 0.01 });
    expect([limit('victim'), limit('victim')]).toEqual([OK, OK]);
    expect(limit('victim')).toMatchObject({ ok: false });
    for (let i = 0; i < 10_050; i++) limit(`flood-${i}`);
    expect(limit('victim')).toMatchObject({ ok: false });
  });

  it("keys on the client's address by default", () => {
    const hook = createMemoryRateLimiter({ capacity: 1, refillPerSecond: 0.001 });
    const request = new Request(`${ORIGIN}/x`);
    expect(hook(request, { ...INFO, clientAddress: '10.0.0.1' })).toEqual(OK);
    expect(hook(request, { ...INFO, clientAddress: '10.0.0.1' })).toMatchObject({ ok: false });
    expect(hook(request, { ...INFO, clientAddress: '10.0.0.2' })).toEqual(OK);
  });

  it.each([
    [{}, ['options', 'capacity']],
    [{ capacity: 1 }, ['options', 'refillPerSecond']],
    [{ refillPerSecond: 1 }, ['options', 'capacity']],
    [{ capacity: 0, refillPerSecond: 1 }, ['options', 'capacity']],
    [{ capacity: -1, refillPerSecond: 1 }, ['options', 'capacity']],
    [{ capacity: Number.NaN, refillPerSecond: 1 }, ['options', 'capacity']],
    [{ capacity: Number.POSITIVE_INFINITY, refillPerSecond: 1 }, ['options', 'capacity']],
    [{ capacity: '5', refillPerSecond: 1 }, ['options', 'capacity']],
    [{ capacity: 5, refillPerSecond: 0 }, ['options', 'refillPerSecond']],
    [{ capacity: 5, refillPerSecond: -2 }, ['options', 'refillPerSecond']],
    [{ capacity: 5, refillPerSecond: 1, key: 'authorization' }, ['options', 'key']],
    [{ capacity: 5, refillPerSecond: 1, maxKeys: 0 }, ['options', 'maxKeys']],
    [{ capacity: 5, refillPerSecond: 1, maxKeys: 2.5 }, ['options', 'maxKeys']],
    [{ capacity: 5, refillPerSecond: 1, now: 0 }, ['options', 'now']],
    [{ capacity: 5, refillPerSecond: 1, burst: 5 }, ['options', 'burst']],
  ])('options %j are refused at their path', (options, path) => {
    expectKnowledgeError(() => createMemoryRateLimiter(options as never), {
      code: 'INVALID_INPUT',
      path,
    });
  });

  it('options that are not an object are refused', () => {
    expectKnowledgeError(() => createMemoryRateLimiter(undefined as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'capacity'],
    });
    expectKnowledgeError(() => createMemoryRateLimiter(5 as never), {
      code: 'INVALID_INPUT',
      path: ['options'],
    });
  });

  // A bucket below one token would refuse every request forever while retryAfterSeconds promised one.
  it('refuses a capacity below 1, which could never let a request through', () => {
    expectKnowledgeError(() => createMemoryRateLimiter({ capacity: 0.5, refillPerSecond: 1 }), {
      code: 'INVALID_INPUT',
      path: ['options', 'capacity'],
    });
  });
});

describe('through the handler', () => {
  const KB = `${BASE_PATH}/knowledge-bases/example`;

  it('429 with Retry-After when the bucket is empty, per caller key', async () => {
    let now = 0;
    const h = exampleHandler({
      rateLimit: createMemoryRateLimiter({
        capacity: 1,
        refillPerSecond: 0.1,
        key: (request) => request.headers.get('authorization') ?? '',
        now: () => now,
      }),
    });
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
    await expectError(await get(h, `${KB}/tree`), { code: 'RATE_LIMITED', retryAfterSeconds: 10 });
    // Another caller has its own bucket (and is then refused access, not rate).
    await expectError(await get(h, `${KB}/tree`, { authorization: 'Bearer other-token' }), {
      code: 'NOT_FOUND',
    });
    now = 10_000;
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
  });

  // With a very slow refill the wait is huge; `String(1e30)` would be `1e+30`, not HTTP's delay-seconds.
  it('Retry-After is always whole seconds in decimal digits', async () => {
    const h = exampleHandler({
      rateLimit: createMemoryRateLimiter({ capacity: 1, refillPerSecond: 1e-30, now: () => 0 }),
    });
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
    const response = await get(h, `${KB}/tree`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('createMemoryRateLimiter with options that throw when read (issue 21 item 8)', () => {
  it('a throwing getter or a Proxy is INVALID_INPUT naming the function, never the raw error', () => {
    const getter = {
      capacity: 1,
      get refillPerSecond(): number {
        throw new Error('getter');
      },
    };
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('ownKeys');
        },
      },
    );
    for (const options of [getter, proxy]) {
      const error = expectKnowledgeError(() => createMemoryRateLimiter(options as never), {
        code: 'INVALID_INPUT',
      });
      expect(error.message).toMatch(/^createMemoryRateLimiter: /);
    }
  });

  it('a getter is read once: a value that changes after the check is not used', () => {
    let reads = 0;
    const options = {
      get capacity(): number {
        reads++;
        return reads === 1 ? 2 : Number.NaN;
      },
      refillPerSecond: 1,
      now: () => 0,
    };
    const limit = createMemoryRateLimiter(options);
    const request = new Request('http://localhost/');
    const info = { knowledgeBaseId: 'kb', route: 'tree' } as never;
    expect(limit(request, info)).toEqual({ ok: true });
    expect(limit(request, info)).toEqual({ ok: true });
    expect(limit(request, info)).toMatchObject({ ok: false });
    expect(reads).toBe(1);
  });
});
