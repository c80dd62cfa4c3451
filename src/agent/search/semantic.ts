import type { KnowledgeEmbedder } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import { embeddingKey, isVector, lookUp, type KnowledgeEmbeddingCache } from './embeddingCache.js';
import { advanceCodePoints } from '../../shared/codePoints.js';

/** Texts sent to the embedder per call. */
export const EMBED_BATCH = 64;
/** Longest text embedded, in code points (the chunk's start). */
export const EMBED_TEXT_CHARS = 2000;
/** Pages a query's semantic ranking keeps (best chunk similarity above 0). */
export const SEMANTIC_CANDIDATES = 50;

/** Unit-length chunk vectors, row by row. */
export interface VectorStore {
  readonly dimensions: number;
  readonly data: Float32Array;
}

/** One page found semantically. */
export interface SemanticFile {
  readonly page: number;
  /** Cosine similarity of its best chunk. */
  readonly similarity: number;
  readonly bestChunk: number;
  /** Up to 3 most similar chunks that are sections, best first. */
  readonly sectionChunks: readonly number[];
}

/**
 * Check one embedder answer and write it, normalized to unit length, into `target` from row `row`.
 *
 * @returns the dimensions.
 * @throws `Error` when the answer has the wrong count, unequal lengths or non-finite numbers.
 */
export function storeVectors(
  vectors: readonly ArrayLike<number>[],
  count: number,
  dimensions: number,
  target: (dims: number) => Float32Array,
  row: number,
): number {
  if (!Array.isArray(vectors) || vectors.length !== count)
    throw new Error(
      `the embedder returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} texts`,
    );
  let dims = dimensions;
  for (let v = 0; v < count; v++) {
    const vector = vectors[v]!;
    if (dims === 0) dims = vector?.length ?? 0;
    if (vector === null || typeof vector !== 'object' || vector.length !== dims || dims === 0)
      throw new Error('the embedder returned vectors of unequal or zero length');
    const data = target(dims);
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const x = vector[d]!;
      if (typeof x !== 'number' || !Number.isFinite(x))
        throw new Error('the embedder returned a non-finite number');
      norm += x * x;
    }
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const base = (row + v) * dims;
    for (let d = 0; d < dims; d++) data[base + d] = vector[d]! * scale;
  }
  return dims;
}

/** The chunk vectors of one build, and how many the embedder made (the rest came from the cache). */
export interface BuiltVectors {
  readonly store: VectorStore;
  /** Texts the embedder was asked for (each distinct text once). */
  readonly embedded: number;
}

/** `text` cut to `EMBED_TEXT_CHARS` code points: what is embedded, and what the cache key names. */
function embeddedText(text: string): string {
  return text.length <= EMBED_TEXT_CHARS
    ? text
    : text.slice(0, advanceCodePoints(text, 0, EMBED_TEXT_CHARS));
}

/**
 * Embed every chunk, each text cut to `EMBED_TEXT_CHARS` code points, each distinct text once, in
 * batches of `EMBED_BATCH`. With a cache, a text whose vector the cache holds (by `embeddingKey`) is
 * not sent, and every new vector is stored; a cached vector that is not one of the embedder's length
 * or not finite is embedded again.
 *
 * @param embedder - the engine's embedder.
 * @param chunks - the chunk table.
 * @param signal - passed to every `embed` call, checked between batches.
 * @param cache - the app's embedding cache, if any.
 * @param knownDims - the embedder's vector length when known (0 if not): cached vectors of another
 *   length are embedded again.
 * @returns the vectors and the count of texts embedded.
 * @throws what the embedder or the cache throws, or `Error` for a malformed answer.
 */
export async function buildVectors(
  embedder: KnowledgeEmbedder,
  chunks: ChunkTable,
  signal: AbortSignal,
  cache?: KnowledgeEmbeddingCache,
  knownDims = 0,
): Promise<BuiltVectors> {
  const count = chunks.count;
  const texts = chunks.textOf.map(embeddedText);
  const keys = cache === undefined ? texts : await Promise.all(texts.map(embeddingKey));
  signal.throwIfAborted();
  const vectorOf: (ArrayLike<number> | undefined)[] = new Array(count).fill(undefined);
  if (cache !== undefined) {
    const answers = await lookUp(cache, keys);
    for (let c = 0; c < count; c++)
      if (isVector(answers[c], 0)) vectorOf[c] = answers[c] as ArrayLike<number>;
  }
  let dims = knownDims;
  let embedded = 0;
  // Embed the distinct texts of `rows` (in order), store each vector for every row of its text.
  const embedRows = async (rows: number[]): Promise<void> => {
    const rowsOf = new Map<string, number[]>();
    for (const c of rows) {
      const list = rowsOf.get(keys[c]!);
      if (list === undefined) rowsOf.set(keys[c]!, [c]);
      else list.push(c);
    }
    const distinct = [...rowsOf.values()];
    for (let from = 0; from < distinct.length; from += EMBED_BATCH) {
      signal.throwIfAborted();
      const batch = distinct.slice(from, from + EMBED_BATCH);
      const vectors = await embedder.embed(
        batch.map((list) => texts[list[0]!]!),
        { signal },
      );
      if (!Array.isArray(vectors) || vectors.length !== batch.length)
        throw new Error(
          `the embedder returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${batch.length} texts`,
        );
      const stored: unknown[] = [];
      for (let v = 0; v < batch.length; v++) {
        const vector = vectors[v];
        if (dims === 0 && isVector(vector, 0)) dims = vector.length;
        if (!isVector(vector, dims))
          throw new Error(
            'the embedder returned vectors of unequal or zero length, or a non-finite number',
          );
        const copy = Float32Array.from(vector);
        for (const c of batch[v]!) vectorOf[c] = copy;
        if (cache !== undefined) stored.push(cache.set(keys[batch[v]![0]!]!, copy));
      }
      // An async store's writes of one batch run together.
      await Promise.all(stored);
      embedded += batch.length;
    }
  };
  const missing: number[] = [];
  for (let c = 0; c < count; c++) if (vectorOf[c] === undefined) missing.push(c);
  await embedRows(missing);
  if (cache !== undefined && count > 0) {
    // The embedder's length when it was called, else the first cached vector's; a cached vector of
    // another length (another model's) is embedded again.
    if (dims === 0) dims = vectorOf[0]!.length;
    const stale: number[] = [];
    for (let c = 0; c < count; c++) if (vectorOf[c]!.length !== dims) stale.push(c);
    await embedRows(stale);
  }
  let data = new Float32Array(0);
  const target = (d: number): Float32Array => {
    if (data.length === 0) data = new Float32Array(d * count);
    return data;
  };
  const dimensions =
    count === 0 ? 0 : storeVectors(vectorOf as ArrayLike<number>[], count, 0, target, 0);
  return { store: { dimensions, data }, embedded };
}

/**
 * Rank pages by the cosine similarity of their best chunk to the query vector; keep the best
 * `SEMANTIC_CANDIDATES` with a similarity above 0.
 *
 * @param store - the chunk vectors.
 * @param chunks - the chunk table.
 * @param query - the query's vector (any length equal to the store's; normalized here).
 * @returns pages, most similar first, ties in path order.
 * @throws `Error` when the query vector's length differs.
 */
export function rankSemantic(
  store: VectorStore,
  chunks: ChunkTable,
  query: ArrayLike<number>,
): SemanticFile[] {
  const dims = store.dimensions;
  const unit = new Float32Array(Math.max(dims, 1));
  if (chunks.count > 0) storeVectors([query], 1, dims, () => unit, 0);
  const best = new Map<
    number,
    { similarity: number; bestChunk: number; top: [number, number][] }
  >();
  const data = store.data;
  for (let c = 0; c < chunks.count; c++) {
    let dot = 0;
    const base = c * dims;
    for (let d = 0; d < dims; d++) dot += data[base + d]! * unit[d]!;
    if (!(dot > 0)) continue;
    const page = chunks.pageOf[c]!;
    let entry = best.get(page);
    if (entry === undefined) best.set(page, (entry = { similarity: dot, bestChunk: c, top: [] }));
    else if (dot > entry.similarity) {
      entry.similarity = dot;
      entry.bestChunk = c;
    }
    if (chunks.sectionOf[c] !== null) {
      entry.top.push([dot, c]);
      entry.top.sort((a, b) => b[0] - a[0]);
      if (entry.top.length > 3) entry.top.pop();
    }
  }
  return [...best.entries()]
    .map(([page, e]) => ({
      page,
      similarity: e.similarity,
      bestChunk: e.bestChunk,
      sectionChunks: e.top.map(([, c]) => c),
    }))
    .sort((a, b) => b.similarity - a.similarity || a.page - b.page)
    .slice(0, SEMANTIC_CANDIDATES);
}
