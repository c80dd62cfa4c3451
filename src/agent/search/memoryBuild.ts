/**
 * What the in-memory engine builds before it ranks, apart from its ranking: the chunk table and the
 * BM25F index (`createIndexBuild`), and the section vectors with their embedding cache
 * (`createVectorBuild`). Each is built once, shared by concurrent callers, and built again by the next
 * call after a failure.
 */
import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';
import type { KnowledgeEmbedder } from '../types.js';
import { buildChunksSliced, type ChunkTable } from './buildChunks.js';
import { buildBm25fIndex, type Bm25fIndex } from './bm25fIndex.js';
import type { KnowledgeEmbeddingCache } from './embeddingCache.js';
import { abortError, raceAbort } from './limits.js';
import { createPacer } from './pace.js';
import type { SearchCorpus, SearchWarmProgress } from './port.js';
import { buildVectors, rankSemantic, type SemanticFile, type VectorStore } from './semantic.js';

/** A corpus's chunks and its index. */
export interface MemoryIndex {
  readonly chunks: ChunkTable;
  readonly index: Bm25fIndex;
}

/** The shared build of a corpus's index. */
export interface IndexBuild {
  /**
   * The build, started by the first call; `signal` (a warm-up's) stops a build it starts, between
   * two slices. Rejects with `SEARCH_UNAVAILABLE` when the build fails.
   */
  build(signal?: AbortSignal): Promise<MemoryIndex>;
  /** The build once it has settled (what a lexical-only search reads without awaiting). */
  readonly ready: MemoryIndex | undefined;
  /** Hear how far the build has come until the returned function is called. */
  listen(onProgress: (progress: SearchWarmProgress) => void): () => void;
}

/**
 * The index build of one corpus: chunks, then the BM25F index, in slices that yield to the event
 * loop (reads go on during a long build).
 *
 * @param corpus - the corpus.
 * @returns the build.
 */
export function createIndexBuild(corpus: SearchCorpus): IndexBuild {
  let built: Promise<MemoryIndex> | undefined;
  let ready: MemoryIndex | undefined;
  const listeners = new Set<(progress: SearchWarmProgress) => void>();
  const report = (progress: SearchWarmProgress): void => {
    for (const listener of listeners) listener(progress);
  };
  return {
    build(signal) {
      if (built === undefined) {
        built = (async () => {
          const chunks = await buildChunksSliced(corpus, createPacer(signal));
          const index = await buildBm25fIndex(chunks, corpus.pages, signal, report);
          return (ready = { chunks, index });
        })().catch((error: unknown) => {
          built = undefined;
          throw new KnowledgeToolError(
            'SEARCH_UNAVAILABLE',
            'Search is unavailable: its index could not be built. Browse with list_tree and read index.md instead.',
            { cause: error },
          );
        });
        built.catch(() => undefined);
      }
      return built;
    },
    get ready() {
      return ready;
    },
    listen(onProgress) {
      listeners.add(onProgress);
      return () => listeners.delete(onProgress);
    },
  };
}

/** The shared build of a corpus's section vectors. */
export interface VectorBuild {
  /** The vectors of `chunks`, built once (from the cache where it holds them). */
  vectors(chunks: ChunkTable): Promise<VectorStore>;
  /** Persist what the cache has not saved yet (its `flush`); a no-op when nothing is new. */
  save(): Promise<void>;
  /** The semantic look-up of one query: its vector, and the pages whose chunks are nearest. */
  find(query: string, chunks: ChunkTable, signal: AbortSignal): Promise<SemanticFile[]>;
}

/**
 * The vector build of one corpus, with its embedder and optional cache.
 *
 * @param embedder - embeds the chunks and the queries.
 * @param embeddingCache - keeps chunk vectors between builds, or `undefined`.
 * @returns the build.
 */
export function createVectorBuild(
  embedder: KnowledgeEmbedder,
  embeddingCache: KnowledgeEmbeddingCache | undefined,
): VectorBuild {
  const vectorSignal = new AbortController().signal;
  let vectors: Promise<VectorStore> | undefined;
  // The length of the embedder's query vectors, once one differed from the chunk vectors'.
  let queryDims = 0;
  // Whether the cache holds vectors its `flush` has not persisted yet, and the flush under way.
  let unsaved = false;
  let saving: Promise<void> | undefined;
  const save = (): Promise<void> => {
    if (saving !== undefined) return saving;
    if (!unsaved || embeddingCache?.flush === undefined) return Promise.resolve();
    unsaved = false;
    const flush = (async () => {
      await embeddingCache.flush!();
    })();
    saving = flush.then(
      () => {
        saving = undefined;
      },
      (error: unknown) => {
        saving = undefined;
        unsaved = true;
        throw error;
      },
    );
    return saving;
  };
  const vectorsOf = (chunks: ChunkTable): Promise<VectorStore> => {
    if (vectors === undefined) {
      vectors = buildVectors(embedder, chunks, vectorSignal, embeddingCache, queryDims).then(
        ({ store, embedded }) => {
          if (embedded > 0) unsaved = true;
          save().catch(() => undefined);
          return store;
        },
        (error: unknown) => {
          vectors = undefined;
          throw error;
        },
      );
      vectors.catch(() => undefined);
    }
    return vectors;
  };
  return {
    vectors: vectorsOf,
    save,
    async find(query, chunks, signal) {
      const store = await raceAbort(vectorsOf(chunks), signal);
      const answer = await embedder.embed([query], { signal });
      if (!Array.isArray(answer) || answer.length !== 1 || answer[0] === undefined)
        throw new Error('the embedder must return one vector for the query');
      const length = (answer[0] as ArrayLike<number>).length;
      if (embeddingCache !== undefined && chunks.count > 0 && length !== store.dimensions) {
        // The cache held another model's vectors: build again, embedding those of another length.
        queryDims = length;
        if (vectors !== undefined && (await vectors) === store) vectors = undefined;
        throw new Error(
          `the query's vector has ${length} numbers and the cached chunk vectors ${store.dimensions}: the embedding cache holds another model's vectors; they are embedded again`,
        );
      }
      return rankSemantic(store, chunks, answer[0]);
    },
  };
}

/**
 * Build the index and, with an embedder, the section vectors, and save the cache: what a ranker's
 * `warm()` does. `onProgress` hears the index build's progress until this call settles; `signal`
 * stops waiting, and stops a build this call started.
 *
 * @param indexBuild - the index build.
 * @param vectorBuild - the vector build, or `undefined` without an embedder.
 * @param signal - the warm-up's signal.
 * @param onProgress - hears the pages indexed.
 * @throws {KnowledgeToolError} `SEARCH_UNAVAILABLE` when a build or the cache's save fails, `TIMEOUT`
 *   when `signal` aborts.
 */
export async function warmBuilds(
  indexBuild: IndexBuild,
  vectorBuild: VectorBuild | undefined,
  signal?: AbortSignal,
  onProgress?: (progress: SearchWarmProgress) => void,
): Promise<void> {
  const unlisten = onProgress === undefined ? undefined : indexBuild.listen(onProgress);
  try {
    const { chunks } = await raceAbort(indexBuild.build(signal), signal);
    if (vectorBuild === undefined) return;
    await raceAbort(vectorBuild.vectors(chunks), signal).catch((error: unknown) => {
      if (signal?.aborted === true) throw error;
      throw new KnowledgeToolError(
        'SEARCH_UNAVAILABLE',
        'Semantic search is unavailable: the embedder failed while computing section vectors. Lexical search still works; the vectors are tried again on the next search.',
        { cause: error },
      );
    });
    await raceAbort(vectorBuild.save(), signal).catch((error: unknown) => {
      if (signal?.aborted === true) throw error;
      throw new KnowledgeToolError(
        'SEARCH_UNAVAILABLE',
        `Search works, semantic search too, but the embedding cache could not save the new section vectors (${error instanceof Error ? error.message : String(error)}), so the next start embeds them again. Fix what the cache names; \`warm()\` tries again.`,
        { cause: error },
      );
    });
  } catch (error) {
    if (signal?.aborted === true && !isKnowledgeToolError(error))
      throw abortError(signal, 'Warming the search index');
    throw error;
  } finally {
    unlisten?.();
  }
}
