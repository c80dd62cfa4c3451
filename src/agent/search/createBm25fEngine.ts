/**
 * The default search engine: BM25F over an index of section texts and file fields held in memory,
 * optional semantic ranking and reranking, graph expansion. It owns its embedder, reranker, excerpt
 * size and time limits.
 *
 * @module
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import {
  checkOptions,
  positiveInteger,
  timeoutMs,
  withMethod,
  type OptionCheck,
} from '../../shared/checkOptions.js';
import type { KnowledgeEmbedder, KnowledgeReranker } from '../types.js';
import { embeddingCacheCheck, type KnowledgeEmbeddingCache } from './embeddingCache.js';
import {
  createMemoryRanker,
  type Ranker,
  type Ranking,
  type RankerSettings,
} from './memoryRanker.js';
import { offsetRange, windowByOffset } from './offsetPaging.js';
import type {
  SearchAnswer,
  SearchHit,
  SearchCorpus,
  SearchEngine,
  SearchEngineFactory,
} from './port.js';

/** Options of `createBm25fEngine`; every one is optional. */
export interface Bm25fEngineOptions {
  /**
   * Turns on hybrid search: section vectors (built on `warm()` or the first semantic search) and a
   * query vector per search, fused with the lexical ranking by reciprocal rank fusion.
   */
  readonly embedder?: KnowledgeEmbedder | undefined;
  /**
   * Keeps chunk vectors between builds by the SHA-256 of each text, so a restart or a new revision
   * embeds only the chunks whose text changed: a `Map<string, Float32Array>`, `openEmbeddingCache`
   * from `knowledge-kit/node` (a file), or any store with `get` and `set` (and optionally `flush`).
   * One cache per embedding model.
   */
  readonly embeddingCache?: KnowledgeEmbeddingCache | undefined;
  /** How long the semantic stage of one search may take before the lexical result stands. Default 2,000 ms. */
  readonly semanticTimeoutMs?: number | undefined;
  /** Reorders the top `rerankTopK` candidates of a search called with `rerank: true`. */
  readonly reranker?: KnowledgeReranker | undefined;
  /** Candidates the reranker sees. Default 50. */
  readonly rerankTopK?: number | undefined;
  /** How long the reranker may take before the fused order stands. Default 2,000 ms. */
  readonly rerankTimeoutMs?: number | undefined;
  /** The whole search's limit (`SEARCH_TIMEOUT` past it). Default 10,000 ms. */
  readonly searchTimeoutMs?: number | undefined;
  /** Largest `sourceExcerpt`, in code points, at least 16. Default 240. */
  readonly excerptChars?: number | undefined;
}

/** The check of every `Bm25fEngineOptions` key. */
const ENGINE_OPTION_CHECKS: Readonly<Record<keyof Bm25fEngineOptions, OptionCheck>> = {
  embedder: withMethod('embed'),
  embeddingCache: embeddingCacheCheck,
  semanticTimeoutMs: timeoutMs,
  reranker: withMethod('rerank'),
  rerankTopK: positiveInteger,
  rerankTimeoutMs: timeoutMs,
  searchTimeoutMs: timeoutMs,
  excerptChars: (v) =>
    Number.isSafeInteger(v) && (v as number) >= 16 ? undefined : 'an integer of at least 16',
};

/**
 * One page of a complete ranking, by offset (`windowByOffset`).
 *
 * @param ranking - every candidate, ranked.
 * @param limit - most hits.
 * @param continuation - the previous page's continuation, or `undefined` for the first page.
 * @returns the page.
 */
export function pageByOffset(
  ranking: Ranking,
  limit: number,
  continuation: string | undefined,
): SearchAnswer {
  const { semanticStatus, rerankerStatus, emptiedBy } = ranking;
  // A ranking that makes its hits on demand makes only the page's.
  const { total } = ranking;
  let page: { readonly items: readonly SearchHit[]; readonly continuation: string | null };
  if (ranking.hitsBetween !== undefined && total !== undefined) {
    const { from, to, next } = offsetRange(total, limit, continuation);
    page = { items: from >= total ? [] : ranking.hitsBetween(from, to), continuation: next };
  } else page = windowByOffset(ranking.hits, limit, continuation);
  return Object.freeze({
    hits: Object.freeze([...page.items]),
    continuation: page.continuation,
    semanticStatus,
    rerankerStatus,
    ...(emptiedBy === undefined || emptiedBy === null ? {} : { emptiedBy }),
  });
}

/** The defaults of `Bm25fEngineOptions`. */
export const BM25F_DEFAULTS: RankerSettings = Object.freeze({
  embedder: undefined,
  embeddingCache: undefined,
  reranker: undefined,
  excerptChars: 240,
  semanticTimeoutMs: 2000,
  rerankTopK: 50,
  rerankTimeoutMs: 2000,
  searchTimeoutMs: 10_000,
});

/**
 * Check `options` and apply the defaults.
 *
 * @throws {KnowledgeError} `INVALID_INPUT` listing every unknown or invalid option.
 */
function readEngineOptions(api: string, options: unknown): RankerSettings {
  const issues: KnowledgeIssue[] = [];
  const o = checkOptions(api, options, ENGINE_OPTION_CHECKS, issues) as Bm25fEngineOptions;
  if (o.embeddingCache !== undefined && o.embedder === undefined && issues.length === 0)
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'embeddingCache'],
      message: `${api}: \`embeddingCache\` keeps the vectors of an \`embedder\`, and none was given. Pass \`embedder\` too, or leave \`embeddingCache\` out.`,
    });
  if (issues.length > 0) throw new KnowledgeError(issues);
  const d = BM25F_DEFAULTS;
  return Object.freeze({
    embedder: o.embedder,
    embeddingCache: o.embeddingCache,
    reranker: o.reranker,
    excerptChars: o.excerptChars ?? d.excerptChars,
    semanticTimeoutMs: o.semanticTimeoutMs ?? d.semanticTimeoutMs,
    rerankTopK: o.rerankTopK ?? d.rerankTopK,
    rerankTimeoutMs: o.rerankTimeoutMs ?? d.rerankTimeoutMs,
    searchTimeoutMs: o.searchTimeoutMs ?? d.searchTimeoutMs,
  });
}

/**
 * The default search engine of `createCatalogSource`, as a factory: one BM25F model over section
 * texts and file fields, on a static index in typed arrays built with Knowledge Kit's CJK-aware
 * tokens (identifiers also kept whole, word pairs and four-character CJK runs as phrase evidence,
 * function words weighed less). Optional semantic ranking fused by reciprocal rank fusion,
 * optional reranking, and graph expansion. Its index is built on `warm()` or the first search. It ranks
 * every candidate in memory and pages by offset (its continuation is the decimal offset of the next hit).
 *
 * @param options - the embedder, the reranker, `excerptChars` and the time limits.
 * @returns a factory to pass as `createCatalogSource(catalog, { search })`.
 * @throws {KnowledgeError} `INVALID_INPUT` for unknown or invalid options, each issue with its `path`.
 * @example
 * ```ts
 * import { createCatalogSource, createBm25fEngine } from 'knowledge-kit/agent';
 * const source = createCatalogSource(catalog, {
 *   search: createBm25fEngine({ embedder, semanticTimeoutMs: 1500 }),
 * });
 * await source.warm(); // builds the index and the section vectors
 * ```
 */
export function createBm25fEngine(options?: Bm25fEngineOptions): SearchEngineFactory {
  const settings = readEngineOptions('createBm25fEngine', options);
  return (corpus) => bm25fEngine(corpus, settings);
}

/**
 * Each engine's last search (its ranking and answer), kept until the next search replaces it. V8
 * holds the hidden classes of a search's objects (its pages found, hits, frozen answers) only
 * through live objects of those classes: when a full garbage collection found none, it freed them
 * and threw away every optimized function of the search path, which ran slowly again until
 * re-optimized (searches between collections took up to twice as long; docs/performance.md).
 */
const LAST_SEARCH = new WeakMap<Ranker, readonly [Ranking, SearchAnswer]>();

function bm25fEngine(corpus: SearchCorpus, settings: RankerSettings): SearchEngine {
  const ranker = createMemoryRanker(corpus, settings);
  return Object.freeze({
    warm: (signal, onProgress) => ranker.warm(signal, onProgress),
    async search(request) {
      const { limit, continuation, ...rest } = request;
      const ranking = await ranker.rank(rest);
      const answer = pageByOffset(ranking, limit, continuation);
      LAST_SEARCH.set(ranker, [ranking, answer]);
      return answer;
    },
  } satisfies SearchEngine);
}
