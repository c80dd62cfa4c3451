import { fenceCloses, fenceOpenLength } from '../../markdown/fencedCode.js';
import type { ChunkTable } from './buildChunks.js';
import { fileNameKeys, headingKey, indexTokens } from './indexTokens.js';
import { createPacer } from './pace.js';
import type { SearchCorpusPage, SearchWarmProgress } from './port.js';

/** File fields searched in every mode, in `matchedFields` order. */
export const FILE_FIELDS = ['title', 'path', 'description', 'tags'] as const;

/** Field numbers of the index: 0 is a chunk's text, then the file fields in `FILE_FIELDS` order. */
export const CONTENT = 0;
/**
 * The field of a page's headings (every ATX heading line of its chunks, outside fenced code), after
 * the file fields: page-level like them, but content (a match in it is a `content` match, and `file`
 * mode does not search it). Beside their words it holds each heading whole, and the page's file name
 * without its extension and each run of two or more of its words (`fileNameKeys`), each as one term
 * (`headingKey`), not counted in its length.
 */
export const HEADINGS = 1 + FILE_FIELDS.length;
/** Fields of the index (content, the four file fields, then the headings). */
export const FIELD_COUNT = 2 + FILE_FIELDS.length;

/**
 * Postings of one field in compressed rows: term `t`'s entries are `docs[start[t] … start[t + 1])`
 * (chunk numbers for content, page numbers for file fields, ascending) with their counts in `tfs`.
 */
export interface Postings {
  readonly start: Int32Array;
  readonly docs: Int32Array;
  readonly tfs: Uint16Array;
  /** Tokens of each entry (chunk or page) in this field. */
  readonly lengths: Float32Array;
  /** Mean of `lengths` over entries with any token (1 when none has). */
  readonly meanLength: number;
  /**
   * Content postings only, optional: where the term first starts in the entry's folded text
   * (`foldText`, code units), beside `docs`. Places an excerpt without searching the chunk; an index
   * without it (a partial one) has excerpts found by searching.
   */
  readonly firsts?: Int32Array;
}

/**
 * The static index of a frozen corpus: a term dictionary and, per field, postings in typed arrays.
 * Built once (`buildBm25fIndex`), never changed: a new catalog is a new index.
 */
export interface Bm25fIndex {
  /** Term → term number. Terms are `indexTokens`'s tokens. */
  readonly terms: ReadonlyMap<string, number>;
  /** Term number → term. */
  readonly termList: readonly string[];
  /** Term number → pages holding it in any field (its document frequency, pages being documents). */
  readonly pageFrequency: Int32Array;
  /** Per field (`CONTENT`, then file fields), the postings. */
  readonly fields: readonly Postings[];
  /** Adjacent word pairs of chunk texts: (first term, second term) → pair number. */
  readonly pairs: PairTable;
  /** Postings of the pairs (chunks), and their page frequency. */
  readonly pairPostings: Postings;
  readonly pairFrequency: Int32Array;
  /** Words (not CJK, not compounds) by their first two code units, for prefix and fuzzy lookups. */
  readonly wordsByHead: ReadonlyMap<string, readonly number[]>;
  /** CJK bigrams by their first character, for one-character queries. */
  readonly bigramsByHead: ReadonlyMap<string, readonly number[]>;
  readonly pageCount: number;
  readonly chunkCount: number;
  /**
   * Pages of the whole corpus, for the inverse document frequency, when this index holds only some of
   * them (a partial index of one query's terms, `partialIndex.ts`); `pageCount` otherwise.
   */
  readonly corpusPageCount?: number;
}

/**
 * Ordered pairs of term numbers → pair number, the pairs numbered in order of first term then second
 * term: `firstStart[a] … firstStart[a + 1]` are the numbers of the pairs whose first term is `a`, and
 * `second[q]` is pair `q`'s second term, ascending within each first term. A lookup is a binary search
 * in one first term's pairs. Built from pairs already in that order (`buildBm25fIndex` sorts the pair
 * occurrences it reads; a partial index sorts its pairs), never changed.
 */
export class PairTable {
  readonly #firstStart: Int32Array;
  readonly #second: Int32Array;

  /**
   * @param pairsOf - per term `a`, how many pairs have `a` as their first term (a term past its end
   *   has none).
   * @param second - per pair, its second term: the pairs of term 0, then of term 1, …, each term's
   *   ascending.
   */
  constructor(pairsOf: Int32Array, second: Int32Array) {
    const starts = new Int32Array(pairsOf.length + 1);
    for (let a = 0; a < pairsOf.length; a++) starts[a + 1] = starts[a]! + pairsOf[a]!;
    this.#firstStart = starts;
    this.#second = second;
  }

  /** Pairs held. */
  get size(): number {
    return this.#second.length;
  }

  /** The pair number of `(a, b)`, or `-1`. */
  get(a: number, b: number): number {
    const starts = this.#firstStart;
    if (a < 0 || a + 1 >= starts.length) return -1;
    let lo = starts[a]!;
    let hi = starts[a + 1]!;
    const second = this.#second;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = second[mid]!;
      if (v === b) return mid;
      if (v < b) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Calls `fn(first, second, pair)` for every pair held, in pair-number order. */
  forEach(fn: (first: number, second: number, pair: number) => void): void {
    const starts = this.#firstStart;
    for (let a = 0; a + 1 < starts.length; a++)
      for (let q = starts[a]!; q < starts[a + 1]!; q++) fn(a, this.#second[q]!, q);
  }
}

/**
 * The places of a stable counting sort: `to[i]` is where item `i` goes when the items are ordered by
 * the digit `(key[i] >>> shift) & mask`, equal digits in their order. On return, `ends[d]` is where
 * digit `d`'s items end, and so where digit `d + 1`'s start. Small and called for every field and
 * every pass, so that the engine optimizes it early in a process's first build (a loop run once per
 * build runs unoptimized for a while).
 *
 * @param key - the items' keys.
 * @param n - items.
 * @param shift - the digit's first bit.
 * @param mask - the digit's bits (a power of two less one).
 * @param ends - at least `mask + 2` entries, overwritten.
 * @param to - at least `n` entries: the places.
 */
function countingSortPlaces(
  key: Int32Array,
  n: number,
  shift: number,
  mask: number,
  ends: Int32Array,
  to: Int32Array,
): void {
  ends.fill(0, 0, mask + 2);
  countDigits(key, n, shift, mask, ends);
  sumDigits(ends, mask);
  placeDigits(key, n, shift, mask, ends, to);
}

// The three loops of `countingSortPlaces`, a function each: the engine compiles a long loop while it
// runs (on-stack replacement), and a loop after it in the same function, not yet run in that call,
// has no type feedback, so the compiled code was thrown away on reaching it (sixteen times in a
// process's first builds, `--trace-deopt`).

/** `ends[digit + 1]` counts the items of each digit. */
function countDigits(
  key: Int32Array,
  n: number,
  shift: number,
  mask: number,
  ends: Int32Array,
): void {
  for (let i = 0; i < n; i++) ends[((key[i]! >>> shift) & mask) + 1]!++;
}

/** The counts of `countDigits` summed: `ends[d]` is where digit `d`'s items start. */
function sumDigits(ends: Int32Array, mask: number): void {
  for (let d = 0; d <= mask; d++) ends[d + 1]! += ends[d]!;
}

/** Each item's place, `ends[d]` moving to where digit `d`'s items end. */
function placeDigits(
  key: Int32Array,
  n: number,
  shift: number,
  mask: number,
  ends: Int32Array,
  to: Int32Array,
): void {
  for (let i = 0; i < n; i++) to[i] = ends[(key[i]! >>> shift) & mask]!++;
}

/** `to[i]` of `countingSortPlaces`: `into[to[i]] = from[i]` for the first `n` items. */
function permute(from: Int32Array, into: Int32Array, to: Int32Array, n: number): void;
function permute(from: Uint16Array, into: Uint16Array, to: Int32Array, n: number): void;
function permute(
  from: Int32Array | Uint16Array,
  into: Int32Array | Uint16Array,
  to: Int32Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) into[to[i]!] = from[i]!;
}

/** The mask of the fewest bits that hold every number below `count` (at least one bit). */
function maskBelow(count: number): number {
  const bits = Math.max(1, 32 - Math.clz32(Math.max(1, count - 1)));
  return bits >= 31 ? 0x7fffffff : (1 << bits) - 1;
}

/**
 * Sort pair occurrences by first term, then second term, keeping their order (and so their chunks
 * ascending) among equal pairs: stable counting sorts (`countingSortPlaces`), least significant
 * digit first (the second term's digits, then the first's). A digit is up to 16 bits, so terms up to
 * 2¹⁶ take one pass per term and more take two. Linear in the occurrences; the buffers are swapped,
 * not copied.
 *
 * @param n - occurrences held.
 * @param buffers - first terms, second terms and chunks of the occurrences, and three scratch
 *   arrays, each of at least `n` entries.
 * @param termCount - term numbers are below it.
 * @returns the sorted first terms, second terms and chunks (some of the given arrays), and the other
 *   three given arrays (free to reuse).
 * @internal exported for its tests.
 */
export function sortPairOccurrences(
  n: number,
  buffers: {
    a: Int32Array;
    b: Int32Array;
    c: Int32Array;
    a2: Int32Array;
    b2: Int32Array;
    c2: Int32Array;
  },
  termCount: number,
): { a: Int32Array; b: Int32Array; c: Int32Array; free: [Int32Array, Int32Array, Int32Array] } {
  let { a, b, c, a2, b2, c2 } = buffers;
  const bits = 32 - Math.clz32(maskBelow(termCount));
  const digitBits = bits <= 16 ? bits : Math.ceil(bits / 2);
  const mask = (1 << digitBits) - 1;
  const ends = new Int32Array(mask + 2);
  const to = new Int32Array(n);
  for (const onFirst of [false, true])
    for (let shift = 0; shift < bits; shift += digitBits) {
      countingSortPlaces(onFirst ? a : b, n, shift, mask, ends, to);
      permute(a, a2, to, n);
      permute(b, b2, to, n);
      permute(c, c2, to, n);
      [a, a2] = [a2, a];
      [b, b2] = [b2, b];
      [c, c2] = [c2, c];
    }
  return { a, b, c, free: [a2, b2, c2] };
}

/** Growing (term, entry, count) triples of one field, laid out in rows by `freeze`. */
class Triples {
  term: Int32Array = new Int32Array(1024);
  doc: Int32Array = new Int32Array(1024);
  tf: Uint16Array = new Uint16Array(1024);
  /** First positions, when the field keeps them (content). */
  first: Int32Array | undefined;
  size = 0;

  constructor(firsts = false) {
    if (firsts) this.first = new Int32Array(1024);
  }

  push(term: number, doc: number, tf: number, first = 0): void {
    if (this.size === this.term.length) {
      const grow = <T extends Int32Array | Uint16Array>(a: T, b: T): T => {
        b.set(a);
        return b;
      };
      const n = this.size * 2;
      this.term = grow(this.term, new Int32Array(n));
      this.doc = grow(this.doc, new Int32Array(n));
      this.tf = grow(this.tf, new Uint16Array(n));
      if (this.first !== undefined) this.first = grow(this.first, new Int32Array(n));
    }
    this.term[this.size] = term;
    this.doc[this.size] = doc;
    this.tf[this.size] = tf > 0xffff ? 0xffff : tf;
    if (this.first !== undefined) this.first[this.size] = first;
    this.size++;
  }

  /** Rows by term (a counting sort, stable: entries stay ascending). */
  freeze(terms: number, lengths: Float32Array): Postings {
    const n = this.size;
    const mask = maskBelow(terms);
    const ends = new Int32Array(mask + 2);
    const to = new Int32Array(n);
    countingSortPlaces(this.term, n, 0, mask, ends, to);
    const start = new Int32Array(terms + 1);
    start.set(ends.subarray(0, terms), 1);
    const docs = new Int32Array(n);
    permute(this.doc, docs, to, n);
    const tfs = new Uint16Array(n);
    permute(this.tf, tfs, to, n);
    const meanLength = meanOf(lengths);
    if (this.first === undefined) return { start, docs, tfs, lengths, meanLength };
    const firsts = new Int32Array(n);
    permute(this.first, firsts, to, n);
    return { start, docs, tfs, lengths, meanLength, firsts };
  }
}

/** The mean of `lengths` over entries with any token (1 when none has). */
function meanOf(lengths: Float32Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < lengths.length; i++)
    if (lengths[i]! > 0) {
      sum += lengths[i]!;
      n++;
    }
  return n === 0 ? 1 : sum / n;
}

/**
 * The pair occurrences `(a[i], b[i], c[i])`, sorted by pair then chunk, grouped in one pass: per pair
 * (in `into.second`, `into.start` and `into.frequency`, and counted per first term in `into.pairsOf`)
 * and per pair and chunk (`into.docs`, `into.tfs`). A function of its own: the engine compiles the
 * loop while it runs, and the code after a loop in the same function, not yet run, would throw that
 * compiled code away (`--trace-deopt`).
 *
 * @returns how many pairs and how many (pair, chunk) entries were written.
 */
function groupPairs(
  n: number,
  a: Int32Array,
  b: Int32Array,
  c: Int32Array,
  pageOf: Int32Array,
  into: {
    readonly pairsOf: Int32Array;
    readonly second: Int32Array;
    readonly start: Int32Array;
    readonly docs: Int32Array;
    readonly tfs: Uint16Array;
    readonly frequency: Int32Array;
  },
): { pairCount: number; entryCount: number } {
  const { pairsOf, second, start, docs, tfs, frequency } = into;
  let q = -1;
  let e = -1;
  let lastPage = -1;
  for (let i = 0; i < n; i++) {
    const chunk = c[i]!;
    if (i === 0 || a[i] !== a[i - 1] || b[i] !== b[i - 1]) {
      q++;
      pairsOf[a[i]!]!++;
      second[q] = b[i]!;
      start[q] = e + 1;
      lastPage = -1;
    } else if (chunk === c[i - 1]) {
      if (tfs[e]! < 0xffff) tfs[e]!++;
      continue;
    }
    e++;
    docs[e] = chunk;
    tfs[e] = 1;
    const page = pageOf[chunk]!;
    if (page !== lastPage) {
      lastPage = page;
      frequency[q]!++;
    }
  }
  return { pairCount: q + 1, entryCount: e + 1 };
}

/**
 * The pair table and pair postings of every pair occurrence read, in chunk order: sorted by pair
 * (`sortPairOccurrences`), then counted in one pass (a pair's chunks ascending, its count in a chunk
 * capped at 65,535 as other counts are, its page frequency the pages of those chunks).
 *
 * @param n - occurrences held.
 * @param held - first terms, second terms and chunks of the occurrences (sorted in place, then
 *   reused as scratch).
 * @param termCount - the index's terms.
 * @param pageOf - chunk → page.
 * @param lengths - the chunks' lengths (content tokens).
 * @returns the pairs, their postings and their page frequencies.
 */
function pairPostingsOf(
  n: number,
  held: { a: Int32Array; b: Int32Array; c: Int32Array },
  termCount: number,
  pageOf: Int32Array,
  lengths: Float32Array,
): { pairs: PairTable; pairPostings: Postings; pairFrequency: Int32Array } {
  const { a, b, c, free } = sortPairOccurrences(
    n,
    { ...held, a2: new Int32Array(n), b2: new Int32Array(n), c2: new Int32Array(n) },
    termCount,
  );
  // One pass, into arrays of one slot per occurrence (as many as there can be pairs or entries:
  // the sort's free buffers, and two more), then copied out at their sizes.
  const pairsOf = new Int32Array(termCount);
  const [secondAll, startAll, docsAll] = free;
  const frequencyAll = new Int32Array(n);
  const tfsAll = new Uint16Array(n);
  const { pairCount, entryCount } = groupPairs(n, a, b, c, pageOf, {
    pairsOf,
    second: secondAll,
    start: startAll,
    docs: docsAll,
    tfs: tfsAll,
    frequency: frequencyAll,
  });
  const second = secondAll.slice(0, pairCount);
  const start = new Int32Array(pairCount + 1);
  start.set(startAll.subarray(0, pairCount));
  const frequency = frequencyAll.slice(0, pairCount);
  const docs = docsAll.slice(0, entryCount);
  const tfs = tfsAll.slice(0, entryCount);
  start[pairCount] = entryCount;
  return {
    pairs: new PairTable(pairsOf, second),
    pairPostings: { start, docs, tfs, lengths, meanLength: meanOf(lengths) },
    pairFrequency: frequency,
  };
}

/**
 * The headings of a chunk's Markdown text, one a line: each ATX heading line (up to three spaces,
 * one to six `#`, then a space, a tab or the line's end) outside fenced code (three or more backticks
 * or tildes, closed by a run of the same character at least as long), without its opening marks and
 * its `{#id}` (closing `#`s stay: they are no token). Setext headings and headings inside block
 * quotes or lists are not seen. Linear in the text: each line is read once, and what is looked for
 * in a line (a backtick after a fence's marks, a `{#`) is looked for within that line only
 * (`indexOf` and `charCodeAt`, no regular expression).
 *
 * @param text - a chunk's text.
 * @returns the headings' texts joined by line breaks, `''` when it has none.
 */
export function headingLines(text: string): string {
  let out = '';
  let fenceChar = 0;
  let fenceLength = 0;
  for (let at = 0; at < text.length;) {
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    let i = at;
    while (i < end && i - at < 3 && text.charCodeAt(i) === 32) i++;
    const c = text.charCodeAt(i);
    if (c === 96 || c === 126) {
      let n = i;
      while (n < end && text.charCodeAt(n) === c) n++;
      if (n - i >= 3) {
        if (fenceChar === 0) {
          // A backtick fence's info string holds no backtick (`fenceOpenLength` is 0 then).
          if (fenceOpenLength(text, i, end, c) > 0) ((fenceChar = c), (fenceLength = n - i));
        } else if (
          c === fenceChar &&
          // Only spaces and tabs after the marks (CommonMark), before a CRLF file's `\r`.
          fenceCloses(text, i, text.charCodeAt(end - 1) === 13 ? end - 1 : end, c, fenceLength)
        )
          fenceChar = 0;
      }
    } else if (c === 35 && fenceChar === 0) {
      let n = i;
      while (n < end && text.charCodeAt(n) === 35) n++;
      const next = text.charCodeAt(n);
      if (n - i <= 6 && (n === end || next === 32 || next === 9 || next === 13)) {
        let to = end;
        // The line's last `{#` after the marks (searched within the line only).
        let brace = end - 2;
        while (brace > n && (text.charCodeAt(brace) !== 123 || text.charCodeAt(brace + 1) !== 35))
          brace--;
        if (brace > n && text.slice(brace, to).trimEnd().endsWith('}')) to = brace;
        out += (out === '' ? '' : '\n') + text.slice(n, to);
      }
    }
    at = end + 1;
  }
  return out;
}

/** The text of file field `f` (1–4) of a page. */
function fieldText(page: SearchCorpusPage, f: number): string {
  switch (f) {
    case 1:
      return page.title;
    case 2:
      return page.path;
    case 3:
      return page.description ?? '';
    default:
      return page.tags.join('\n');
  }
}

/**
 * Build the static index of a chunk table and its pages: one pass over every text with
 * `indexTokens`, counts per entry, then postings laid out by a counting sort. Built in slices that
 * yield to the event loop (`createPacer`), so timers, aborts and other calls stay live during a long
 * build.
 *
 * @param chunks - the chunk table.
 * @param pages - the pages, in path order.
 * @param signal - stops the build between entries.
 * @param onProgress - called at each yield with the pages indexed so far, of all pages.
 * @returns the index.
 * @throws the signal's reason when it aborts.
 */
export async function buildBm25fIndex(
  chunks: ChunkTable,
  pages: readonly SearchCorpusPage[],
  signal?: AbortSignal,
  onProgress?: (progress: SearchWarmProgress) => void,
): Promise<Bm25fIndex> {
  const terms = new Map<string, number>();
  const termList: string[] = [];
  const wordsByHead = new Map<string, number[]>();
  const bigramsByHead = new Map<string, number[]>();
  const pageFrequency: number[] = [];
  const lastPage: number[] = [];

  const triples = Array.from({ length: FIELD_COUNT }, (_, f) => new Triples(f === CONTENT));
  const lengths = [
    new Float32Array(chunks.count),
    ...FILE_FIELDS.map(() => new Float32Array(pages.length)),
    new Float32Array(pages.length),
  ];

  // Per entry: term → count (and, for chunks, where it first starts), in growing arrays with the
  // touched terms listed.
  let counts = new Int32Array(4096);
  let firstAt = new Int32Array(4096);
  const touched: number[] = [];
  // Every pair occurrence in chunk order (first term, second term, chunk), sorted and counted once
  // all are read (`pairPostingsOf`): appending is cheaper than numbering each pair as it comes in a
  // hash table, which misses the cache on every lookup once it outgrows it (a quarter of the build).
  // Sized for a word per five characters; grown if short.
  let textChars = 0;
  for (let k = 0; k < chunks.count; k++) textChars += chunks.textOf[k]!.length;
  let pairA = new Int32Array(Math.max(1024, Math.ceil(textChars / 5)));
  let pairB = new Int32Array(pairA.length);
  let pairC = new Int32Array(pairA.length);
  let pairCount = 0;

  const termOf = (token: string, cjk: boolean, compound: boolean): number => {
    let t = terms.get(token);
    if (t === undefined) {
      t = termList.length;
      terms.set(token, t);
      termList.push(token);
      pageFrequency.push(0);
      lastPage.push(-1);
      if (t >= counts.length) {
        const grown = new Int32Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
        const grownFirst = new Int32Array(firstAt.length * 2);
        grownFirst.set(firstAt);
        firstAt = grownFirst;
      }
      const head = cjk ? token.slice(0, token.codePointAt(0)! > 0xffff ? 2 : 1) : token.slice(0, 2);
      const byHead = cjk ? (token.length > head.length ? bigramsByHead : undefined) : wordsByHead;
      if (byHead !== undefined && !compound) {
        let list = byHead.get(head);
        if (list === undefined) byHead.set(head, (list = []));
        list.push(t);
      }
    }
    return t;
  };

  const flush = (field: number, entry: number, page: number): void => {
    const out = triples[field]!;
    for (const t of touched) {
      out.push(t, entry, counts[t]!, firstAt[t]!);
      counts[t] = 0;
      if (lastPage[t] !== page) {
        lastPage[t] = page;
        pageFrequency[t] = pageFrequency[t]! + 1;
      }
    }
    touched.length = 0;
  };

  const pace = createPacer(signal);
  const total = pages.length;

  // Page by page (a page's chunks are contiguous, in page order), so that a term's page frequency
  // counts each page once, whether its file fields or its chunks hold it.
  const pageOf = chunks.pageOf;
  let c = 0;
  for (let p = 0; p < pages.length; p++) {
    for (let f = 1; f < FIELD_COUNT; f++) {
      let n = 0;
      let text: string;
      if (f === HEADINGS) {
        text = '';
        for (let k = c; k < chunks.count && pageOf[k] === p; k++) {
          const lines = headingLines(chunks.textOf[k]!);
          if (lines !== '') text += (text === '' ? '' : '\n') + lines;
        }
        // Each heading whole, as one more term (`headingKey`), not counted in the field's length.
        for (let at = 0; at < text.length;) {
          let end = text.indexOf('\n', at);
          if (end === -1) end = text.length;
          const key = headingKey(text.slice(at, end));
          if (key !== '') {
            const t = termOf(key, false, true);
            if ((counts[t] = counts[t]! + 1) === 1) touched.push(t);
          }
          at = end + 1;
        }
        // And the page's file name without its extension (`guide/i18n.md`: `i18n`), and each run of
        // two or more of its words (`setting-up-social-cards.md`: `social cards`), as headings.
        {
          const path = pages[p]!.path;
          const slash = path.lastIndexOf('/');
          const dot = path.lastIndexOf('.');
          const stem = path.slice(slash + 1, dot > slash + 1 ? dot : path.length);
          for (const key of fileNameKeys(stem)) {
            const t = termOf(key, false, true);
            if ((counts[t] = counts[t]! + 1) === 1) touched.push(t);
          }
        }
      } else text = fieldText(pages[p]!, f);
      indexTokens(text, (token, cjk, compound) => {
        const t = termOf(token, cjk, compound);
        if ((counts[t] = counts[t]! + 1) === 1) touched.push(t);
        if (!compound) n++;
      });
      lengths[f]![p] = n;
      flush(f, p, p);
    }
    for (; c < chunks.count && pageOf[c] === p; c++) {
      indexChunk(c);
      const paused = pace();
      if (paused !== undefined) {
        onProgress?.({ done: p, total });
        await paused;
      }
    }
    const paused = pace();
    if (paused !== undefined) {
      onProgress?.({ done: p + 1, total });
      await paused;
    }
  }

  function indexChunk(c: number): void {
    let n = 0;
    let previous = -1;
    // The CJK bigrams two and one places back, and where the last one started: a bigram and the one
    // two places after it (no overlap) make a pair, so a pair is four characters in a row.
    let cjkBack2 = -1;
    let cjkBack1 = -1;
    let cjkStart = -2;
    const page = pageOf[c]!;
    const addPair = (a: number, b: number): void => {
      if (pairCount === pairA.length) {
        const grow = (from: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
          const to = new Int32Array(from.length * 2);
          to.set(from);
          return to;
        };
        pairA = grow(pairA);
        pairB = grow(pairB);
        pairC = grow(pairC);
      }
      pairA[pairCount] = a;
      pairB[pairCount] = b;
      pairC[pairCount++] = c;
    };
    indexTokens(chunks.textOf[c]!, (token, cjk, compound, start) => {
      const t = termOf(token, cjk, compound);
      if ((counts[t] = counts[t]! + 1) === 1) {
        touched.push(t);
        firstAt[t] = start;
      }
      if (compound) return;
      n++;
      if (cjk) {
        previous = -1;
        if (start !== cjkStart + 1 && start !== cjkStart + 2) cjkBack2 = cjkBack1 = -1;
        if (cjkBack2 !== -1) addPair(cjkBack2, t);
        cjkBack2 = cjkBack1;
        cjkBack1 = t;
        cjkStart = start;
        return;
      }
      cjkBack2 = cjkBack1 = -1;
      if (previous !== -1) addPair(previous, t);
      previous = t;
    });
    lengths[CONTENT]![c] = n;
    flush(CONTENT, c, page);
  }

  const { pairs, pairPostings, pairFrequency } = pairPostingsOf(
    pairCount,
    { a: pairA, b: pairB, c: pairC },
    termList.length,
    pageOf,
    lengths[CONTENT]!,
  );
  // The occurrences are read: not held (the closures above keep these variables) while the
  // postings are laid out.
  pairA = pairB = pairC = new Int32Array(0);
  return {
    terms,
    termList,
    pageFrequency: Int32Array.from(pageFrequency),
    fields: triples.map((t, f) => t.freeze(termList.length, lengths[f]!)),
    pairs,
    pairPostings,
    pairFrequency,
    wordsByHead,
    bigramsByHead,
    pageCount: pages.length,
    chunkCount: chunks.count,
  };
}
