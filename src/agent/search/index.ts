/**
 * The search engine behind `search_files`: the public port (`port.ts`) and the default engine
 * (`createBm25fEngine`, a BM25F index in memory), and what the rest of the package, its tests and its
 * benches import of the search internals; nothing here is exported from a package entry but what
 * `src/agent/index.ts` names.
 *
 * @module
 */
export { buildChunks } from './buildChunks.js';
export { searchCorpus } from './catalogCorpus.js';
export { createBm25fEngine, BM25F_DEFAULTS } from './createBm25fEngine.js';
export { createMemoryRanker } from './memoryRanker.js';
export type { Ranker, RankerSettings, RankRequest } from './memoryRanker.js';
export type { SearchAnswer, SearchCorpus, SearchEngineFactory, SearchRequest } from './port.js';
export { embeddingKey } from './embeddingCache.js';
export { fuseRanks } from './fuseRanks.js';
export { headingKey, indexTokens } from './indexTokens.js';
export { MAX_QUERY_TERMS, planQuery, QUERY_WEIGHTS } from './planQuery.js';
export { CHUNK_SHARE, FIELD_MODEL, lexicalSearch } from './lexicalSearch.js';
export type { LexicalFile } from './lexicalSearch.js';
export { buildBm25fIndex, CONTENT, FILE_FIELDS, HEADINGS, headingLines } from './bm25fIndex.js';
export { isTermAt, locateTerm } from './locateTerm.js';
export { CUT, makeExcerpt, WHITESPACE_RUN } from './makeExcerpt.js';
export { buildVectors } from './semantic.js';
export type { SemanticFile } from './semantic.js';
export { tokenize } from './tokenize.js';
export { buildTermRows, memoryTermStore } from './memoryTermStore.js';
export { chunkPlace, CONTENT_STRIDE, FIELD_STRIDE } from './termRows.js';
export type { TermEntry, TermRow, TermRows, TermStats } from './termRows.js';
export { searchTermStore } from './termStoreEngine.js';
export { scopeFieldsOf } from './scopeStage.js';
export type {
  TermStore,
  TermStorePage,
  TermStoreRelation,
  TermStoreSemanticPage,
} from './termStoreEngine.js';
