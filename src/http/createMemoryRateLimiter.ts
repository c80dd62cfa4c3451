/**
 * `createMemoryRateLimiter`: a token bucket per key, in this process's memory, as the handler's
 * `rateLimit` hook.
 *
 * @module
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { guardInput } from '../shared/guard.js';
import { isPlainObject } from '../shared/values.js';
import { checkOptions, func, positiveInteger, type OptionCheck } from '../shared/checkOptions.js';
import type { KnowledgeRateLimit, MemoryRateLimiterOptions, RateLimitDecision } from './types.js';

const API = 'createMemoryRateLimiter';
const positiveNumber: OptionCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'a finite number > 0';
const CHECKS: Readonly<Record<keyof MemoryRateLimiterOptions, OptionCheck>> = {
  // A bucket that cannot hold one whole token would refuse every request forever.
  capacity: (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= 1 ? undefined : 'a finite number ≥ 1',
  refillPerSecond: positiveNumber,
  key: func,
  maxKeys: positiveInteger,
  now: func,
};
const ALLOWED: RateLimitDecision = Object.freeze({ ok: true });
/** How many of the least recently used buckets a new key looks through for one that refilled. */
const EVICTION_SCAN = 16;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key for one process: each call takes one token (the handler asks once per call:
 * once per REST request, once per member of an MCP batch); a bucket holds at most `capacity` and
 * refills at `refillPerSecond`. An empty bucket answers `{ ok: false, retryAfterSeconds }` with the
 * wait for the next token. Instances behind a load balancer each keep their own buckets; pass a shared
 * limiter through the same hook to limit across them.
 *
 * Memory is bounded without giving anyone a fresh bucket: at `maxKeys` buckets, a new key replaces
 * one of the least recently used buckets only if that one has refilled to `capacity` (dropping it
 * changes nothing); while every bucket held is still refilling, new keys share one overflow bucket.
 * So no number of distinct keys resets a limited caller.
 *
 * @param options - `capacity`, `refillPerSecond`, `key(request, info)` (default: the client's address
 * when the server adapter gives one, `info.clientAddress`, else one bucket for all), `maxKeys` (default
 * 10,000), `now` (tests).
 * @returns a `rateLimit` hook for `createKnowledgeHandler`.
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options` (also when reading
 *   them throws: a getter or a Proxy).
 * @example
 * ```ts
 * const rateLimit = createMemoryRateLimiter({
 *   capacity: 20,
 *   refillPerSecond: 5,
 *   key: (request) => request.headers.get('authorization') ?? 'anonymous',
 * });
 * const handler = createKnowledgeHandler({ access, rateLimit });
 * ```
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): KnowledgeRateLimit {
  const issues: KnowledgeIssue[] = [];
  // Options are read once, into plain data that is then checked and used: a getter or Proxy that
  // throws is `INVALID_INPUT` as bad values are, and one that changes its answer cannot skip the check.
  const snapshot: unknown = guardInput(API, () =>
    isPlainObject(options) ? { ...options } : options,
  );
  const checked = checkOptions(API, snapshot, CHECKS, issues) as Partial<MemoryRateLimiterOptions>;
  for (const key of ['capacity', 'refillPerSecond'] as const) {
    if (checked[key] === undefined)
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', key],
        message: `${API}: \`options.${key}\` is required.`,
      });
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  const { capacity, refillPerSecond } = checked as MemoryRateLimiterOptions;
  const keyOf = checked.key ?? ((_request: Request, info) => info.clientAddress ?? '');
  const maxKeys = checked.maxKeys ?? 10_000;
  const now = checked.now ?? Date.now;
  // Insertion order is use order: a bucket is moved to the end each time it is used.
  const buckets = new Map<string, Bucket>();
  // Shared by new keys while every bucket held is still refilling.
  const overflow: Bucket = { tokens: capacity, at: now() };
  const refill = (bucket: Bucket, t: number): void => {
    bucket.tokens = Math.min(
      capacity,
      bucket.tokens + (Math.max(0, t - bucket.at) / 1000) * refillPerSecond,
    );
    // A clock that steps back must not refill the same time twice when it steps forward again.
    bucket.at = Math.max(bucket.at, t);
  };
  /** Drops one of the least recently used buckets that has refilled; whether one was. */
  const evictFull = (t: number): boolean => {
    let looked = 0;
    for (const [key, bucket] of buckets) {
      if (looked++ >= EVICTION_SCAN) break;
      refill(bucket, t);
      if (bucket.tokens >= capacity) {
        buckets.delete(key);
        return true;
      }
    }
    return false;
  };

  return (request, info) => {
    const key = keyOf(request, info);
    const t = now();
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      if (buckets.size < maxKeys || evictFull(t)) {
        bucket = { tokens: capacity, at: t };
        buckets.set(key, bucket);
      } else {
        bucket = overflow;
        refill(bucket, t);
      }
    } else {
      buckets.delete(key);
      refill(bucket, t);
      buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { ok: false, retryAfterSeconds: Math.ceil((1 - bucket.tokens) / refillPerSecond) };
  };
}
