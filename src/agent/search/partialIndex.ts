/**
 * A `Bm25fIndex` of one query's terms only, rebuilt from the rows a store returned (`termRows.ts`),
 * so that `planQuery` and `lexicalSearch` — the in-memory engine's own code — rank a store's pages.
 * Pages and chunks are numbered locally in the whole index's order, terms in term-number order, and
 * the corpus statistics come from the store: the scores, their order and their ties are those of the
 * whole index.
 */
import type { ChunkTable } from './buildChunks.js';
import { CONTENT, FIELD_COUNT, PairTable, type Postings, type Bm25fIndex } from './bm25fIndex.js';
import {
  CONTENT_STRIDE,
  FIELD_STRIDE,
  pairKey,
  type TermEntry,
  type TermRow,
  type TermStats,
} from './termRows.js';

/** A partial index and how its local numbers map back to the store's. */
export interface PartialIndex {
  readonly index: Bm25fIndex;
  /**
   * Its chunk table: `pageOf` and whether a chunk is a section's are set; `sectionOf` holds `''` for a
   * section until `fillChunk` gives the real ID, and `textOf` `''` until then.
   */
  readonly chunks: ChunkTable;
  /** Local page → the store's page number. */
  readonly pageNumbers: readonly number[];
  /** Local chunk → its place among its page's chunks. */
  readonly chunkPlaces: readonly number[];
  /** Give a local chunk its section ID and text (before hits read them). */
  fillChunk(chunk: number, sectionId: string | null, text: string): void;
  /** The local number of a store's chunk (page, chunk place without the section bit), if numbered. */
  chunkOf(page: number, place: number): number | undefined;
  /** The local number of a store's page, if numbered. */
  pageOf(page: number): number | undefined;
}

/** The term tokens of `entries` (not pairs) and their local numbers, in term-number order. */
function numberTerms(entries: readonly TermEntry[]): TermEntry[] {
  const byKey = new Map<string, TermEntry>();
  for (const e of entries) if (!e.pair) byKey.set(e.key, e);
  return [...byKey.values()].sort((a, b) => a.ordinal - b.ordinal);
}

/** Postings of local rows from packed entries: `docsOf(row)` yields (local entry, count) pairs. */
function layOut(
  rowCount: number,
  entriesOf: (row: number, push: (entry: number, tf: number) => void) => void,
  lengths: Float32Array,
  meanLength: number,
): Postings {
  const start = new Int32Array(rowCount + 1);
  const docs: number[] = [];
  const tfs: number[] = [];
  for (let r = 0; r < rowCount; r++) {
    start[r] = docs.length;
    entriesOf(r, (entry, tf) => {
      docs.push(entry);
      tfs.push(tf);
    });
  }
  start[rowCount] = docs.length;
  return { start, docs: Int32Array.from(docs), tfs: Uint16Array.from(tfs), lengths, meanLength };
}

/**
 * Build the partial index of a query.
 *
 * @param stats - the store's corpus statistics.
 * @param entries - the dictionary entries the query needs (its exact tokens, the words and bigrams
 *   under its heads, its pairs); with postings or not.
 * @param rows - the rows with postings, by key; an entry without a row has empty postings (it can
 *   still be planned, never scored).
 * @param extra - more chunks to number (page, then chunk place × 2 + 1 for a section's), such as
 *   those a semantic stage found; they hold no term.
 * @returns the index, its chunk table, and the maps back to the store's numbers.
 */
export function partialIndex(
  stats: TermStats,
  entries: readonly TermEntry[],
  rows: ReadonlyMap<string, TermRow>,
  extra: readonly (readonly [page: number, place: number])[] = [],
): PartialIndex {
  const terms = numberTerms(entries);
  const termNumber = new Map<string, number>(terms.map((e, i) => [e.key, i]));
  // The pairs whose two terms are numbered, in the pair table's order: by first term, then second.
  const pairEntries = [...new Map(entries.filter((e) => e.pair).map((e) => [e.key, e])).values()]
    .map((e) => {
      const space = e.key.indexOf(' ');
      const first = termNumber.get(e.key.slice(0, space));
      const second = termNumber.get(e.key.slice(space + 1));
      return { e, first: first ?? -1, second: second ?? -1 };
    })
    .filter((p) => p.first !== -1 && p.second !== -1)
    .sort((x, y) => x.first - y.first || x.second - y.second);

  // Local pages and chunks, in the store's order.
  const pageSet = new Set<number>();
  const chunkKeys = new Map<number, Map<number, boolean>>();
  const addChunk = (page: number, place: number): void => {
    pageSet.add(page);
    let places = chunkKeys.get(page);
    if (places === undefined) chunkKeys.set(page, (places = new Map()));
    places.set(place >> 1, (place & 1) === 1);
  };
  const visit = (row: TermRow | undefined): void => {
    if (row === undefined) return;
    const c = row.content;
    for (let i = 0; i < c.length; i += CONTENT_STRIDE) addChunk(c[i]!, c[i + 1]!);
    for (const list of row.fields)
      for (let i = 0; i < list.length; i += FIELD_STRIDE) pageSet.add(list[i]!);
  };
  for (const e of terms) visit(rows.get(e.key));
  for (const p of pairEntries) visit(rows.get(p.e.key));
  for (const [page, place] of extra) addChunk(page, place);
  const pageNumbers = [...pageSet].sort((a, b) => a - b);
  const localPage = new Map<number, number>(pageNumbers.map((p, i) => [p, i]));
  const chunkPlaces: number[] = [];
  const chunkPage: number[] = [];
  const sectionOf: (string | null)[] = [];
  const localChunk = new Map<number, Map<number, number>>();
  for (const page of pageNumbers) {
    const places = chunkKeys.get(page);
    if (places === undefined) continue;
    const local = new Map<number, number>();
    localChunk.set(page, local);
    for (const place of [...places.keys()].sort((a, b) => a - b)) {
      local.set(place, chunkPlaces.length);
      chunkPlaces.push(place);
      chunkPage.push(localPage.get(page)!);
      sectionOf.push(places.get(place)! ? '' : null);
    }
  }

  const chunkLengths = new Float32Array(chunkPlaces.length);
  const fieldLengths = Array.from(
    { length: FIELD_COUNT - 1 },
    () => new Float32Array(pageNumbers.length),
  );
  const contentEntries =
    (row: TermRow | undefined) =>
    (_: number, push: (entry: number, tf: number) => void): void => {
      if (row === undefined) return;
      const c = row.content;
      for (let i = 0; i < c.length; i += CONTENT_STRIDE) {
        const chunk = localChunk.get(c[i]!)!.get(c[i + 1]! >> 1)!;
        chunkLengths[chunk] = c[i + 3]!;
        push(chunk, c[i + 2]!);
      }
    };
  const { meanLengths } = stats;
  const fields: Postings[] = [
    layOut(
      terms.length,
      (r, push) => contentEntries(rows.get(terms[r]!.key))(r, push),
      chunkLengths,
      meanLengths[CONTENT]!,
    ),
  ];
  for (let f = 1; f < FIELD_COUNT; f++) {
    const lengths = fieldLengths[f - 1]!;
    fields.push(
      layOut(
        terms.length,
        (r, push) => {
          const list = rows.get(terms[r]!.key)?.fields[f - 1] ?? [];
          for (let i = 0; i < list.length; i += FIELD_STRIDE) {
            const page = localPage.get(list[i]!)!;
            lengths[page] = list[i + 2]!;
            push(page, list[i + 1]!);
          }
        },
        lengths,
        meanLengths[f]!,
      ),
    );
  }
  const pairsOf = new Int32Array(terms.length);
  for (const p of pairEntries) pairsOf[p.first]!++;
  const pairs = new PairTable(
    pairsOf,
    Int32Array.from(pairEntries, (p) => p.second),
  );
  const pairPostings = layOut(
    pairEntries.length,
    (r, push) => contentEntries(rows.get(pairEntries[r]!.e.key))(r, push),
    chunkLengths,
    meanLengths[CONTENT]!,
  );

  const wordsByHead = new Map<string, number[]>();
  const bigramsByHead = new Map<string, number[]>();
  terms.forEach((e, t) => {
    if (e.head === null) return;
    const byHead = e.bigram ? bigramsByHead : wordsByHead;
    let list = byHead.get(e.head);
    if (list === undefined) byHead.set(e.head, (list = []));
    list.push(t);
  });

  const textOf: string[] = chunkPlaces.map(() => '');
  const index: Bm25fIndex = {
    terms: termNumber,
    termList: terms.map((e) => e.key),
    pageFrequency: Int32Array.from(terms, (e) => e.frequency),
    fields,
    pairs,
    pairPostings,
    pairFrequency: Int32Array.from(pairEntries, (p) => p.e.frequency),
    wordsByHead,
    bigramsByHead,
    pageCount: pageNumbers.length,
    chunkCount: chunkPlaces.length,
    corpusPageCount: stats.pageCount,
  };
  const chunks: ChunkTable = {
    pageOf: Int32Array.from(chunkPage),
    sectionOf,
    textOf,
    firstChunkOf: new Int32Array(pageNumbers.length).fill(-1),
    count: chunkPlaces.length,
  };
  return {
    index,
    chunks,
    pageNumbers,
    chunkPlaces,
    fillChunk(chunk, sectionId, text) {
      sectionOf[chunk] = sectionId;
      textOf[chunk] = text;
    },
    chunkOf: (page, place) => localChunk.get(page)?.get(place),
    pageOf: (page) => localPage.get(page),
  };
}

/**
 * A pair table that answers no pair and records the pairs asked for: `planQuery` run on a partial
 * index built with it names the pairs the query needs, to read before the real plan.
 */
export class PairRecorder extends PairTable {
  readonly #asked: [number, number][] = [];

  constructor() {
    super(new Int32Array(0), new Int32Array(0));
  }

  override get(a: number, b: number): number {
    this.#asked.push([a, b]);
    return -1;
  }

  /**
   * The keys of the pairs asked for.
   *
   * @param termList - the partial index's terms.
   * @returns their keys (`pairKey`), each once.
   */
  keys(termList: readonly string[]): string[] {
    return [...new Set(this.#asked.map(([a, b]) => pairKey(termList[a]!, termList[b]!)))];
  }
}
