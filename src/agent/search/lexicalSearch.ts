import type { MatchInfo, SearchResult } from 'minisearch';
import type { MatchedField } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import { FILE_FIELDS, type LexicalIndex, QUERY_OPTIONS } from './lexicalIndex.js';

/** Share of the second and third best chunks of a page added to its best chunk's score. */
export const CHUNK_SHARE = 0.25;

/** One page found lexically. */
export interface LexicalFile {
  readonly page: number;
  /** Best chunk's BM25 + `CHUNK_SHARE` × the next two + the file fields' BM25. */
  score: number;
  /** Best matching chunk, or `-1` when only file fields matched. */
  bestChunk: number;
  /** The best chunk's matched document terms. */
  bestMatch: MatchInfo | undefined;
  /** Chunks counted into the score (at most 3). */
  chunks: number;
  /** Up to 3 best-matching chunks that are sections, best first. */
  readonly sectionChunks: number[];
  /** Matched fields, in `matchedFields` order. */
  fields: MatchedField[];
}

/** Pages found lexically, best first, and what is needed to weigh matched terms later. */
export interface LexicalResult {
  readonly files: readonly LexicalFile[];
  /** Every matching chunk (for term document frequencies, computed on demand). */
  readonly contentResults: readonly SearchResult[];
}

/**
 * Run a query on both indexes (file fields only in `file` mode) and fold chunk hits into one entry per
 * page: its best chunk's score plus a quarter of the next two, so a page is ranked by its best section
 * while a second matching section breaks ties, and a long page gains little from many weak sections.
 *
 * @param index - the two indexes.
 * @param chunks - the chunk table.
 * @param query - the query text.
 * @param fileFieldsOnly - `file` mode.
 * @returns pages by descending score, ties in path order.
 */
export function lexicalSearch(index: LexicalIndex, chunks: ChunkTable, query: string, fileFieldsOnly: boolean): LexicalResult {
  const files: LexicalFile[] = [];
  const slot = new Map<number, number>();
  const entry = (page: number): LexicalFile => {
    const at = slot.get(page);
    if (at !== undefined) return files[at]!;
    const file: LexicalFile = { page, score: 0, bestChunk: -1, bestMatch: undefined, chunks: 0, sectionChunks: [], fields: [] };
    slot.set(page, files.length);
    files.push(file);
    return file;
  };
  const contentResults = fileFieldsOnly ? [] : index.content.search(query, QUERY_OPTIONS);
  for (const result of contentResults) {
    const chunk = result.id as number;
    const file = entry(chunks.pageOf[chunk]!);
    if (file.chunks === 0) {
      file.score = result.score;
      file.bestChunk = chunk;
      file.bestMatch = result.match;
      file.chunks = 1;
    } else if (file.chunks < 3) {
      file.score += CHUNK_SHARE * result.score;
      file.chunks++;
    }
    if (file.sectionChunks.length < 3 && chunks.sectionOf[chunk] !== null) file.sectionChunks.push(chunk);
  }
  for (const result of index.files.search(query, QUERY_OPTIONS)) {
    const file = entry(result.id as number);
    file.score += result.score;
    let mask = 0;
    for (const term in result.match) for (const field of result.match[term]!) mask |= FIELD_BIT[field] ?? 0;
    file.fields = FILE_FIELDS.filter((_, bit) => (mask & (1 << bit)) !== 0);
  }
  for (const file of files) if (file.bestChunk !== -1) file.fields.push('content');
  files.sort((a, b) => b.score - a.score || a.page - b.page);
  return { files, contentResults };
}

const FIELD_BIT: Readonly<Record<string, number>> = Object.fromEntries(FILE_FIELDS.map((field, bit) => [field, 1 << bit]));

/**
 * Document frequency (matching chunks) of every matched document term of a query: the rarer, the
 * stronger. Linear in the matches; computed once per search, when the first excerpt needs it, and only
 * when `chunkFrequency` cannot read it from the index.
 *
 * @param results - every matching chunk of the query.
 * @returns term → number of chunks it matched in.
 */
export function termFrequencies(results: readonly SearchResult[]): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const result of results) for (const term in result.match) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** The part of MiniSearch 7's private state `chunkFrequency` reads: term → field ID → document → count. */
interface TermIndex {
  get(term: string): ReadonlyMap<number, ReadonlyMap<number, number>> | undefined;
}

/**
 * A term's document frequency in the content index (chunks holding it), read from MiniSearch's term
 * index in one lookup. That index is private, so this checks its shape and returns `undefined` when it
 * differs (another MiniSearch version); callers then count matches instead (`termFrequencies`).
 * `minisearch` is pinned to 7.2.0, and a test pins this reader.
 *
 * @param index - the lexical index.
 * @returns a reader, or `undefined`.
 */
export function chunkFrequency(index: LexicalIndex): ((term: string) => number) | undefined {
  const terms = (index.content as unknown as { _index?: TermIndex })._index;
  if (terms === undefined || typeof terms.get !== 'function') return undefined;
  return (term) => {
    const fields = terms.get(term);
    const docs = fields?.get(0);
    return docs instanceof Map ? docs.size : 0;
  };
}
