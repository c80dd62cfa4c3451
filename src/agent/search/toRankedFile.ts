import type { RankedFile } from '../internal/model.js';
import type { EvidenceType, MatchedField } from '../types.js';
import type { ChunkTable } from './buildChunks.js';
import type { Candidate } from './candidate.js';
import { locateTerm } from './locateTerm.js';
import { collapseWhitespace, makeExcerpt } from './makeExcerpt.js';

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

function excerptOf(candidate: Candidate, context: HitContext): string {
  const { chunks, excerptChars } = context;
  const lexical = candidate.lexical;
  if (lexical !== undefined && lexical.bestChunk !== -1) {
    const text = collapseWhitespace(chunks.textOf[lexical.bestChunk]!);
    const frequencies = context.termFrequencies();
    const terms = Object.keys(lexical.bestMatch ?? {}).sort(
      (a, b) => (frequencies.get(a) ?? Infinity) - (frequencies.get(b) ?? Infinity) || b.length - a.length,
    );
    for (const term of terms) {
      const at = locateTerm(text, term);
      if (at !== undefined) return makeExcerpt(text, at[0], at[1], excerptChars);
    }
    return makeExcerpt(text, 0, 0, excerptChars);
  }
  const chunk = candidate.semantic?.bestChunk;
  return chunk === undefined ? context.leadOf(candidate.page) : makeExcerpt(collapseWhitespace(chunks.textOf[chunk]!), 0, 0, excerptChars);
}
