/**
 * The embedding cache: chunk vectors kept between builds, by the SHA-256 of the text embedded, so a
 * restart or a new revision embeds only the chunks whose text changed.
 *
 * @module
 */
import { type OptionCheck, withMethod } from '../../shared/checkOptions.js';

/**
 * Where the BM25F engine keeps chunk vectors between builds (`createBm25fEngine({
 * embeddingCache })`). Keys are the SHA-256 (64 hex digits) of the text embedded; values are the
 * embedder's vectors as `Float32Array`s. A `Map<string, Float32Array>` is one (in memory, so it saves
 * work across sources of one process: a new revision is a new source); `openEmbeddingCache` from
 * `knowledge-kit/node` is one kept in a file; a key-value store is one with three small methods.
 *
 * The cache holds one embedding model's vectors: use one cache per model (and per `dimensions`
 * setting), since the keys name the text, not the model.
 *
 * @example
 * ```ts
 * const embeddingCache = new Map<string, Float32Array>();
 * const search = createBm25fEngine({ embedder, embeddingCache });
 * ```
 */
/**
 * The option check of an embedding cache (`embeddingCache` of the default engine and of
 * `publishKnowledge`): an object with `get` and `set` methods.
 */
export const embeddingCacheCheck: OptionCheck = (v) =>
  withMethod('get')(v) === undefined && withMethod('set')(v) === undefined
    ? undefined
    : 'an object with `get` and `set` methods, such as a `Map`';

export interface KnowledgeEmbeddingCache {
  /** The vector stored for `key`, or `undefined`. May answer a promise. */
  get(key: string): ArrayLike<number> | undefined | PromiseLike<ArrayLike<number> | undefined>;
  /** Store a vector the embedder has just made. The engine does not use what it returns. */
  set(key: string, vector: Float32Array): unknown;
  /**
   * Persist what `set` stored. Optional; called (and awaited) after a vector build that stored new
   * vectors. When it fails, search goes on with the vectors, and `warm()` rejects saying so.
   */
  flush?(): unknown;
}

const HEX = '0123456789abcdef';
const encoder = new TextEncoder();

/**
 * The cache key of a text: the SHA-256 of its UTF-8 bytes, as 64 lower-case hex digits (Web Crypto,
 * so it runs wherever the agent entry runs).
 *
 * @param text - the text as it is sent to the embedder.
 * @returns the key.
 */
export async function embeddingKey(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]! >>> 4]! + HEX[bytes[i]! & 15]!;
  return out;
}

/**
 * Whether `value` is a vector of `dims` finite numbers (any length above 0 when `dims` is 0).
 *
 * @param value - what an embedder or a cache answered.
 * @param dims - the expected length, or 0 for any.
 * @returns `true` when it is usable.
 */
export function isVector(value: unknown, dims: number): value is ArrayLike<number> {
  if (value === null || typeof value !== 'object') return false;
  const length = (value as ArrayLike<number>).length;
  if (typeof length !== 'number' || length === 0 || (dims !== 0 && length !== dims)) return false;
  for (let d = 0; d < length; d++) {
    const x = (value as ArrayLike<number>)[d];
    if (typeof x !== 'number' || !Number.isFinite(x)) return false;
  }
  return true;
}

/**
 * Look every key up in `cache`, awaiting only the answers that are promises.
 *
 * @param cache - the app's cache.
 * @param keys - one key per text.
 * @returns one answer per key (`undefined` for a miss).
 * @throws what the cache throws.
 */
export async function lookUp(
  cache: KnowledgeEmbeddingCache,
  keys: readonly string[],
): Promise<unknown[]> {
  const answers: unknown[] = keys.map((key) => cache.get(key));
  if (answers.some((a) => typeof (a as PromiseLike<unknown> | null)?.then === 'function'))
    return Promise.all(answers);
  return answers;
}
