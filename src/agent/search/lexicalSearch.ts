import type { MatchInfo, SearchResult } from 'minisearch';
import type { MatchedField } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import { FILE_FIELDS, type LexicalIndex } from './lexicalIndex.js';
import { planQuery } from './planQuery.js';

/** Share of the second and third best chunks of a page added to its best chunk's score. */
export const CHUNK_SHARE = 0.25;

/**
 * Share of the file fields' BM25 (another index, with its own statistics over short fields) added to
 * the content score. Chosen on the `tune` half of the search-quality bench (0, 0.5, 0.6, 0.7, 0.8, 1
 * and 1.5 tried; see docs/search.md): at 1 the short fields' scores dominated the sections'.
 */
export const FILE_FIELD_SHARE = 0.7;

/** One page found lexically. */
export interface LexicalFile {
  readonly page: number;
  /** Best chunk's BM25 + `CHUNK_SHARE` × the next two + `FILE_FIELD_SHARE` × the file fields' BM25. */
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

const FIELD_BIT: Readonly<Record<string, number>> = Object.fromEntries(
  FILE_FIELDS.map((field, bit) => [field, 1 << bit]),
);
const CONTENT_BIT = 1 << FILE_FIELDS.length;
/** Every `matchedFields` list by bit mask (file fields in order, then `content`), shared and frozen. */
const FIELD_LISTS: readonly (readonly MatchedField[])[] = Array.from(
  { length: CONTENT_BIT * 2 },
  (_, mask) =>
    Object.freeze(
      [...FILE_FIELDS, 'content' as const].filter((_, bit) => (mask & (1 << bit)) !== 0),
    ),
);

const NO_CHUNKS: readonly number[] = Object.freeze([]);

/**
 * A page's running tally while chunk hits stream in, in MiniSearch's match order (not sorted): its
 * three best chunk scores and its three best section chunks, an equal score never displacing an
 * earlier one, exactly what walking the hits sorted by score (a stable sort) would keep. Plain number
 * fields, no arrays: one object per page.
 */
class Tally implements LexicalFile {
  readonly page: number;
  score = 0;
  bestChunk = -1;
  bestMatch: MatchInfo | undefined = undefined;
  chunks = 0;
  fields: readonly MatchedField[] = FIELD_LISTS[0]!;
  /** Matched file fields, by `FIELD_BIT`. */
  fieldMask = 0;
  second = 0;
  third = 0;
  /** Best section chunks (`sections` of them) and their scores, best first. */
  sections = 0;
  section0 = -1;
  section1 = -1;
  section2 = -1;
  sectionScore0 = 0;
  sectionScore1 = 0;
  sectionScore2 = 0;
  #sectionChunks: readonly number[] | undefined;

  constructor(page: number) {
    this.page = page;
  }

  get sectionChunks(): readonly number[] {
    if (this.#sectionChunks === undefined) {
      const n = this.sections;
      this.#sectionChunks =
        n === 0
          ? NO_CHUNKS
          : n === 1
            ? [this.section0]
            : n === 2
              ? [this.section0, this.section1]
              : [this.section0, this.section1, this.section2];
    }
    return this.#sectionChunks;
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
    const n = this.sections;
    if (n === 0 || score > this.sectionScore0) {
      this.section2 = this.section1;
      this.sectionScore2 = this.sectionScore1;
      this.section1 = this.section0;
      this.sectionScore1 = this.sectionScore0;
      this.section0 = chunk;
      this.sectionScore0 = score;
    } else if (n === 1 || score > this.sectionScore1) {
      this.section2 = this.section1;
      this.sectionScore2 = this.sectionScore1;
      this.section1 = chunk;
      this.sectionScore1 = score;
    } else if (n === 2 || score > this.sectionScore2) {
      this.section2 = chunk;
      this.sectionScore2 = score;
    }
    if (n < 3) this.sections = n + 1;
  }

  /** The content score, summed in the order the sorted walk would: best, then the second, then the third. */
  finishContent(): void {
    let score = this.score;
    if (this.chunks > 1) score += CHUNK_SHARE * this.second;
    if (this.chunks > 2) score += CHUNK_SHARE * this.third;
    this.score = score;
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
export function lexicalSearch(
  index: LexicalIndex,
  chunks: ChunkTable,
  query: string,
  fileFieldsOnly: boolean,
  countTerms = false,
): LexicalResult {
  const plan = planQuery(query, chunkFrequency(index));
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
      if (termCounts !== undefined)
        for (const term in result.match) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
      return false;
    };
    index.content.search(plan.text, { ...plan.options, filter });
    for (const file of files) file.finishContent();
  }
  for (const result of index.files.search(plan.text, plan.options)) {
    const file = entry(result.id as number);
    file.score += FILE_FIELD_SHARE * result.score;
    let mask = 0;
    for (const term in result.match)
      for (const field of result.match[term]!) mask |= FIELD_BIT[field] ?? 0;
    file.fieldMask = mask;
  }
  for (const file of files)
    file.fields = FIELD_LISTS[file.fieldMask | (file.bestChunk !== -1 ? CONTENT_BIT : 0)]!;
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
