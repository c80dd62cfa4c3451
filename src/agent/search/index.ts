/**
 * The search engine behind `search_files`: the public port (`port.ts`) and the default MiniSearch
 * engine; everything else here is internal (not exported from a package entry).
 *
 * @module
 */
export { applyRerank, checkRerankScores } from './applyRerank.js';
export { buildChunks, hasText } from './buildChunks.js';
export type { ChunkTable } from './buildChunks.js';
export { documentChunks, searchCorpus } from './catalogCorpus.js';
export type { Candidate } from './candidate.js';
export { CJK, classOf, LATIN, MARK, SEPARATOR, WORD } from './charClass.js';
export {
  createMiniSearchEngine,
  MINISEARCH_DEFAULTS,
  MINISEARCH_OPTION_CHECKS,
  MINISEARCH_OPTION_KEYS,
  miniSearchFactory,
  pageByOffset,
} from './createMiniSearchEngine.js';
export type { MiniSearchEngineOptions, MiniSearchShorthandKey } from './createMiniSearchEngine.js';
export { createMiniSearchRanker, RERANK_TEXT_CHARS } from './miniSearchRanker.js';
export type { Ranker, RankerSettings, Ranking, RankRequest } from './miniSearchRanker.js';
export type {
  SearchAnswer,
  SearchChunk,
  SearchCorpus,
  SearchCorpusPage,
  SearchEngine,
  SearchEngineFactory,
  SearchHit,
  SearchRelation,
  SearchRequest,
} from './port.js';
export { documentLead } from './documentLead.js';
export { embeddingKey, isVector, lookUp } from './embeddingCache.js';
export type { KnowledgeEmbeddingCache } from './embeddingCache.js';
export { CJK_TERM_MARK, decodeTerm, encodeTerm } from './encodeTerm.js';
export { expandGraph, GRAPH_DECAY } from './expandGraph.js';
export { foldText } from './foldText.js';
export { fuseRanks, RRF_K } from './fuseRanks.js';
export {
  buildLexicalIndex,
  FIELD_BOOST,
  FILE_FIELDS,
  isFuzzyTerm,
  isSingleCjkTerm,
  isWordTerm,
  lexicalIndexOptions,
  QUERY_OPTIONS,
} from './lexicalIndex.js';
export { MAX_QUERY_TERMS, planQuery } from './planQuery.js';
export type { QueryPlan } from './planQuery.js';
export type { LexicalIndex } from './lexicalIndex.js';
export { CHUNK_SHARE, chunkFrequency, FILE_FIELD_SHARE, lexicalSearch } from './lexicalSearch.js';
export type { LexicalFile, LexicalResult } from './lexicalSearch.js';
export { abortError, raceAbort, withTimeout } from './limits.js';
export type { Settled } from './limits.js';
export { locateTerm } from './locateTerm.js';
export { collapseWhitespace, CUT, makeExcerpt, WHITESPACE_RUN } from './makeExcerpt.js';
export { scanTokens } from './scanTokens.js';
export type { TokenSink } from './scanTokens.js';
export {
  buildVectors,
  EMBED_BATCH,
  EMBED_TEXT_CHARS,
  rankSemantic,
  SEMANTIC_CANDIDATES,
  storeVectors,
} from './semantic.js';
export type { BuiltVectors, SemanticFile, VectorStore } from './semantic.js';
export { toRankedFile } from './toRankedFile.js';
export type { HitContext } from './toRankedFile.js';
export { tokenize } from './tokenize.js';
