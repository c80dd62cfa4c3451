/**
 * The search engine behind `search_files`: the public port (`port.ts`) and the default engine
 * (`createBm25fEngine`, a static BM25F index); everything else here is internal (not exported
 * from a package entry).
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
  createBm25fEngine,
  BM25F_DEFAULTS,
  BM25F_OPTION_CHECKS,
  BM25F_OPTION_KEYS,
  bm25fFactory,
  pageByOffset,
} from './createBm25fEngine.js';
export { offsetRange, windowByOffset } from './offsetPaging.js';
export type { Bm25fEngineOptions, Bm25fShorthandKey } from './createBm25fEngine.js';
export { createMemoryRanker, RERANK_TEXT_CHARS } from './memoryRanker.js';
export type { Ranker, RankerSettings, Ranking, RankRequest } from './memoryRanker.js';
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
  SearchWarmProgress,
} from './port.js';
export { documentLead } from './documentLead.js';
export { embeddingKey, isVector, lookUp } from './embeddingCache.js';
export type { KnowledgeEmbeddingCache } from './embeddingCache.js';
export { addRelatedPages, GRAPH_DECAY } from './addRelatedPages.js';
export { foldText } from './foldText.js';
export { fuseRanks, RRF_K } from './fuseRanks.js';
export { isFunctionWord } from './functionWords.js';
export { indexTokens, MAX_COMPOUND_PARTS } from './indexTokens.js';
export type { IndexTokenSink } from './indexTokens.js';
export {
  isFuzzyToken,
  MAX_QUERY_TERMS,
  planQuery,
  QUERY_WEIGHTS,
  withinOneEdit,
} from './planQuery.js';
export type { QueryPlan, QueryTerm, QueryWeights } from './planQuery.js';
export { CHUNK_SHARE, FIELD_MODEL, lexicalSearch } from './lexicalSearch.js';
export type { FieldModel, LexicalFile, LexicalResult } from './lexicalSearch.js';
export { buildBm25fIndex, CONTENT, FIELD_COUNT, FILE_FIELDS, PairTable } from './bm25fIndex.js';
export type { Postings, Bm25fIndex } from './bm25fIndex.js';
export { abortError, raceAbort, withTimeout } from './limits.js';
export type { Settled } from './limits.js';
export { isTermAt, locateTerm } from './locateTerm.js';
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
export { buildTermRows, memoryTermStore } from './memoryTermStore.js';
export type { MemoryVectors } from './memoryTermStore.js';
export { PairRecorder, partialIndex } from './partialIndex.js';
export type { PartialIndex } from './partialIndex.js';
export {
  chunkPlace,
  CONTENT_STRIDE,
  FIELD_STRIDE,
  pairKey,
  TERM_ROWS_FORMAT,
  termRowsOf,
} from './termRows.js';
export type { TermEntry, TermRow, TermRows, TermStats } from './termRows.js';
export { headWants, searchTermStore } from './termStoreEngine.js';
export type {
  TermHead,
  TermStore,
  TermStorePage,
  TermStoreRelation,
  TermStoreSemanticPage,
  TermStoreSettings,
} from './termStoreEngine.js';
