/**
 * The static index of a frozen corpus as rows, one per term: what a store keeps (PostgreSQL tables, a
 * static bundle's shards) so that a search reads only its own terms' postings (`termStoreEngine.ts`)
 * and still ranks exactly as the in-memory engine does (`partialIndex.ts` rebuilds a `Bm25fIndex` of
 * just those rows, and `lexicalSearch` runs on it).
 */
import type { ChunkTable } from './buildChunks.js';
import { CONTENT, FIELD_COUNT, type Postings, type Bm25fIndex } from './bm25fIndex.js';
import { HEADING_KEY_MARK } from './indexTokens.js';

/**
 * Version of the row format (`TermStats.format`); a store refuses rows of another version. 2: rows
 * carry the headings field.
 */
export const TERM_ROWS_FORMAT = 2;

/** Numbers per content posting: page, chunk place (`place × 2 + 1` for a section), count, length. */
export const CONTENT_STRIDE = 4;
/** Numbers per file-field posting: page, count, length. */
export const FIELD_STRIDE = 3;

/**
 * One term of the dictionary, without its postings: what a query's first read returns (its exact
 * tokens, and the words or bigrams under a head for prefix, fuzzy and CJK-prefix matching).
 */
export interface TermEntry {
  /** The token (`indexTokens`'s folded text); for a pair, `pairKey(first, second)`. */
  readonly key: string;
  /** Its number in the whole index (a term number, or a pair number): the order of head lists. */
  readonly ordinal: number;
  readonly pair: boolean;
  /**
   * The head it is listed under for prefix and fuzzy matching (a word's first two code units), or for
   * CJK-prefix matching (a bigram's first character); `null` when listed under none.
   */
  readonly head: string | null;
  /** Whether `head` is a CJK bigram head (else a word head). */
  readonly bigram: boolean;
  /** Pages holding it (its document frequency). */
  readonly frequency: number;
}

/** One term with its postings, entries ascending by page (then by chunk place). */
export interface TermRow extends TermEntry {
  /**
   * Content postings (for a pair, the chunks where the two follow each other), `CONTENT_STRIDE`
   * numbers an entry: page number, chunk place (the chunk's index among its page's chunks, times 2,
   * plus 1 when the chunk is a section's), count, the chunk's length in tokens.
   */
  readonly content: readonly number[];
  /**
   * Postings of the page-level fields (title, path, description, tags in `FILE_FIELDS` order, then
   * the page's headings, `HEADINGS`; empty lists for a pair), `FIELD_STRIDE` numbers an entry: page
   * number, count, the field's length in tokens.
   */
  readonly fields: readonly (readonly number[])[];
}

/** The corpus statistics a search needs beside its terms' rows. */
export interface TermStats {
  readonly format: typeof TERM_ROWS_FORMAT;
  /** Pages (page numbers are `0 … pageCount − 1`, in the corpus's page order). */
  readonly pageCount: number;
  readonly chunkCount: number;
  /** Mean length per field (content, then the file fields), as the in-memory index computes it. */
  readonly meanLengths: readonly number[];
}

/** Every row and the statistics of one index. */
export interface TermRows {
  readonly stats: TermStats;
  /** Terms in term-number order, then pairs in pair-number order. */
  readonly rows: readonly TermRow[];
}

/**
 * The key of a pair of adjacent terms: the two tokens with a space between (no token holds a space).
 *
 * @param first - the first token.
 * @param second - the token that follows it.
 * @returns the key.
 */
export function pairKey(first: string, second: string): string {
  return `${first} ${second}`;
}

/**
 * Whether a row's key is a pair's (`pairKey`): it holds a space and is not a whole heading's
 * (`headingKey`, whose words are joined by spaces after `HEADING_KEY_MARK`).
 *
 * @param key - a row's key.
 * @returns whether it names a pair.
 */
export function isPairKey(key: string): boolean {
  return !key.startsWith(HEADING_KEY_MARK) && key.includes(' ');
}

/**
 * A chunk's place in its page, as rows and stores name chunks: its index among its page's chunks,
 * times 2, plus 1 when it is a section's.
 *
 * @param chunks - the chunk table.
 * @param c - the chunk's number in it.
 * @returns the place.
 */
export function chunkPlace(chunks: ChunkTable, c: number): number {
  return (c - chunks.firstChunkOf[chunks.pageOf[c]!]!) * 2 + (chunks.sectionOf[c] === null ? 0 : 1);
}

/** The content postings of row `t` of `p`, as `CONTENT_STRIDE` numbers an entry. */
function contentOf(p: Postings, t: number, chunks: ChunkTable): number[] {
  const out: number[] = [];
  for (let i = p.start[t]!, end = p.start[t + 1]!; i < end; i++) {
    const c = p.docs[i]!;
    out.push(chunks.pageOf[c]!, chunkPlace(chunks, c), p.tfs[i]!, p.lengths[c]!);
  }
  return out;
}

/**
 * The rows of a built index: each term with its postings in every field, and each pair of adjacent
 * terms with its chunks. Deterministic: the same corpus gives the same rows in the same order.
 *
 * @param index - the index (`buildBm25fIndex`).
 * @param chunks - its chunk table.
 * @returns the statistics and the rows.
 */
export function termRowsOf(index: Bm25fIndex, chunks: ChunkTable): TermRows {
  const heads = new Map<number, { head: string; bigram: boolean }>();
  for (const [head, ids] of index.wordsByHead)
    for (const t of ids) heads.set(t, { head, bigram: false });
  for (const [head, ids] of index.bigramsByHead)
    for (const t of ids) heads.set(t, { head, bigram: true });
  const rows: TermRow[] = [];
  for (let t = 0; t < index.termList.length; t++) {
    const fields: number[][] = [];
    for (let f = 1; f < FIELD_COUNT; f++) {
      const p = index.fields[f]!;
      const out: number[] = [];
      for (let i = p.start[t]!, end = p.start[t + 1]!; i < end; i++) {
        const page = p.docs[i]!;
        out.push(page, p.tfs[i]!, p.lengths[page]!);
      }
      fields.push(out);
    }
    const head = heads.get(t);
    rows.push({
      key: index.termList[t]!,
      ordinal: t,
      pair: false,
      head: head?.head ?? null,
      bigram: head?.bigram ?? false,
      frequency: index.pageFrequency[t]!,
      content: contentOf(index.fields[CONTENT]!, t, chunks),
      fields,
    });
  }
  const pairs: TermRow[] = [];
  const noFields = Array.from({ length: FIELD_COUNT - 1 }, () => [] as number[]);
  index.pairs.forEach((a, b, q) => {
    pairs[q] = {
      key: pairKey(index.termList[a]!, index.termList[b]!),
      ordinal: q,
      pair: true,
      head: null,
      bigram: false,
      frequency: index.pairFrequency[q]!,
      content: contentOf(index.pairPostings, q, chunks),
      fields: noFields,
    };
  });
  // One by one: a spread of hundreds of thousands of pairs overflows the call stack.
  for (const pair of pairs) rows.push(pair);
  return {
    stats: {
      format: TERM_ROWS_FORMAT,
      pageCount: index.pageCount,
      chunkCount: index.chunkCount,
      meanLengths: index.fields.map((p) => p.meanLength),
    },
    rows,
  };
}
