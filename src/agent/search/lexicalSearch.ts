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
  readonly score: number;
  /** Best matching chunk, or `-1` when only file fields matched. */
  readonly bestChunk: number;
  /** The best chunk's matched document terms. */
  readonly bestMatch: MatchInfo | undefined;
  /** Chunks counted into the score (at most 3). */
  readonly chunks: number;
  /** Up to 3 best-matching chunks that are sections, best first. */
  readonly sectionChunks: readonly number[];
  /** Matched fields, in `matchedFields` order (shared, frozen lists). */
  readonly fields: readonly MatchedField[];
}

/** Pages found lexically, best first, and what is needed to weigh matched terms later. */
export interface LexicalResult {
  readonly files: readonly LexicalFile[];
  /** Matched document term → matching chunks holding it; only when asked for (`countTerms`). */
  readonly termCounts: ReadonlyMap<string, number> | undefined;
}

const FIELD_BIT: Readonly<Record<string, number>> = Object.fromEntries(FILE_FIELDS.map((field, bit) => [field, 1 << bit]));
const CONTENT_BIT = 1 << FILE_FIELDS.length;
/** Every `matchedFields` list by bit mask (file fields in order, then `content`), shared and frozen. */
const FIELD_LISTS: readonly (readonly MatchedField[])[] = Array.from({ length: CONTENT_BIT * 2 }, (_, mask) =>
  Object.freeze([...FILE_FIELDS, 'content' as const].filter((_, bit) => (mask & (1 << bit)) !== 0)),
);

/**
 * A page's running tally while chunk hits stream in, in MiniSearch's match order (not sorted): its
 * three best chunk scores and its three best section chunks, an equal score never displacing an
 * earlier one, exactly what walking the hits sorted by score (a stable sort) would keep.
 */
class Tally implements LexicalFile {
  readonly page: number;
  score = 0;
  bestChunk = -1;
  bestMatch: MatchInfo | undefined = undefined;
  chunks = 0;
  sectionChunks: number[] = [];
  fields: readonly MatchedField[] = FIELD_LISTS[0]!;
  /** Matched file fields, by `FIELD_BIT`. */
  fieldMask = 0;
  second = 0;
  third = 0;
  sectionScores: number[] | undefined = undefined;

  constructor(page: number) {
    this.page = page;
  }

  addChunk(chunk: number, score: number, match: MatchInfo, section: boolean): void {
    const n = this.chunks;
    if (n === 0) {
      this.score = score;
      this.bestChunk = chunk;
      this.bestMatch = match;
    } else if (score > this.score) {
      this.third = this.second;
      this.second = this.score;
      this.score = score;
      this.bestChunk = chunk;
      this.bestMatch = match;
    } else if (n === 1 || score > this.second) {
      this.third = this.second;
      this.second = score;
    } else if (n === 2 || score > this.third) {
      this.third = score;
    }
    if (n < 3) this.chunks = n + 1;
    if (section) this.addSection(chunk, score);
  }

  private addSection(chunk: number, score: number): void {
    const chunks = this.sectionChunks;
    const scores = (this.sectionScores ??= []);
    let at = chunks.length;
    while (at > 0 && score > scores[at - 1]!) at--;
    if (at >= 3) return;
    chunks.splice(at, 0, chunk);
    scores.splice(at, 0, score);
    if (chunks.length > 3) {
      chunks.pop();
      scores.pop();
    }
  }

  /** The content score, summed in the order the sorted walk would: best, then the second, then the third. */
  finishContent(): void {
    let score = this.score;
    if (this.chunks > 1) score += CHUNK_SHARE * this.second;
    if (this.chunks > 2) score += CHUNK_SHARE * this.third;
    this.score = score;
    this.sectionScores = undefined;
  }
}

/**
 * Run a query on both indexes (file fields only in `file` mode) and fold chunk hits into one entry per
 * page: its best chunk's score plus a quarter of the next two, so a page is ranked by its best section
 * while a second matching section breaks ties, and a long page gains little from many weak sections.
 * Chunk hits are folded in MiniSearch's `filter` callback, which keeps none: MiniSearch then neither
 * collects nor sorts the (often tens of thousands of) chunk results, and no page is dropped.
 *
 * @param index - the two indexes.
 * @param chunks - the chunk table.
 * @param query - the query text.
 * @param fileFieldsOnly - `file` mode.
 * @param countTerms - also count, per matched document term, the chunks it matched in (see
 *   `LexicalResult.termCounts`; for when `chunkFrequency` cannot read them from the index).
 * @returns pages by descending score, ties in path order.
 */
export function lexicalSearch(index: LexicalIndex, chunks: ChunkTable, query: string, fileFieldsOnly: boolean, countTerms = false): LexicalResult {
  const files: Tally[] = [];
  // Page → 1 + its place in `files`, 0 when not found yet.
  const slot = new Int32Array(chunks.firstChunkOf.length);
  const entry = (page: number): Tally => {
    const at = slot[page]!;
    if (at !== 0) return files[at - 1]!;
    const file = new Tally(page);
    files.push(file);
    slot[page] = files.length;
    return file;
  };
  const termCounts = countTerms ? new Map<string, number>() : undefined;
  if (!fileFieldsOnly) {
    const { pageOf, sectionOf } = chunks;
    const filter = (result: SearchResult): boolean => {
      const chunk = result.id as number;
      entry(pageOf[chunk]!).addChunk(chunk, result.score, result.match, sectionOf[chunk] !== null);
      if (termCounts !== undefined) for (const term in result.match) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
      return false;
    };
    index.content.search(query, { ...QUERY_OPTIONS, filter });
    for (const file of files) file.finishContent();
  }
  for (const result of index.files.search(query, QUERY_OPTIONS)) {
    const file = entry(result.id as number);
    file.score += result.score;
    let mask = 0;
    for (const term in result.match) for (const field of result.match[term]!) mask |= FIELD_BIT[field] ?? 0;
    file.fieldMask = mask;
  }
  for (const file of files) file.fields = FIELD_LISTS[file.fieldMask | (file.bestChunk !== -1 ? CONTENT_BIT : 0)]!;
  files.sort((a, b) => b.score - a.score || a.page - b.page);
  return { files, termCounts };
}

/** The part of MiniSearch 7's private state `chunkFrequency` reads: term → field ID → document → count. */
interface TermIndex {
  get(term: string): ReadonlyMap<number, ReadonlyMap<number, number>> | undefined;
}

/**
 * A term's document frequency in the content index (chunks holding it), read from MiniSearch's term
 * index in one lookup. That index is private, so this checks its shape and returns `undefined` when it
 * differs (another MiniSearch version); callers then count matches instead (`lexicalSearch`'s
 * `countTerms`). `minisearch` is pinned to 7.2.0, and a test pins this reader.
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
