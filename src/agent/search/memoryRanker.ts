import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';
import type {
  KnowledgeEmbedder,
  KnowledgeReranker,
  RerankerSafeCode,
  SemanticSafeCode,
  StageStatus,
} from '../types.js';
import { applyRerank, checkRerankScores } from './applyRerank.js';
import { buildChunksSliced, type ChunkTable } from './buildChunks.js';
import type { Candidate } from './candidate.js';
import { advanceCodePoints } from '../../internal/codePoints.js';
import { addRelatedPages } from './addRelatedPages.js';
import { fuseRanks } from './fuseRanks.js';
import { lexicalSearch, type LexicalFile } from './lexicalSearch.js';
import { abortError, raceAbort, withTimeout } from './limits.js';
import type { KnowledgeEmbeddingCache } from './embeddingCache.js';
import { createPacer } from './pace.js';
import type { SearchCorpus, SearchHit, SearchRequest, SearchWarmProgress } from './port.js';
import { buildVectors, rankSemantic, type SemanticFile, type VectorStore } from './semantic.js';
import { buildBm25fIndex, type Bm25fIndex } from './bm25fIndex.js';
import { toRankedFile } from './toRankedFile.js';

/** A lexical file's candidate when no other stage ran (what `fuseRanks` makes of it). */
function lexicalCandidate(file: LexicalFile): Candidate {
  return { page: file.page, score: file.score, lexical: file, semantic: undefined, graph: false };
}

/** Longest candidate text sent to a reranker, in code points. */
export const RERANK_TEXT_CHARS = 2000;

/** The BM25F engine's settings, defaults applied (see `Bm25fEngineOptions`). */
export interface RankerSettings {
  readonly embedder: KnowledgeEmbedder | undefined;
  readonly embeddingCache: KnowledgeEmbeddingCache | undefined;
  readonly reranker: KnowledgeReranker | undefined;
  readonly excerptChars: number;
  readonly semanticTimeoutMs: number;
  readonly rerankTopK: number;
  readonly rerankTimeoutMs: number;
  readonly searchTimeoutMs: number;
}

/** What the ranker is asked: a search request without its paging. */
export type RankRequest = Omit<SearchRequest, 'limit' | 'continuation'>;

/** Every candidate for one query, ranked, with the stage statuses. */
export interface Ranking {
  /** Every hit (made when first read). */
  readonly hits: readonly SearchHit[];
  /** How many hits there are, without making them. */
  readonly total?: number;
  /** The hits from `from` to `to` (exclusive), made for a page without making the others. */
  hitsBetween?(from: number, to: number): readonly SearchHit[];
  readonly semanticStatus: StageStatus<SemanticSafeCode>;
  readonly rerankerStatus: StageStatus<RerankerSafeCode>;
}

/** The in-memory ranker of one corpus: every candidate, ranked (`createBm25fEngine` pages it). */
export interface Ranker {
  /**
   * Build the index and the section vectors; idempotent, shared by concurrent callers. `onProgress`
   * hears the index build's progress (pages indexed) until this call settles. `signal` stops waiting,
   * and stops a build this call started (the next call starts another).
   */
  warm(signal?: AbortSignal, onProgress?: (progress: SearchWarmProgress) => void): Promise<void>;
  /**
   * Rank every candidate for `request`. Rejects only with `KnowledgeToolError`
   * (`SEARCH_UNAVAILABLE`, `SEARCH_TIMEOUT`, or `TIMEOUT` when the caller aborts).
   */
  rank(request: RankRequest): Promise<Ranking>;
}

interface Built {
  readonly chunks: ChunkTable;
  readonly index: Bm25fIndex;
}

const status = <C extends string>(
  state: StageStatus<C>['state'],
  safeCode: C | null,
): StageStatus<C> => Object.freeze({ state, safeCode });

/**
 * The default ranker of one corpus: BM25F on a static index of section texts and file fields,
 * optional semantic ranking fused by reciprocal rank fusion, optional reranking, and graph expansion.
 * The index and the section vectors are built once, on `warm()` or the first search that needs them,
 * shared by concurrent callers; a failed build is retried by the next call.
 *
 * @param corpus - the source's corpus (its pages are the candidates).
 * @param settings - the embedder, the reranker, `excerptChars` and the time limits.
 * @returns the ranker.
 */
export function createMemoryRanker(corpus: SearchCorpus, settings: RankerSettings): Ranker {
  const pages = corpus.pages;
  const pageOf = new Map(pages.map((page, i) => [page.fileId, i]));
  const fileIdOf = (page: number): string => pages[page]!.fileId;
  const {
    embedder,
    embeddingCache,
    reranker,
    excerptChars,
    semanticTimeoutMs,
    rerankTopK,
    rerankTimeoutMs,
    searchTimeoutMs,
  } = settings;
  const vectorSignal = new AbortController().signal;

  let built: Promise<Built> | undefined;
  // The build once it has settled (what a lexical-only search reads without awaiting).
  let ready: Built | undefined;
  // Whoever waits in `warm()` hears how far the shared build has come.
  const listeners = new Set<(progress: SearchWarmProgress) => void>();
  const report = (progress: SearchWarmProgress): void => {
    for (const listener of listeners) listener(progress);
  };
  /** The shared build; `signal` (a warm-up's) stops a build it starts, between two slices. */
  const lexicalReady = (signal?: AbortSignal): Promise<Built> => {
    if (built === undefined) {
      built = (async () => {
        // Both steps run in slices that yield to the event loop: reads go on during a long build.
        const chunks = await buildChunksSliced(corpus, createPacer(signal));
        const index = await buildBm25fIndex(chunks, pages, signal, report);
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
  };
  let vectors: Promise<VectorStore> | undefined;
  // The length of the embedder's query vectors, once one differed from the chunk vectors'.
  let queryDims = 0;
  // Whether the cache holds vectors its `flush` has not persisted yet, and the flush under way.
  let unsaved = false;
  let saving: Promise<void> | undefined;
  const saveCache = (): Promise<void> => {
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
  const vectorsReady = (chunks: ChunkTable): Promise<VectorStore> => {
    if (vectors === undefined) {
      vectors = buildVectors(embedder!, chunks, vectorSignal, embeddingCache, queryDims).then(
        ({ store, embedded }) => {
          if (embedded > 0) unsaved = true;
          saveCache().catch(() => undefined);
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

  async function semanticStage(
    query: string,
    chunks: ChunkTable,
    signal: AbortSignal,
  ): Promise<{ files: SemanticFile[] | undefined; status: StageStatus<SemanticSafeCode> }> {
    const settled = await withTimeout(
      async (stage) => {
        const store = await raceAbort(vectorsReady(chunks), stage);
        const answer = await embedder!.embed([query], { signal: stage });
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
      semanticTimeoutMs,
      signal,
    );
    if (settled.ok)
      return { files: settled.value, status: status<SemanticSafeCode>('ready', null) };
    return {
      files: undefined,
      status: status('unavailable', settled.timedOut ? 'SEMANTIC_TIMEOUT' : 'SEMANTIC_UNAVAILABLE'),
    };
  }

  async function rerankStage(
    query: string,
    ranked: Candidate[],
    chunks: ChunkTable,
    signal: AbortSignal,
  ): Promise<{ ranked: Candidate[]; status: StageStatus<RerankerSafeCode> }> {
    const top = ranked.slice(0, rerankTopK);
    if (top.length === 0) return { ranked, status: status<RerankerSafeCode>('ready', null) };
    const candidates = top.map((c) => {
      const chunk =
        c.lexical !== undefined && c.lexical.bestChunk !== -1
          ? c.lexical.bestChunk
          : (c.semantic?.bestChunk ?? chunks.firstChunkOf[c.page]!);
      const body = chunk === -1 ? '' : chunks.textOf[chunk]!;
      const text = `${pages[c.page]!.title}\n\n${body}`;
      return {
        fileId: fileIdOf(c.page),
        text: text.slice(0, advanceCodePoints(text, 0, RERANK_TEXT_CHARS)),
      };
    });
    const settled = await withTimeout(
      async (stage) =>
        checkRerankScores(await reranker!.rerank(query, candidates, { signal: stage }), top.length),
      rerankTimeoutMs,
      signal,
    );
    if (settled.ok)
      return {
        ranked: applyRerank(ranked, settled.value),
        status: status<RerankerSafeCode>('ready', null),
      };
    return {
      ranked,
      status: status('unavailable', settled.timedOut ? 'RERANKER_TIMEOUT' : 'RERANKER_UNAVAILABLE'),
    };
  }

  async function run(
    request: RankRequest,
    signal: AbortSignal,
    checkpoint: () => void,
  ): Promise<Ranking> {
    const { chunks, index } = await raceAbort(lexicalReady(), signal);
    checkpoint();
    const semanticWanted = request.mode !== 'file' && embedder !== undefined;
    // Started before the lexical search so the query's embedding overlaps it.
    const semantic = semanticWanted ? semanticStage(request.query, chunks, signal) : undefined;
    semantic?.catch(() => undefined);
    const lexical = lexicalSearch(index, chunks, request.query, request.mode === 'file');
    checkpoint();
    let semanticStatus: StageStatus<SemanticSafeCode>;
    let semanticFiles: SemanticFile[] | undefined;
    if (semantic !== undefined) {
      const outcome = await semantic;
      semanticStatus = outcome.status;
      semanticFiles = outcome.files;
    } else {
      semanticStatus =
        request.mode === 'file'
          ? status('skipped', 'SEMANTIC_NOT_USED')
          : status('disabled', 'SEMANTIC_DISABLED');
    }
    let ranked = fuseRanks(lexical.files, semanticFiles);
    let rerankerStatus = status<RerankerSafeCode>('skipped', 'RERANKER_DISABLED');
    if (request.rerank && reranker !== undefined)
      ({ ranked, status: rerankerStatus } = await rerankStage(
        request.query,
        ranked,
        chunks,
        signal,
      ));
    checkpoint();
    return ranking(request, chunks, ranked, semanticStatus, rerankerStatus);
  }

  /**
   * The hits of a ranking: the graph's pages added in `graph` mode, each candidate as a hit. Given
   * the lexical files alone (no other stage ran), their candidates are made as `fuseRanks` makes
   * them, and only for the hits read: a page of ten does not make one per matching page.
   */
  function ranking(
    request: RankRequest,
    chunks: ChunkTable,
    ranked: Candidate[] | { readonly lexical: readonly LexicalFile[] },
    semanticStatus: StageStatus<SemanticSafeCode>,
    rerankerStatus: StageStatus<RerankerSafeCode>,
  ): Ranking {
    let list = ranked;
    if (request.mode === 'graph')
      list = addRelatedPages(
        Array.isArray(list) ? list : fuseRanks(list.lexical, undefined),
        corpus.relationsOf,
        fileIdOf,
        pageOf,
        request.graphDepth,
        request.graphFanout,
      );
    const context = { chunks, fileIdOf, excerptChars, leadOf };
    const candidates = list;
    const total = Array.isArray(candidates) ? candidates.length : candidates.lexical.length;
    const hitsBetween = (from: number, to: number): SearchHit[] => {
      const out: SearchHit[] = [];
      for (let i = from; i < to && i < total; i++) {
        const candidate: Candidate = Array.isArray(candidates)
          ? candidates[i]!
          : lexicalCandidate(candidates.lexical[i]!);
        out.push(toRankedFile(candidate, context));
      }
      return out;
    };
    let hits: readonly SearchHit[] | undefined;
    return Object.freeze({
      get hits(): readonly SearchHit[] {
        return (hits ??= Object.freeze(hitsBetween(0, total)));
      },
      total,
      hitsBetween,
      semanticStatus,
      rerankerStatus,
    });
  }
  const leadOf = (page: number): string => corpus.leadOf(fileIdOf(page), excerptChars);

  /**
   * A search with nothing to wait for (index built, no embedder, no reranker asked): run at once,
   * without the timer and the abort plumbing of `run`, which a synchronous search cannot use. The
   * caller's abort and the time limit are checked where `run` checks them.
   */
  function rankNow(request: RankRequest, built: Built, started: number): Ranking {
    const outer = request.signal;
    const check = (): void => {
      if (outer?.aborted === true) throw abortError(outer, 'The search');
      if (Date.now() - started > searchTimeoutMs) throw timeoutError();
    };
    check();
    const lexical = lexicalSearch(
      built.index,
      built.chunks,
      request.query,
      request.mode === 'file',
    );
    check();
    const semanticStatus =
      request.mode === 'file'
        ? status<SemanticSafeCode>('skipped', 'SEMANTIC_NOT_USED')
        : status<SemanticSafeCode>('disabled', 'SEMANTIC_DISABLED');
    check();
    return ranking(
      request,
      built.chunks,
      { lexical: lexical.files },
      semanticStatus,
      status<RerankerSafeCode>('skipped', 'RERANKER_DISABLED'),
    );
  }

  const timeoutError = (): KnowledgeToolError =>
    new KnowledgeToolError(
      'SEARCH_TIMEOUT',
      `Search took longer than ${searchTimeoutMs} ms. Try a shorter query, or search again in a moment.`,
    );

  /** Errors of a search as `rank` rejects with them. */
  const searchError = (error: unknown): KnowledgeToolError =>
    isKnowledgeToolError(error)
      ? error
      : new KnowledgeToolError(
          'SEARCH_UNAVAILABLE',
          'Search could not run. Browse with list_tree and read index.md instead, or try again.',
          { cause: error },
        );

  return {
    async warm(
      signal?: AbortSignal,
      onProgress?: (progress: SearchWarmProgress) => void,
    ): Promise<void> {
      if (onProgress !== undefined) listeners.add(onProgress);
      try {
        const { chunks } = await raceAbort(lexicalReady(signal), signal);
        if (embedder === undefined) return;
        await raceAbort(vectorsReady(chunks), signal).catch((error: unknown) => {
          if (signal?.aborted === true) throw error;
          throw new KnowledgeToolError(
            'SEARCH_UNAVAILABLE',
            'Semantic search is unavailable: the embedder failed while computing section vectors. Lexical search still works; the vectors are tried again on the next search.',
            { cause: error },
          );
        });
        await raceAbort(saveCache(), signal).catch((error: unknown) => {
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
        if (onProgress !== undefined) listeners.delete(onProgress);
      }
    },

    async rank(request: RankRequest): Promise<Ranking> {
      const started = Date.now();
      if (
        ready !== undefined &&
        embedder === undefined &&
        (!request.rerank || reranker === undefined)
      ) {
        try {
          return rankNow(request, ready, started);
        } catch (error) {
          throw searchError(error);
        }
      }
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(timeoutError()), searchTimeoutMs);
      const outer = request.signal;
      const onAbort = (): void => controller.abort(abortError(outer!, 'The search'));
      if (outer?.aborted === true) onAbort();
      else outer?.addEventListener('abort', onAbort, { once: true });
      const checkpoint = (): void => {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (Date.now() - started > searchTimeoutMs) controller.abort(timeoutError());
        controller.signal.throwIfAborted();
      };
      try {
        checkpoint();
        return await raceAbort(run(request, controller.signal, checkpoint), controller.signal);
      } catch (error) {
        throw searchError(error);
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
      }
    },
  };
}
