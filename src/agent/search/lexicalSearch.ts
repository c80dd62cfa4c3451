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
 * Chosen on the `tune` half of the search-quality bench (docs/search-tuning.md).
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
  /** Page → its chunks' three best parts (`best`, `second`, `third`). */
  readonly best: Float64Array;
  readonly second: Float64Array;
  readonly third: Float64Array;
  /** Page → its best chunk, or -1 before one is folded. */
  readonly bestChunk: Int32Array;
  /** Page → its chunks counted (at most 3) and its sections kept (at most 3). */
  readonly chunkCount: Uint8Array;
  readonly sectionCount: Uint8Array;
  /** Page → its three best sections (chunk numbers) and their parts, best first. */
  readonly section: Int32Array;
  readonly sectionScore: Float64Array;
  /** The touched chunks, in the order first touched, then sorted. */
  readonly chunkList: Int32Array;
  /** The touched pages, in the order first touched. */
  readonly pageList: Int32Array;
  /** The pages the current term's file fields touch. */
  readonly termPageList: Int32Array;
  /** The pages found (score above 0), and room to sort them in (`sortPages`). */
  readonly keptList: Int32Array;
  readonly sortBuffer: Int32Array;
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
      best: new Float64Array(pages),
      second: new Float64Array(pages),
      third: new Float64Array(pages),
      bestChunk: new Int32Array(pages).fill(-1),
      chunkCount: new Uint8Array(pages),
      sectionCount: new Uint8Array(pages),
      section: new Int32Array(3 * pages),
      sectionScore: new Float64Array(3 * pages),
      chunkList: new Int32Array(index.chunkCount),
      pageList: new Int32Array(pages),
      termPageList: new Int32Array(pages),
      keptList: new Int32Array(pages),
      sortBuffer: new Int32Array(pages),
    };
    scratches.set(index, s);
  }
  return s;
}

/** `log(1 + (N − df + 0.5) / (df + 0.5))`: BM25's inverse document frequency, always positive. */
function idf(pages: number, df: number): number {
  return Math.log(1 + (pages - df + 0.5) / (df + 0.5));
}

/**
 * A page found, as the search leaves it: its score and best chunk, the rest (its sections, the terms
 * its excerpt is placed by) made when first read, since a search shows only a page of its hits. One
 * number field is a double (`score`), so a page found costs one small object.
 */
class FoundPage implements LexicalFile {
  readonly page: number;
  readonly score: number;
  readonly bestChunk: number;
  readonly bestAt: number;
  readonly chunks: number;
  readonly fields: readonly MatchedField[];
  /** Sections kept (at most 3) and the three best, best first. */
  readonly #sections: number;
  readonly #section0: number;
  readonly #section1: number;
  readonly #section2: number;
  /** The best chunk's bits of `#excerptTerms` (see `chunkTerms`). */
  readonly #termBits: number;
  /** The query's excerpt terms (shared by the search's pages). */
  readonly #excerptTerms: readonly string[];
  #sectionChunks: readonly number[] | undefined;
  #bestTerms: readonly string[] | undefined;

  constructor(
    page: number,
    score: number,
    bestChunk: number,
    bestAt: number,
    chunks: number,
    fields: readonly MatchedField[],
    sections: Int32Array,
    sectionCount: number,
    termBits: number,
    excerptTerms: readonly string[],
  ) {
    this.page = page;
    this.score = score;
    this.bestChunk = bestChunk;
    this.bestAt = bestAt;
    this.chunks = chunks;
    this.fields = fields;
    this.#sections = sectionCount;
    this.#section0 = sectionCount > 0 ? sections[3 * page]! : -1;
    this.#section1 = sectionCount > 1 ? sections[3 * page + 1]! : -1;
    this.#section2 = sectionCount > 2 ? sections[3 * page + 2]! : -1;
    this.#termBits = termBits;
    this.#excerptTerms = excerptTerms;
  }

  /** Read only for the hits whose excerpt is shown, so computed then. */
  get bestTerms(): readonly string[] {
    if (this.#bestTerms === undefined) {
      const bits = this.#termBits;
      const terms = this.#excerptTerms;
      const found: string[] = [];
      for (let i = 0; i < terms.length; i++) if ((bits & (1 << i)) !== 0) found.push(terms[i]!);
      this.#bestTerms = this.chunks > 0 ? found : NO_TERMS;
    }
    return this.#bestTerms;
  }

  get sectionChunks(): readonly number[] {
    if (this.#sectionChunks === undefined) {
      const n = this.#sections;
      this.#sectionChunks =
        n === 0
          ? NO_CHUNKS
          : n === 1
            ? [this.#section0]
            : n === 2
              ? [this.#section0, this.#section1]
              : [this.#section0, this.#section1, this.#section2];
    }
    return this.#sectionChunks;
  }
}

/** Whether page `a` (score `sa`) ranks before page `b`: a higher score, or the same and a lower page. */
function precedes(a: number, sa: number, b: number, sb: number): boolean {
  return sa > sb || (sa === sb && a < b);
}

/** Runs sorted by insertion before they are merged. */
const RUN = 16;

/**
 * Sort the pages `list[0, n)` best first by `score[page]`, ties in page order: insertion-sorted runs
 * merged bottom up through `buffer`, reading the scores from a typed array rather than calling a
 * comparison function (which made a heap number per call and was a quarter of `lexicalSearch`'s
 * own time). Linear memory, no recursion.
 *
 * @param list - the pages; sorted in place, or read and left in any order.
 * @param buffer - room for `n` pages.
 * @param n - how many pages of `list` to sort.
 * @param score - each page's score, by page number.
 * @returns `list` or `buffer`, whichever holds the sorted pages.
 */
export function sortPages(
  list: Int32Array,
  buffer: Int32Array,
  n: number,
  score: Float64Array,
): Int32Array {
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const page = list[i]!;
      const s = score[page]!;
      let j = i - 1;
      while (j >= lo && precedes(page, s, list[j]!, score[list[j]!]!)) {
        list[j + 1] = list[j]!;
        j--;
      }
      list[j + 1] = page;
    }
  }
  let from = list;
  let to = buffer;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = from[i]!;
        const b = from[j]!;
        if (precedes(b, score[b]!, a, score[a]!)) {
          to[k++] = b;
          j++;
        } else {
          to[k++] = a;
          i++;
        }
      }
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
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
    best,
    second,
    third,
    bestChunk,
    chunkCount,
    sectionCount,
    section,
    sectionScore,
    chunkList,
    pageList,
    termPageList,
    keptList,
    sortBuffer,
  } = s;
  const { k1, weight, b, titleMatch, headingExact } = model;
  const headingCoverage = plan.cjk === true ? model.headingCoverage : 0;
  let exactHeading: Int32Array | undefined;
  let exactStart = 0;
  let exactEnd = 0;
  const lastField = fileFieldsOnly ? HEADINGS : FIELD_COUNT;
  const titles = index.fields[1]!;
  let queryMass = 0;
  let pageCount = 0;
  let touched = 0;
  let termPageCount = 0;
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
        if (chunkSeen[c] === 0) ((chunkSeen[c] = 1), (chunkList[touched++] = c));
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
        if (termSeen[page] === 0) ((termSeen[page] = 1), (termPageList[termPageCount++] = page));
        fieldTf[page]! += (wf * tfs[i]!) / (keep + (bf * lengths[page]!) / meanLength);
        fieldMask[page]! |= bit;
      }
      if (f === HEADINGS && headingCoverage > 0 && term.variant !== true)
        for (let i = p.start[t]!, end = p.start[t + 1]!; i < end; i++) headingMass[docs[i]!]! += w;
    }
    for (let k = 0; k < termPageCount; k++) {
      const page = termPageList[k]!;
      if (pageSlot[page] === 0) ((pageList[pageCount++] = page), (pageSlot[page] = pageCount));
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
        if (chunkSeen[c] === 0) ((chunkSeen[c] = 1), (chunkList[touched++] = c));
        const xy = x + y;
        chunkScore[c]! += w * ((xy * k1p1) / (k1 + xy) - (y * k1p1) / (k1 + y));
        // The chunk's first excerpt term (terms come rarest first): where it starts.
        if (bit !== 0 && chunkTerms[c] === 0)
          chunkFirst[c] = firsts === undefined ? -1 : firsts[i]!;
        chunkTerms[c]! |= bit;
      }
    }
    for (let k = 0; k < termPageCount; k++) {
      const page = termPageList[k]!;
      fieldTf[page] = 0;
      termSeen[page] = 0;
    }
    termPageCount = 0;
  }

  // Fold chunks into pages, in chunk order (so ties keep the earlier chunk): a typed sort of the
  // touched chunks, or a pass over the seen marks when they are many.
  if (touched > 1) {
    if (touched * 16 < index.chunkCount) chunkList.subarray(0, touched).sort();
    else for (let c = 0, k = 0; k < touched; c++) if (chunkSeen[c] !== 0) chunkList[k++] = c;
  }
  if (exactHeading !== undefined)
    for (let i = exactStart; i < exactEnd; i++) headingNamed[exactHeading[i]!] = 1;
  // Each page's three best chunks and three best sections; chunks arrive in ascending order, and an
  // equal score never displaces an earlier chunk.
  const sectionOf = chunks.sectionOf;
  for (let k = 0; k < touched; k++) {
    const c = chunkList[k]!;
    const page = pageOf[c]!;
    const score = chunkScore[c]!;
    if (pageSlot[page] === 0) ((pageList[pageCount++] = page), (pageSlot[page] = pageCount));
    const n = chunkCount[page]!;
    if (n === 0 || score > best[page]!) {
      third[page] = second[page]!;
      second[page] = best[page]!;
      best[page] = score;
      bestChunk[page] = c;
    } else if (n === 1 || score > second[page]!) {
      third[page] = second[page]!;
      second[page] = score;
    } else if (n === 2 || score > third[page]!) {
      third[page] = score;
    }
    if (n < 3) chunkCount[page] = n + 1;
    if (sectionOf[c] === null) continue;
    const m = sectionCount[page]!;
    const at = 3 * page;
    if (m === 0 || score > sectionScore[at]!) {
      section[at + 2] = section[at + 1]!;
      sectionScore[at + 2] = sectionScore[at + 1]!;
      section[at + 1] = section[at]!;
      sectionScore[at + 1] = sectionScore[at]!;
      section[at] = c;
      sectionScore[at] = score;
    } else if (m === 1 || score > sectionScore[at + 1]!) {
      section[at + 2] = section[at + 1]!;
      sectionScore[at + 2] = sectionScore[at + 1]!;
      section[at + 1] = c;
      sectionScore[at + 1] = score;
    } else if (m === 2 || score > sectionScore[at + 2]!) {
      section[at + 2] = c;
      sectionScore[at + 2] = score;
    }
    if (m < 3) sectionCount[page] = m + 1;
  }
  // Each page's score, kept in `fieldScore` (read no more).
  let kept = 0;
  for (let k = 0; k < pageCount; k++) {
    const page = pageList[k]!;
    let score = fieldScore[page]!;
    const mass = titleMass[page]!;
    let boost = 0;
    if (mass > 0 && titleMatch > 0) {
      const length = titles.lengths[page]!;
      const share = length > 0 ? Math.min(1, titleHits[page]! / length) : 0;
      // Every term a variant (no own weight): the title holds all of what the query weighs.
      boost = titleMatch * share * (queryMass > 0 ? Math.min(1, mass / queryMass) : 1);
    }
    const n = chunkCount[page]!;
    if (n > 0) {
      score += best[page]!;
      if (n > 1) score += CHUNK_SHARE * second[page]!;
      if (n > 2) score += CHUNK_SHARE * third[page]!;
    }
    if (headingNamed[page] === 1) boost += headingExact;
    const held = headingMass[page]!;
    if (held > 0 && queryMass > 0) {
      const coverage = Math.min(1, held / queryMass);
      boost += headingCoverage * coverage * coverage * coverage;
    }
    if (boost > 0) score *= 1 + boost;
    fieldScore[page] = score;
    if (score > 0) keptList[kept++] = page;
  }
  const ranked = sortPages(keptList, sortBuffer, kept, fieldScore);
  const files = new Array<FoundPage>(kept);
  for (let k = 0; k < kept; k++) {
    const page = ranked[k]!;
    const n = chunkCount[page]!;
    const chunk = bestChunk[page]!;
    const bits = n > 0 ? chunkTerms[chunk]! : 0;
    files[k] = new FoundPage(
      page,
      fieldScore[page]!,
      chunk,
      bits !== 0 ? chunkFirst[chunk]! : -1,
      n,
      FIELD_LISTS[fieldMask[page]! | (n > 0 ? CONTENT_BIT : 0)]!,
      section,
      sectionCount[page]!,
      bits,
      excerptTerms,
    );
  }
  if (exactHeading !== undefined)
    for (let i = exactStart; i < exactEnd; i++) headingNamed[exactHeading[i]!] = 0;
  for (let k = 0; k < touched; k++) {
    const c = chunkList[k]!;
    chunkScore[c] = 0;
    chunkTerms[c] = 0;
    chunkSeen[c] = 0;
  }
  for (let k = 0; k < pageCount; k++) {
    const page = pageList[k]!;
    fieldScore[page] = 0;
    fieldMask[page] = 0;
    titleMass[page] = 0;
    titleHits[page] = 0;
    headingMass[page] = 0;
    pageSlot[page] = 0;
    best[page] = 0;
    second[page] = 0;
    third[page] = 0;
    bestChunk[page] = -1;
    chunkCount[page] = 0;
    sectionCount[page] = 0;
  }
  return { files };
}
