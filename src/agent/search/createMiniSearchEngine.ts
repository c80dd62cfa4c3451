/**
 * The default search engine: MiniSearch (BM25+) over section texts and file fields, optional semantic
 * ranking and reranking, graph expansion. It owns its embedder, reranker, excerpt size and time limits.
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
} from '../../internal/checkOptions.js';
import type { KnowledgeEmbedder, KnowledgeReranker } from '../types.js';
import { createMiniSearchRanker, type Ranking, type RankerSettings } from './miniSearchRanker.js';
import type { SearchAnswer, SearchCorpus, SearchEngine, SearchEngineFactory } from './port.js';

/** Options of `createMiniSearchEngine`; every one is optional. */
export interface MiniSearchEngineOptions {
  /**
   * Turns on hybrid search: section vectors (built on `warm()` or the first semantic search) and a
   * query vector per search, fused with the lexical ranking by reciprocal rank fusion.
   */
  readonly embedder?: KnowledgeEmbedder | undefined;
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

/**
 * The checks of every `MiniSearchEngineOptions` key, shared with `createCatalogSource`'s deprecated
 * shorthand so both name the same rules.
 */
export const MINISEARCH_OPTION_CHECKS: Readonly<
  Record<keyof MiniSearchEngineOptions, OptionCheck>
> = {
  embedder: withMethod('embed'),
  semanticTimeoutMs: timeoutMs,
  reranker: withMethod('rerank'),
  rerankTopK: positiveInteger,
  rerankTimeoutMs: timeoutMs,
  searchTimeoutMs: timeoutMs,
  excerptChars: (v) =>
    Number.isSafeInteger(v) && (v as number) >= 16 ? undefined : 'an integer of at least 16',
};

/** The options' keys, in the order the docs list them. */
export const MINISEARCH_OPTION_KEYS = Object.freeze(
  Object.keys(MINISEARCH_OPTION_CHECKS) as (keyof MiniSearchEngineOptions)[],
);

/** Decimal digits of a positive offset, without leading zeros. */
const OFFSET = /^[1-9][0-9]{0,15}$/;

/**
 * One page of a complete ranking, by offset: the continuation is the decimal offset of the next hit.
 * A continuation that is not one (or points past the end) answers no hits.
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
  const { hits, semanticStatus, rerankerStatus } = ranking;
  const from =
    continuation === undefined
      ? 0
      : OFFSET.test(continuation) && Number.isSafeInteger(Number(continuation))
        ? Number(continuation)
        : hits.length;
  const to = Math.min(hits.length, from + limit);
  return Object.freeze({
    hits: from >= hits.length ? Object.freeze([]) : Object.freeze(hits.slice(from, to)),
    continuation: to < hits.length ? String(to) : null,
    semanticStatus,
    rerankerStatus,
  });
}

/** The defaults of `MiniSearchEngineOptions`. */
export const MINISEARCH_DEFAULTS: RankerSettings = Object.freeze({
  embedder: undefined,
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
  const o = checkOptions(api, options, MINISEARCH_OPTION_CHECKS, issues) as MiniSearchEngineOptions;
  if (issues.length > 0) throw new KnowledgeError(issues);
  const d = MINISEARCH_DEFAULTS;
  return Object.freeze({
    embedder: o.embedder,
    reranker: o.reranker,
    excerptChars: o.excerptChars ?? d.excerptChars,
    semanticTimeoutMs: o.semanticTimeoutMs ?? d.semanticTimeoutMs,
    rerankTopK: o.rerankTopK ?? d.rerankTopK,
    rerankTimeoutMs: o.rerankTimeoutMs ?? d.rerankTimeoutMs,
    searchTimeoutMs: o.searchTimeoutMs ?? d.searchTimeoutMs,
  });
}

/**
 * The default search engine of `createCatalogSource`, as a factory: BM25+ on
 * [MiniSearch](https://github.com/lucaong/minisearch) over section texts and file fields with
 * Knowledge Kit's CJK-aware tokenizer, optional semantic ranking fused by reciprocal rank fusion,
 * optional reranking, and graph expansion. Its index is built on `warm()` or the first search. It ranks
 * every candidate in memory and pages by offset (its continuation is the decimal offset of the next hit).
 *
 * @param options - the embedder, the reranker, `excerptChars` and the time limits.
 * @returns a factory to pass as `createCatalogSource(catalog, { search })`.
 * @throws {KnowledgeError} `INVALID_INPUT` for unknown or invalid options, each issue with its `path`.
 * @example
 * ```ts
 * import { createCatalogSource, createMiniSearchEngine } from 'knowledge-kit/agent';
 * const source = createCatalogSource(catalog, {
 *   search: createMiniSearchEngine({ embedder, semanticTimeoutMs: 1500 }),
 * });
 * await source.warm(); // builds the index and the section vectors
 * ```
 */
export function createMiniSearchEngine(options?: MiniSearchEngineOptions): SearchEngineFactory {
  return miniSearchFactory('createMiniSearchEngine', options);
}

/**
 * `createMiniSearchEngine` on behalf of another function (the source's deprecated shorthand), whose
 * name the messages start with.
 *
 * @param api - the function whose options these are, for messages.
 * @param options - the options, unchecked.
 * @returns the factory.
 * @throws {KnowledgeError} `INVALID_INPUT` as `createMiniSearchEngine`.
 */
export function miniSearchFactory(api: string, options: unknown): SearchEngineFactory {
  const settings = readEngineOptions(api, options);
  return (corpus) => miniSearchEngine(corpus, settings);
}

function miniSearchEngine(corpus: SearchCorpus, settings: RankerSettings): SearchEngine {
  const ranker = createMiniSearchRanker(corpus, settings);
  return Object.freeze({
    warm: (signal, onProgress) => ranker.warm(signal, onProgress),
    async search(request) {
      const { limit, continuation, ...rest } = request;
      return pageByOffset(await ranker.rank(rest), limit, continuation);
    },
  } satisfies SearchEngine);
}
