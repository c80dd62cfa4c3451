import type { EvidenceType, MatchedField } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import type { Candidate } from './candidate.js';
import { isTermAt, locateTerm } from './locateTerm.js';
import { cutExcerpt, hasTextIn, WHITESPACE_RUN } from './makeExcerpt.js';
import type { SearchChunkHeading, SearchHit, SearchHitHeading } from './port.js';
import { headingAt, headingNamed } from './chunkHeadings.js';

/** What the hits of one search share: the chunks, the excerpt size and the matched terms' weights. */
export interface HitContext {
  readonly chunks: ChunkTable;
  readonly fileIdOf: (page: number) => string;
  readonly excerptChars: number;
  /** The start of a page's text (see `documentLead`). */
  readonly leadOf: (page: number) => string;
  /** A chunk's headings (`SearchCorpus.headingsOf`); without it, hits name no heading. */
  readonly headingsOf?: ((chunk: number) => readonly SearchChunkHeading[]) | undefined;
}

const FIELD_TYPES: readonly EvidenceType[] = ['content', 'metadata', 'semantic', 'graph'];
/** The 16 possible `evidenceTypes` lists, by bit mask (content 1, metadata 2, semantic 4, graph 8), shared and frozen. */
const EVIDENCE: readonly (readonly EvidenceType[])[] = Array.from({ length: 16 }, (_, mask) =>
  Object.freeze(FIELD_TYPES.filter((_, bit) => (mask & (1 << bit)) !== 0)),
);
const SEMANTIC_FIELDS: readonly MatchedField[] = Object.freeze(['content']);
const NO_FIELDS: readonly MatchedField[] = Object.freeze([]);
const NO_CHUNKS: readonly number[] = Object.freeze([]);
const NO_SECTIONS: readonly string[] = Object.freeze([]);

/** A hit whose excerpt and section IDs are computed when first read, then kept. */
class Hit implements SearchHit {
  readonly fileId: string;
  readonly score: number;
  readonly matchedFields: readonly MatchedField[];
  readonly evidenceTypes: readonly EvidenceType[];
  #sectionIds: readonly string[] | undefined;
  #excerpt: string | undefined;
  #heading: SearchHitHeading | null | undefined;
  readonly #candidate: Candidate;
  readonly #context: HitContext;

  constructor(candidate: Candidate, context: HitContext) {
    const { lexical, semantic } = candidate;
    const content = lexical !== undefined && lexical.bestChunk !== -1;
    const metadata = lexical !== undefined && lexical.fields.length > (content ? 1 : 0);
    this.fileId = context.fileIdOf(candidate.page);
    this.score = candidate.score;
    this.matchedFields =
      lexical !== undefined ? lexical.fields : semantic !== undefined ? SEMANTIC_FIELDS : NO_FIELDS;
    this.evidenceTypes =
      EVIDENCE[
        (content ? 1 : 0) |
          (metadata ? 2 : 0) |
          (semantic !== undefined ? 4 : 0) |
          (candidate.graph ? 8 : 0)
      ]!;
    this.#candidate = candidate;
    this.#context = context;
  }

  get sectionIds(): readonly string[] {
    if (this.#sectionIds === undefined) {
      const { lexical, semantic } = this.#candidate;
      const sectionChunks =
        lexical !== undefined && lexical.bestChunk !== -1
          ? lexical.sectionChunks
          : (semantic?.sectionChunks ?? NO_CHUNKS);
      const sectionOf = this.#context.chunks.sectionOf;
      this.#sectionIds =
        sectionChunks.length === 0 ? NO_SECTIONS : sectionChunks.map((c) => sectionOf[c]!);
    }
    return this.#sectionIds;
  }

  get sourceExcerpt(): string {
    if (this.#excerpt === undefined) this.#read();
    return this.#excerpt!;
  }

  get heading(): SearchHitHeading | null {
    if (this.#heading === undefined) this.#read();
    return this.#heading!;
  }

  /** The excerpt and the heading it comes from, found together. */
  #read(): void {
    const found = excerptOf(this.#candidate, this.#context);
    this.#excerpt = found.excerpt;
    this.#heading =
      found.heading === null ? null : { id: found.heading.id, text: found.heading.text };
  }
}

/**
 * The result shape of a candidate. `sourceExcerpt`, `heading` and `sectionIds` are getters computed
 * when first read and then kept, so a search costs them only for the items a page of results shows.
 * The excerpt is cut from the range of the innermost heading that holds the match (`heading`), so
 * it never runs on into the next heading's text.
 *
 * - lexical content match: the best chunk around the first occurrence of its strongest matched term
 *   (the one in fewest matching chunks; then the longer);
 * - semantic (and no lexical content match): the start of the most similar chunk;
 * - metadata only or graph only: the start of the page's text in source order (`documentLead`); `''`
 *   for a page without text.
 *
 * @param candidate - the candidate (its lists are owned by this search and not copied).
 * @param context - the search's shared context.
 * @returns the `SearchHit`.
 */
export function toRankedFile(candidate: Candidate, context: HitContext): SearchHit {
  return new Hit(candidate, context);
}

/** Code units of slack a cut may move by (`makeExcerpt`'s snap) plus a margin. */
const SLACK = 24;

/**
 * The excerpt around `[a, b)` of `raw`, collapsing only a window of a few excerpts' length around it:
 * the term holds no whitespace, so the window collapsed piece by piece is a substring of the whole
 * text collapsed. A narrow window is tried first; when whitespace collapsed it below what
 * `makeExcerpt` may read, the wide one is used, so the excerpt is the same either way.
 */
export function excerptAround(raw: string, a: number, b: number, maxChars: number): string {
  // The narrow window lies inside the wide one (a small `maxChars` has a small wide window). Before
  // the term it holds the excerpt's first quarter, after it the excerpt, each with a snap's slack
  // and room for whitespace that collapses (Markdown's line breaks and indents).
  const quarter = (maxChars - 2) >> 2;
  const narrowBack = Math.min(quarter + (maxChars >> 3) + 2 * SLACK, 2 * maxChars);
  const narrowAhead = Math.min(maxChars + (maxChars >> 2) + 2 * SLACK, 4 * maxChars);
  return (
    excerptIn(raw, a, b, maxChars, narrowBack, narrowAhead, quarter) ??
    // Room enough for the quarter of the excerpt before the term and the rest after, in code units
    // (a code point takes at most two), with slack for whitespace that collapses.
    excerptIn(raw, a, b, maxChars, 2 * maxChars, 4 * maxChars, -1)!
  );
}

/**
 * The excerpt from one window; for a narrow window (`quarter` ≥ 0), `undefined` when the window may
 * not hold what `makeExcerpt` reads: after the term, more than `maxChars` code points and a snap's
 * slack (or the text's end); before it, more than the excerpt's first quarter and the slack when
 * the excerpt ends inside the window, else more than `maxChars` (an excerpt that ends at the text's
 * end reaches back from there), or the text's start.
 */
function excerptIn(
  raw: string,
  a: number,
  b: number,
  maxChars: number,
  back: number,
  ahead: number,
  quarter: number,
): string | undefined {
  let from = Math.max(0, a - back);
  let to = Math.min(raw.length, b + ahead);
  if (from > 0 && raw.charCodeAt(from) >= 0xdc00 && raw.charCodeAt(from) <= 0xdfff) from--;
  if (to < raw.length && raw.charCodeAt(to) >= 0xdc00 && raw.charCodeAt(to) <= 0xdfff) to++;
  const after = to < raw.length && hasTextIn(raw, to, raw.length);
  const rest = raw.slice(b, to).replace(WHITESPACE_RUN, ' ').trimEnd();
  const restBmp = !HIGH_SURROGATE.test(rest);
  let long = true;
  if (quarter >= 0) {
    long = longer(rest, maxChars + SLACK, restBmp);
    if (after && !long) return undefined;
  }
  const before = from > 0 && hasTextIn(raw, 0, from);
  const lead = raw.slice(from, a).replace(WHITESPACE_RUN, ' ').trimStart();
  const leadBmp = !HIGH_SURROGATE.test(lead);
  if (quarter >= 0 && before && !longer(lead, (long ? quarter : maxChars) + SLACK, leadBmp))
    return undefined;
  const term = raw.slice(a, b);
  const bmp = restBmp && leadBmp && (a === b || !HIGH_SURROGATE.test(term));
  return cutExcerpt(
    lead + term + rest,
    lead.length,
    lead.length + (b - a),
    maxChars,
    before,
    after,
    bmp,
  );
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

/** Whether `text` has more than `need` code points (`bmp`: `text` holds no high surrogate). */
function longer(text: string, need: number, bmp: boolean): boolean {
  if (text.length <= need) return false;
  // Each code point is one or two code units; without a surrogate, one.
  if (text.length > 2 * need || bmp) return true;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++count > need) return true;
  }
  return false;
}

/** Whether `locateTerm` would answer `at` for `term`: see `excerptOf`. */
function isFirstAsSearched(raw: string, at: number, term: string): boolean {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c === 45 || c === 95 || c === 46 || c === 47 || c === 58) return false;
  }
  if (!isTermAt(raw, at, term)) return false;
  const written = raw.slice(at, at + term.length);
  return (
    written === term ||
    written === term.toUpperCase() ||
    written === term[0]!.toUpperCase() + term.slice(1)
  );
}

/** An excerpt and the heading whose range it was cut from (`null`: none holds the match). */
interface Excerpt {
  readonly excerpt: string;
  readonly heading: SearchChunkHeading | null;
}

const NO_HEADINGS: readonly SearchChunkHeading[] = Object.freeze([]);
const NO_TERMS: readonly string[] = Object.freeze([]);

/**
 * The excerpt around `[a, b)` of the chunk `chunk`, cut from the range of the innermost heading that
 * holds `a` (the whole chunk when none does). When the query's words found in the chunk (`terms`)
 * name another of its headings (`headingNamed`), the hit names that heading and the excerpt starts
 * at it.
 */
function excerptInHeading(
  context: HitContext,
  chunk: number,
  raw: string,
  a: number,
  b: number,
  terms: readonly string[] = NO_TERMS,
): Excerpt {
  const headings = context.headingsOf?.(chunk) ?? NO_HEADINGS;
  let heading = headingAt(headings, a);
  const named = headingNamed(headings, terms);
  if (named !== null && named.id !== heading?.id) {
    heading = named;
    a = b = named.from;
  }
  if (heading === null || (heading.from === 0 && heading.to >= raw.length))
    return { excerpt: excerptAround(raw, a, b, context.excerptChars), heading };
  const text = raw.slice(heading.from, Math.max(heading.to, b));
  return {
    excerpt: excerptAround(text, a - heading.from, b - heading.from, context.excerptChars),
    heading,
  };
}

function excerptOf(candidate: Candidate, context: HitContext): Excerpt {
  const { chunks } = context;
  const lexical = candidate.lexical;
  if (lexical !== undefined && lexical.bestChunk !== -1) {
    const chunk = lexical.bestChunk;
    const raw = chunks.textOf[chunk]!;
    // Where the index saw the strongest term first, when that is where the search below would find
    // it: the text there is the token, written as the search looks for it first (as folded,
    // Capitalized or in capitals), and the token is a plain word or CJK (the search takes a
    // compound inside a longer one, `to_string` in `String::to_string`, which the tokenizer does
    // not). A partial index without positions, another way of writing, or offsets folding moved:
    // searched for, so both ways give the same excerpt.
    const at = lexical.bestAt ?? -1;
    if (at !== -1) {
      const term = lexical.bestTerms[0];
      if (term !== undefined && isFirstAsSearched(raw, at, term))
        return excerptInHeading(context, chunk, raw, at, at + term.length, lexical.bestTerms);
    }
    for (const term of lexical.bestTerms) {
      const at = locateTerm(raw, term);
      if (at !== undefined)
        return excerptInHeading(context, chunk, raw, at[0], at[1], lexical.bestTerms);
    }
    return excerptInHeading(context, chunk, raw, 0, 0, lexical.bestTerms);
  }
  const chunk = candidate.semantic?.bestChunk;
  return chunk === undefined
    ? { excerpt: context.leadOf(candidate.page), heading: null }
    : excerptInHeading(context, chunk, chunks.textOf[chunk]!, 0, 0);
}
