import type { MatchedField } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import { planQuery } from './planQuery.js';
import { CONTENT, FIELD_COUNT, FILE_FIELDS, HEADINGS, type Bm25fIndex } from './bm25fIndex.js';

/** Share of the second and third best chunks of a page added to its best chunk's score. */
export const CHUNK_SHARE = 0.25;

/**
 * The one scoring model of sections and file fields (BM25F): a chunk is scored as one document made of
 * its own text and its page's title, path, description and tags, each field's term count
 * length-normalized against that field's mean, weighted, summed, and then saturated once per term.
 * Chosen on the `tune` half of the search-quality bench (docs/search.md).
 */
export interface FieldModel {
  /** BM25 saturation. */
  readonly k1: number;
  /** Weight per field: content, title, path, description, tags, headings. */
  readonly weight: readonly number[];
  /** Length normalization per field (0: none, 1: full). */
  readonly b: readonly number[];
  /**
   * Title match, outside the saturation: a page's score is multiplied by `1 + titleMatch × share ×
   * coverage`, where `share` is the part of its title's words the query's terms match (at most 1)
   * and `coverage` the part of the query's weight (query weight × inverse document frequency of its
   * own terms) its title holds. A page titled with what the query names gains up to `titleMatch`
   * times its score; a title that shares one word of a long question gains little. 0: none.
   */
  readonly titleMatch: number;
  /**
   * Exact heading match: a page with a heading that is the whole query (`headingKey`) has its score
   * multiplied by `1 + headingExact` (with the title and heading matches). 0: none.
   */
  readonly headingExact: number;
  /**
   * Heading coverage, for queries most of whose distinct tokens are CJK (`QueryPlan.cjk`): a page's
   * score is also multiplied by `1 + headingCoverage × coverage³`, `coverage` being the part of the
   * query's own weight (as for the title match) that the page's headings hold. A Chinese question's
   * bigrams gathered in one page's headings name that page's topic. 0: none.
   */
  readonly headingCoverage: number;
}

/** The field model in use. */
export const FIELD_MODEL: FieldModel = Object.freeze({
  k1: 3,
  weight: Object.freeze([1, 2, 1, 1, 1.5, 1]),
  b: Object.freeze([0.5, 0.75, 0.75, 0.75, 0.75, 0.75]),
  titleMatch: 2,
  headingExact: 1,
  headingCoverage: 2,
});

/** One page found lexically. */
export interface LexicalFile {
  readonly page: number;
  /**
   * Its file fields' part plus its best chunk's part plus `CHUNK_SHARE` × the next two chunks' parts,
   * times one plus its title match (`FieldModel.titleMatch`).
   */
  readonly score: number;
  /** Best matching chunk, or `-1` when only file fields matched. */
  readonly bestChunk: number;
  /** Tokens found in the best chunk, rarest first (to place its excerpt). */
  readonly bestTerms: readonly string[];
  /**
   * Where `bestTerms[0]` first starts in the best chunk's folded text (`Postings.firsts`), or `-1`
   * when the index does not record it. Optional: a `LexicalFile` made elsewhere may leave it out.
   */
  readonly bestAt?: number;
  /** Chunks counted into the score (at most 3). */
  readonly chunks: number;
  /** Up to 3 best-matching chunks that are sections, best first. */
  readonly sectionChunks: readonly number[];
  /** Matched fields, in `matchedFields` order (shared, frozen lists). */
  readonly fields: readonly MatchedField[];
}

/** Pages found lexically, best first. */
export interface LexicalResult {
  readonly files: readonly LexicalFile[];
}

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
const NO_TERMS: readonly string[] = Object.freeze([]);

/** Bits of `chunkTerms`: the first 31 excerpt terms (rarest first). */
const TERM_BITS = 31;

/** Scratch arrays of one index, reused by every search (searches are synchronous). */
interface Scratch {
  /** Page → summed, weighted, normalized file-field count of the current term. */
  readonly fieldTf: Float64Array;
  /** Page → file-field part of its score. */
  readonly fieldScore: Float64Array;
  /** Page → matched file fields (bits in `FILE_FIELDS` order). */
  readonly fieldMask: Int32Array;
  /** Page → weight of the query terms its title holds. */
  readonly titleMass: Float64Array;
  /** Page → title words the query's terms match. */
  readonly titleHits: Float64Array;
  /** Page → 1 when one of its headings is the whole query. */
  readonly headingNamed: Uint8Array;
  /** Page → weight of the query terms its headings hold. */
  readonly headingMass: Float64Array;
  /** Page → 1 + its place in the touched list. */
  readonly pageSlot: Int32Array;
  /** Chunk → its content part. */
  readonly chunkScore: Float64Array;
  /** Chunk → bits of the excerpt terms it holds. */
  readonly chunkTerms: Int32Array;
  /** Chunk → 1 once touched by this search. */
  readonly chunkSeen: Uint8Array;
  /** Chunk → where its first excerpt term (its lowest `chunkTerms` bit) first starts, or -1. */
  readonly chunkFirst: Int32Array;
  /** Page → 1 once touched by the current term's file fields. */
  readonly termSeen: Uint8Array;
  /** Page → its tally during a search (`undefined` outside one). */
  readonly tallyOf: (Tally | undefined)[];
  /** Room to sort the touched chunks in. */
  readonly order: Int32Array;
}

const scratches = new WeakMap<Bm25fIndex, Scratch>();

function scratchOf(index: Bm25fIndex): Scratch {
  let s = scratches.get(index);
  if (s === undefined) {
    const pages = index.pageCount;
    s = {
      fieldTf: new Float64Array(pages),
      fieldScore: new Float64Array(pages),
      fieldMask: new Int32Array(pages),
      titleMass: new Float64Array(pages),
      titleHits: new Float64Array(pages),
      headingNamed: new Uint8Array(pages),
      headingMass: new Float64Array(pages),
      pageSlot: new Int32Array(pages),
      chunkScore: new Float64Array(index.chunkCount),
      chunkTerms: new Int32Array(index.chunkCount),
      chunkSeen: new Uint8Array(index.chunkCount),
      chunkFirst: new Int32Array(index.chunkCount),
      termSeen: new Uint8Array(pages),
      tallyOf: new Array<Tally | undefined>(pages).fill(undefined),
      order: new Int32Array(index.chunkCount),
    };
    scratches.set(index, s);
  }
  return s;
}

/** `log(1 + (N − df + 0.5) / (df + 0.5))`: BM25's inverse document frequency, always positive. */
function idf(pages: number, df: number): number {
  return Math.log(1 + (pages - df + 0.5) / (df + 0.5));
}

/** A page's running tally: its best chunks and sections. */
class Tally implements LexicalFile {
  readonly page: number;
  score = 0;
  bestChunk = -1;
  bestAt = -1;
  chunks = 0;
  fields: readonly MatchedField[] = FIELD_LISTS[0]!;
  best = 0;
  second = 0;
  third = 0;
  sections = 0;
  section0 = -1;
  section1 = -1;
  section2 = -1;
  sectionScore0 = 0;
  sectionScore1 = 0;
  sectionScore2 = 0;
  #sectionChunks: readonly number[] | undefined;
  /** The best chunk's bits of `#excerptTerms` (see `chunkTerms`). */
  termBits = 0;
  #excerptTerms: readonly string[] = NO_TERMS;
  #bestTerms: readonly string[] | undefined;

  constructor(page: number) {
    this.page = page;
  }

  /** Read only for the hits whose excerpt is shown, so computed then. */
  get bestTerms(): readonly string[] {
    if (this.#bestTerms === undefined) {
      const bits = this.termBits;
      const terms = this.#excerptTerms;
      const found: string[] = [];
      for (let i = 0; i < terms.length; i++) if ((bits & (1 << i)) !== 0) found.push(terms[i]!);
      this.#bestTerms = this.chunks > 0 ? found : NO_TERMS;
    }
    return this.#bestTerms;
  }

  /** The query's excerpt terms (shared by the search's tallies). */
  set excerptTerms(terms: readonly string[]) {
    this.#excerptTerms = terms;
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

  /** Chunks arrive in ascending order; an equal score never displaces an earlier chunk. */
  addChunk(chunk: number, score: number, section: boolean): void {
    const n = this.chunks;
    if (n === 0 || score > this.best) {
      this.third = this.second;
      this.second = this.best;
      this.best = score;
      this.bestChunk = chunk;
    } else if (n === 1 || score > this.second) {
      this.third = this.second;
      this.second = score;
    } else if (n === 2 || score > this.third) {
      this.third = score;
    }
    if (n < 3) this.chunks = n + 1;
    if (!section) return;
    const m = this.sections;
    if (m === 0 || score > this.sectionScore0) {
      this.section2 = this.section1;
      this.sectionScore2 = this.sectionScore1;
      this.section1 = this.section0;
      this.sectionScore1 = this.sectionScore0;
      this.section0 = chunk;
      this.sectionScore0 = score;
    } else if (m === 1 || score > this.sectionScore1) {
      this.section2 = this.section1;
      this.sectionScore2 = this.sectionScore1;
      this.section1 = chunk;
      this.sectionScore1 = score;
    } else if (m === 2 || score > this.sectionScore2) {
      this.section2 = chunk;
      this.sectionScore2 = score;
    }
    if (m < 3) this.sections = m + 1;
  }
}

/**
 * Run a query on the static index (file fields only in `file` mode) and score pages by one BM25F
 * model: each chunk is a document of its own text plus its page's file fields, so a page's title
 * words and its sections' words saturate together rather than add up from two indexes with their own
 * statistics. A page scores its file-field part plus its best chunk's part plus a quarter of its next
 * two chunks' parts, times one plus its title match (a title made of what the query names). Linear in the postings the query's terms read.
 *
 * @param index - the static index.
 * @param chunks - the chunk table.
 * @param query - the query text.
 * @param fileFieldsOnly - `file` mode.
 * @param model - the field model (the bench tries others).
 * @returns pages by descending score, ties in path order.
 */
export function lexicalSearch(
  index: Bm25fIndex,
  chunks: ChunkTable,
  query: string,
  fileFieldsOnly: boolean,
  model: FieldModel = FIELD_MODEL,
  plan = planQuery(query, index),
): LexicalResult {
  const s = scratchOf(index);
  const {
    fieldTf,
    fieldScore,
    fieldMask,
    titleMass,
    titleHits,
    headingNamed,
    headingMass,
    pageSlot,
    chunkScore,
    chunkTerms,
    chunkSeen,
    chunkFirst,
    termSeen,
    tallyOf,
    order,
  } = s;
  const { k1, weight, b, titleMatch, headingExact } = model;
  const headingCoverage = plan.cjk === true ? model.headingCoverage : 0;
  let exactHeading: Int32Array | undefined;
  let exactStart = 0;
  let exactEnd = 0;
  const lastField = fileFieldsOnly ? HEADINGS : FIELD_COUNT;
  const titles = index.fields[1]!;
  let queryMass = 0;
  const pages: number[] = [];
  const touchedChunks: number[] = [];
  const termPages: number[] = [];
  const excerptTerms: string[] = [];
  const N = index.corpusPageCount ?? index.pageCount;
  // BM25's saturation `x (k1 + 1) / (k1 + x)` and each field's length normalization
  // `1 − b + b × length / mean`, written out in the loops with their constants hoisted: the same
  // operations in the same order, so the same scores to the last bit.
  const k1p1 = k1 + 1;
  const content = index.fields[CONTENT]!;
  const contentWeight = weight[CONTENT]!;
  const pageOf = chunks.pageOf;

  for (const term of plan.terms) {
    const w = term.weight * idf(N, term.frequency);
    if (term.pair) {
      if (fileFieldsOnly) continue;
      const p = index.pairPostings;
      const { docs, tfs, lengths, meanLength } = p;
      const bf = b[CONTENT]!;
      const keep = 1 - bf;
      for (let i = p.start[term.id]!, end = p.start[term.id + 1]!; i < end; i++) {
        const c = docs[i]!;
        if (chunkSeen[c] === 0) ((chunkSeen[c] = 1), touchedChunks.push(c));
        const x = (contentWeight * tfs[i]!) / (keep + (bf * lengths[c]!) / meanLength);
        chunkScore[c]! += w * ((x * k1p1) / (k1 + x));
      }
      continue;
    }
    const t = term.id;
    if (term.heading === true) {
      if (fileFieldsOnly || headingExact <= 0) continue;
      const p = index.fields[HEADINGS]!;
      // Its pages hold the heading's words too, so they are scored by them.
      exactHeading = p.docs;
      exactStart = p.start[t]!;
      exactEnd = p.start[t + 1]!;
      continue;
    }
    if (term.variant !== true) queryMass += w;
    if (titleMatch > 0) {
      const { docs, tfs } = titles;
      for (let i = titles.start[t]!, end = titles.start[t + 1]!; i < end; i++) {
        const page = docs[i]!;
        titleMass[page]! += w;
        titleHits[page]! += tfs[i]!;
      }
    }
    for (let f = 1; f < lastField; f++) {
      const p = index.fields[f]!;
      const { docs, tfs, lengths, meanLength } = p;
      const bf = b[f]!;
      const keep = 1 - bf;
      const wf = weight[f]!;
      // The headings' bit is `CONTENT_BIT`: a heading is the page's text.
      const bit = 1 << (f - 1);
      for (let i = p.start[t]!, end = p.start[t + 1]!; i < end; i++) {
        const page = docs[i]!;
        if (termSeen[page] === 0) ((termSeen[page] = 1), termPages.push(page));
        fieldTf[page]! += (wf * tfs[i]!) / (keep + (bf * lengths[page]!) / meanLength);
        fieldMask[page]! |= bit;
      }
      if (f === HEADINGS && headingCoverage > 0 && term.variant !== true)
        for (let i = p.start[t]!, end = p.start[t + 1]!; i < end; i++) headingMass[docs[i]!]! += w;
    }
    for (const page of termPages) {
      if (pageSlot[page] === 0) (pages.push(page), (pageSlot[page] = pages.length));
      const x = fieldTf[page]!;
      fieldScore[page]! += w * ((x * k1p1) / (k1 + x));
    }
    if (!fileFieldsOnly) {
      const bit =
        excerptTerms.length < TERM_BITS && term.token !== '' ? 1 << excerptTerms.length : 0;
      if (bit !== 0) excerptTerms.push(term.token);
      const { docs, tfs, lengths, meanLength, firsts } = content;
      const bf = b[CONTENT]!;
      const keep = 1 - bf;
      for (let i = content.start[t]!, end = content.start[t + 1]!; i < end; i++) {
        const c = docs[i]!;
        const y = fieldTf[pageOf[c]!]!;
        const x = (contentWeight * tfs[i]!) / (keep + (bf * lengths[c]!) / meanLength);
        if (chunkSeen[c] === 0) ((chunkSeen[c] = 1), touchedChunks.push(c));
        const xy = x + y;
        chunkScore[c]! += w * ((xy * k1p1) / (k1 + xy) - (y * k1p1) / (k1 + y));
        // The chunk's first excerpt term (terms come rarest first): where it starts.
        if (bit !== 0 && chunkTerms[c] === 0)
          chunkFirst[c] = firsts === undefined ? -1 : firsts[i]!;
        chunkTerms[c]! |= bit;
      }
    }
    for (const page of termPages) ((fieldTf[page] = 0), (termSeen[page] = 0));
    termPages.length = 0;
  }

  // Fold chunks into pages, in chunk order (so ties keep the earlier chunk): a typed sort of the
  // touched chunks, or a pass over the seen marks when they are many.
  const touched = touchedChunks.length;
  let ordered: ArrayLike<number> = touchedChunks;
  if (touched > 1) {
    const sorted = order.subarray(0, touched);
    if (touched * 16 < index.chunkCount) {
      sorted.set(touchedChunks);
      sorted.sort();
    } else {
      for (let c = 0, k = 0; k < touched; c++) if (chunkSeen[c] !== 0) sorted[k++] = c;
    }
    ordered = sorted;
  }
  if (exactHeading !== undefined)
    for (let i = exactStart; i < exactEnd; i++) headingNamed[exactHeading[i]!] = 1;
  const tallies: Tally[] = [];
  const sectionOf = chunks.sectionOf;
  for (let k = 0; k < touched; k++) {
    const c = ordered[k]!;
    const page = pageOf[c]!;
    let tally = tallyOf[page];
    if (tally === undefined) tallies.push((tally = tallyOf[page] = new Tally(page)));
    tally.addChunk(c, chunkScore[c]!, sectionOf[c] !== null);
  }
  for (const page of pages)
    if (tallyOf[page] === undefined) tallies.push((tallyOf[page] = new Tally(page)));
  const files: Tally[] = [];
  for (const tally of tallies) {
    const page = tally.page;
    tallyOf[page] = undefined;
    let score = fieldScore[page]!;
    const mass = titleMass[page]!;
    let boost = 0;
    if (mass > 0 && titleMatch > 0) {
      const length = titles.lengths[page]!;
      const share = length > 0 ? Math.min(1, titleHits[page]! / length) : 0;
      // Every term a variant (no own weight): the title holds all of what the query weighs.
      boost = titleMatch * share * (queryMass > 0 ? Math.min(1, mass / queryMass) : 1);
    }
    if (tally.chunks > 0) {
      score += tally.best;
      if (tally.chunks > 1) score += CHUNK_SHARE * tally.second;
      if (tally.chunks > 2) score += CHUNK_SHARE * tally.third;
      const bits = chunkTerms[tally.bestChunk]!;
      tally.termBits = bits;
      tally.excerptTerms = excerptTerms;
      if (bits !== 0) tally.bestAt = chunkFirst[tally.bestChunk]!;
    }
    if (headingNamed[page] === 1) boost += headingExact;
    const held = headingMass[page]!;
    if (held > 0 && queryMass > 0) {
      const coverage = Math.min(1, held / queryMass);
      boost += headingCoverage * coverage * coverage * coverage;
    }
    if (boost > 0) score *= 1 + boost;
    tally.score = score;
    tally.fields = FIELD_LISTS[fieldMask[page]! | (tally.chunks > 0 ? CONTENT_BIT : 0)]!;
    if (score > 0) files.push(tally);
  }
  if (exactHeading !== undefined)
    for (let i = exactStart; i < exactEnd; i++) headingNamed[exactHeading[i]!] = 0;
  for (let k = 0; k < touched; k++) {
    const c = touchedChunks[k]!;
    chunkScore[c] = 0;
    chunkTerms[c] = 0;
    chunkSeen[c] = 0;
  }
  for (const page of pages) {
    fieldScore[page] = 0;
    fieldMask[page] = 0;
    titleMass[page] = 0;
    titleHits[page] = 0;
    headingMass[page] = 0;
    pageSlot[page] = 0;
  }
  files.sort((a, c) => c.score - a.score || a.page - c.page);
  return { files };
}
