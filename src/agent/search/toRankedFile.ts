import type { RankedFile } from '../internal/model.js';
import type { EvidenceType, MatchedField } from '../types.js';
import { type ChunkTable, hasText } from './buildChunks.js';
import type { Candidate } from './candidate.js';
import { decodeTerm } from './encodeTerm.js';
import { locateTerm } from './locateTerm.js';
import { makeExcerpt } from './makeExcerpt.js';

/** What the hits of one search share: the chunks, the excerpt size and the matched terms' weights. */
export interface HitContext {
  readonly chunks: ChunkTable;
  readonly fileIdOf: (page: number) => string;
  readonly excerptChars: number;
  /** The start of a page's text (see `documentLead`). */
  readonly leadOf: (page: number) => string;
  /** Matching chunks per document term (computed on first use). */
  readonly termFrequencies: () => ReadonlyMap<string, number>;
}

/**
 * The result shape of a candidate. `sourceExcerpt` is computed when first read and then kept, so a
 * search costs excerpts only for the items a page of results shows.
 *
 * - lexical content match: the best chunk around the first occurrence of its strongest matched term
 *   (the one in fewest matching chunks; then the longer);
 * - semantic (and no lexical content match): the start of the most similar chunk;
 * - metadata only or graph only: the start of the page's text in source order (`documentLead`); `''`
 *   for a page without text.
 *
 * @param candidate - the candidate.
 * @param context - the search's shared context.
 * @returns a frozen `RankedFile` whose `sourceExcerpt` is a memoized getter.
 */
export function toRankedFile(candidate: Candidate, context: HitContext): RankedFile {
  const { lexical, semantic } = candidate;
  const matchedFields: MatchedField[] = lexical !== undefined ? [...lexical.fields] : semantic !== undefined ? ['content'] : [];
  const evidenceTypes: EvidenceType[] = [];
  if (lexical !== undefined && lexical.bestChunk !== -1) evidenceTypes.push('content');
  if (lexical !== undefined && lexical.fields.some((f) => f !== 'content')) evidenceTypes.push('metadata');
  if (semantic !== undefined) evidenceTypes.push('semantic');
  if (candidate.graph) evidenceTypes.push('graph');
  const sectionChunks = lexical !== undefined && lexical.bestChunk !== -1 ? lexical.sectionChunks : (semantic?.sectionChunks ?? []);
  const sectionIds = sectionChunks.map((c) => context.chunks.sectionOf[c]!);
  let excerpt: string | undefined;
  return Object.freeze({
    fileId: context.fileIdOf(candidate.page),
    score: candidate.score,
    matchedFields: Object.freeze(matchedFields),
    evidenceTypes: Object.freeze(evidenceTypes),
    sectionIds: Object.freeze(sectionIds),
    get sourceExcerpt(): string {
      excerpt ??= excerptOf(candidate, context);
      return excerpt;
    },
  });
}

/** Code units of a chunk searched first for the term (most first occurrences are early). */
const HEAD = 4096;

/** `locateTerm` on the chunk's head, then on all of it when the head has no whole occurrence. */
function locateFirst(raw: string, term: string): readonly [number, number] | undefined {
  if (raw.length > HEAD * 2) {
    const head = raw.slice(0, HEAD);
    const at = locateTerm(head, term);
    // A hit touching the head's end may be part of a longer word: decide on the whole text.
    if (at !== undefined && at[1] < HEAD - 1) return at;
  }
  return locateTerm(raw, term);
}

/**
 * The excerpt around `[a, b)` of `raw`, collapsing only a window of a few excerpts' length around it:
 * the term holds no whitespace, so the window collapsed piece by piece is a substring of the whole
 * text collapsed.
 */
function excerptAround(raw: string, a: number, b: number, maxChars: number): string {
  let from = Math.max(0, a - 4 * maxChars);
  let to = Math.min(raw.length, b + 4 * maxChars);
  if (from > 0 && raw.charCodeAt(from) >= 0xdc00 && raw.charCodeAt(from) <= 0xdfff) from--;
  if (to < raw.length && raw.charCodeAt(to) >= 0xdc00 && raw.charCodeAt(to) <= 0xdfff) to++;
  const lead = raw.slice(from, a).replace(/\s+/g, ' ').trimStart();
  const rest = raw.slice(b, to).replace(/\s+/g, ' ').trimEnd();
  const text = lead + raw.slice(a, b) + rest;
  const before = from > 0 && hasText(raw.slice(0, from));
  const after = to < raw.length && hasText(raw.slice(to));
  return makeExcerpt(text, lead.length, lead.length + (b - a), maxChars, before, after);
}

function excerptOf(candidate: Candidate, context: HitContext): string {
  const { chunks, excerptChars } = context;
  const lexical = candidate.lexical;
  if (lexical !== undefined && lexical.bestChunk !== -1) {
    const raw = chunks.textOf[lexical.bestChunk]!;
    const frequencies = context.termFrequencies();
    const terms = Object.keys(lexical.bestMatch ?? {}).sort(
      (a, b) => (frequencies.get(a) ?? Infinity) - (frequencies.get(b) ?? Infinity) || b.length - a.length,
    );
    for (const term of terms) {
      const at = locateFirst(raw, decodeTerm(term));
      if (at !== undefined) return excerptAround(raw, at[0], at[1], excerptChars);
    }
    return excerptAround(raw, 0, 0, excerptChars);
  }
  const chunk = candidate.semantic?.bestChunk;
  return chunk === undefined ? context.leadOf(candidate.page) : excerptAround(chunks.textOf[chunk]!, 0, 0, excerptChars);
}
