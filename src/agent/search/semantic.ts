import type { KnowledgeEmbedder } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import { advanceCodePoints } from '../../internal/codePoints.js';

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

/**
 * Embed every chunk, in batches of `EMBED_BATCH`, each text cut to `EMBED_TEXT_CHARS` code points.
 *
 * @param embedder - the source's embedder.
 * @param chunks - the chunk table.
 * @param signal - passed to every `embed` call.
 * @returns the vectors.
 * @throws what the embedder throws, or `Error` for a malformed answer.
 */
export async function buildVectors(
  embedder: KnowledgeEmbedder,
  chunks: ChunkTable,
  signal: AbortSignal,
): Promise<VectorStore> {
  let dimensions = 0;
  let data = new Float32Array(0);
  const target = (dims: number): Float32Array => {
    if (data.length === 0) data = new Float32Array(dims * chunks.count);
    return data;
  };
  for (let from = 0; from < chunks.count; from += EMBED_BATCH) {
    const texts: string[] = [];
    for (let c = from; c < Math.min(from + EMBED_BATCH, chunks.count); c++) {
      const text = chunks.textOf[c]!;
      texts.push(
        text.length <= EMBED_TEXT_CHARS
          ? text
          : text.slice(0, advanceCodePoints(text, 0, EMBED_TEXT_CHARS)),
      );
    }
    const vectors = await embedder.embed(texts, { signal });
    dimensions = storeVectors(vectors, texts.length, dimensions, target, from);
  }
  return { dimensions, data };
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
