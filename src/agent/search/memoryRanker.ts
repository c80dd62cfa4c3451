/**
 * The in-memory engine's ranker: its index and vectors (`memoryBuild.ts`) read by the ranking
 * pipeline (`rankingPipeline.ts`), under the search's time limit and its caller's signal.
 */
import type { SearchChunkHeading } from './port.js';
import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';
import type {
  KnowledgeEmbedder,
  KnowledgeReranker,
  RerankerSafeCode,
  SemanticSafeCode,
  StageStatus,
} from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import type { Candidate } from './candidate.js';
import { advanceCodePoints } from '../../shared/codePoints.js';
import { lexicalSearch } from './lexicalSearch.js';
import { abortError, raceAbort } from './limits.js';
import type { KnowledgeEmbeddingCache } from './embeddingCache.js';
import {
  createIndexBuild,
  createVectorBuild,
  type MemoryIndex,
  warmBuilds,
} from './memoryBuild.js';
import type { SearchCorpus, SearchHit, SearchWarmProgress } from './port.js';
import {
  candidatesBetween,
  type PipelineParts,
  type PipelineResult,
  type RankedList,
  rankedCount,
  rankedFiles,
  type RankRequest,
  type RelationGraph,
  runLexicalPipeline,
  runRankingPipeline,
} from './rankingPipeline.js';
import type { SemanticFile } from './semantic.js';
import type { HitContext } from './toRankedFile.js';
import { hasFilter, pageScope, type PageScope } from './scopeStage.js';

export type { RankRequest } from './rankingPipeline.js';

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
  /** The filter that left no page to rank (`SearchAnswer.emptiedBy`), when one did. */
  readonly emptiedBy?: PageScope['emptiedBy'] | undefined;
}

/**
 * A ranking whose hits are made when read. A class, not a frozen object literal with a getter: V8
 * gives each such literal, once frozen, a hidden class of its own (the getter is a new function
 * each time), so every search's ranking had a new one and the code reading rankings could not stay
 * optimized for one shape (searches were about 15% slower).
 */
class ListRanking implements Ranking {
  readonly total: number;
  readonly semanticStatus: StageStatus<SemanticSafeCode>;
  readonly rerankerStatus: StageStatus<RerankerSafeCode>;
  readonly emptiedBy: PageScope['emptiedBy'] | null;
  readonly #list: RankedList;
  readonly #context: HitContext;
  #hits: readonly SearchHit[] | undefined;

  constructor(
    list: RankedList,
    context: HitContext,
    semanticStatus: StageStatus<SemanticSafeCode>,
    rerankerStatus: StageStatus<RerankerSafeCode>,
    emptiedBy: PageScope['emptiedBy'] | null,
  ) {
    this.total = rankedCount(list);
    this.semanticStatus = semanticStatus;
    this.rerankerStatus = rerankerStatus;
    this.emptiedBy = emptiedBy;
    this.#list = list;
    this.#context = context;
  }

  get hits(): readonly SearchHit[] {
    return (this.#hits ??= Object.freeze(this.hitsBetween(0, this.total)));
  }

  hitsBetween(from: number, to: number): readonly SearchHit[] {
    return rankedFiles(candidatesBetween(this.#list, from, to), this.#context);
  }
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

/** The error of a search past its time limit. */
const timeoutError = (searchTimeoutMs: number): KnowledgeToolError =>
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

/**
 * The default ranker of one corpus: BM25F on an index of section texts and file fields, optional
 * semantic ranking fused by reciprocal rank fusion, optional reranking, and graph expansion. The
 * index and the section vectors are built once, on `warm()` or the first search that needs them,
 * shared by concurrent callers; a failed build is retried by the next call.
 *
 * @param corpus - the source's corpus (its pages are the candidates).
 * @param settings - the embedder, the reranker, `excerptChars` and the time limits.
 * @returns the ranker.
 */
export function createMemoryRanker(corpus: SearchCorpus, settings: RankerSettings): Ranker {
  const { embedder, reranker, excerptChars, searchTimeoutMs } = settings;
  const pages = corpus.pages;
  const fileIdOf = (page: number): string => pages[page]!.fileId;
  const graph: RelationGraph = {
    relationsOf: corpus.relationsOf,
    fileIdOf,
    pageOf: new Map(pages.map((page, i) => [page.fileId, i])),
  };
  const graphOf = (): RelationGraph => graph;
  const leadOf = (page: number): string => corpus.leadOf(fileIdOf(page), excerptChars);
  /** A chunk's headings, from its page's (asked of the corpus once per page shown, when it can tell). */
  const headingsOfChunk = (chunks: ChunkTable) => {
    const byPage = new Map<number, readonly (readonly SearchChunkHeading[])[]>();
    return (chunk: number): readonly SearchChunkHeading[] => {
      const page = chunks.pageOf[chunk]!;
      let lists = byPage.get(page);
      if (lists === undefined)
        byPage.set(page, (lists = corpus.headingsOf?.(fileIdOf(page)) ?? []));
      return lists[chunk - chunks.firstChunkOf[page]!] ?? [];
    };
  };
  const indexBuild = createIndexBuild(corpus);
  const vectorBuild =
    embedder === undefined ? undefined : createVectorBuild(embedder, settings.embeddingCache);

  /** What the pipeline reads of a built index, for one search. */
  const partsOf = (
    request: RankRequest,
    { chunks, index }: MemoryIndex,
    checkpoint: () => void,
    scope: PageScope | undefined,
  ): PipelineParts<SemanticFile[]> => ({
    scope: scope?.keeps,
    semantic:
      vectorBuild === undefined
        ? undefined
        : (stage) => vectorBuild.find(request.query, chunks, stage),
    semanticTimeoutMs: settings.semanticTimeoutMs,
    async lexical(semantic) {
      const files = lexicalSearch(index, chunks, request.query, request.mode === 'file').files;
      checkpoint();
      return {
        lexical: files,
        semantic: semantic === undefined ? undefined : (await semantic).found,
      };
    },
    reranking:
      reranker === undefined
        ? undefined
        : {
            reranker,
            topK: settings.rerankTopK,
            timeoutMs: settings.rerankTimeoutMs,
            candidateOf: (c) => rerankCandidate(c, chunks),
          },
    graph: graphOf,
    checkpoint,
  });

  /** A candidate as the reranker is shown it: its title and its best chunk, cut. */
  const rerankCandidate = (c: Candidate, chunks: ChunkTable): { fileId: string; text: string } => {
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
  };

  /** The hits of the pipeline's ranking, each made when first read. */
  function ranking(
    built: MemoryIndex,
    result: PipelineResult,
    scope: PageScope | undefined,
  ): Ranking {
    const { list, semanticStatus, rerankerStatus } = result;
    const context = {
      chunks: built.chunks,
      fileIdOf,
      excerptChars,
      leadOf,
      headingsOf: headingsOfChunk(built.chunks),
    };
    return Object.freeze(
      new ListRanking(list, context, semanticStatus, rerankerStatus, scope?.emptiedBy ?? null),
    );
  }

  /** The pages the request's filters keep, or `undefined` without filters. */
  const scopeOf = (request: RankRequest): PageScope | undefined =>
    hasFilter(request.filter) ? pageScope(pages, request.filter) : undefined;

  /**
   * A search with nothing to wait for (index built, no embedder, no reranker asked): run at once,
   * without the timer and the abort plumbing of the pipeline's stages, which a synchronous search
   * cannot use. The caller's abort and the time limit are checked between the stages.
   */
  function rankNow(request: RankRequest, built: MemoryIndex, started: number): Ranking {
    const outer = request.signal;
    const check = (): void => {
      if (outer?.aborted === true) throw abortError(outer, 'The search');
      if (Date.now() - started > searchTimeoutMs) throw timeoutError(searchTimeoutMs);
    };
    check();
    const lexical = lexicalSearch(
      built.index,
      built.chunks,
      request.query,
      request.mode === 'file',
    );
    check();
    const scope = scopeOf(request);
    return ranking(built, runLexicalPipeline(request, lexical.files, graphOf, scope?.keeps), scope);
  }

  /** The search through every stage, once the index is built. */
  async function run(
    request: RankRequest,
    signal: AbortSignal,
    checkpoint: () => void,
  ): Promise<Ranking> {
    const built = await raceAbort(indexBuild.build(), signal);
    checkpoint();
    const scope = scopeOf(request);
    const result = await runRankingPipeline(
      request,
      partsOf(request, built, checkpoint, scope),
      signal,
    );
    return ranking(built, result, scope);
  }

  return {
    warm: (signal, onProgress) => warmBuilds(indexBuild, vectorBuild, signal, onProgress),

    async rank(request: RankRequest): Promise<Ranking> {
      const started = Date.now();
      const ready = indexBuild.ready;
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
      const timer = setTimeout(
        () => controller.abort(timeoutError(searchTimeoutMs)),
        searchTimeoutMs,
      );
      const outer = request.signal;
      const onAbort = (): void => controller.abort(abortError(outer!, 'The search'));
      if (outer?.aborted === true) onAbort();
      else outer?.addEventListener('abort', onAbort, { once: true });
      const checkpoint = (): void => {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (Date.now() - started > searchTimeoutMs) controller.abort(timeoutError(searchTimeoutMs));
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
