import type { Candidate } from './candidate.js';
import type { LexicalFile } from './lexicalSearch.js';
import type { SemanticFile } from './semantic.js';

/** The constant of reciprocal rank fusion. */
export const RRF_K = 60;

/**
 * One ranking of candidates. Without a semantic ranking, the lexical one with its BM25 scores. With
 * one, reciprocal rank fusion: each page scores `Σ 1 / (RRF_K + rank)` over the rankings it is in
 * (ranks from 1); ties keep the lexical order, then the semantic order.
 *
 * @param lexical - pages found lexically, best first.
 * @param semantic - pages found semantically, best first, or `undefined` when the stage did not run.
 * @returns candidates, best first, every score positive.
 */
export function fuseRanks(
  lexical: readonly LexicalFile[],
  semantic: readonly SemanticFile[] | undefined,
): Candidate[] {
  if (semantic === undefined)
    return lexical.map((file) => ({
      page: file.page,
      score: file.score,
      lexical: file,
      semantic: undefined,
      graph: false,
    }));
  const byPage = new Map<number, Candidate>();
  const order: Candidate[] = [];
  lexical.forEach((file, rank) => {
    const candidate: Candidate = {
      page: file.page,
      score: 1 / (RRF_K + rank + 1),
      lexical: file,
      semantic: undefined,
      graph: false,
    };
    byPage.set(file.page, candidate);
    order.push(candidate);
  });
  semantic.forEach((file, rank) => {
    const share = 1 / (RRF_K + rank + 1);
    const candidate = byPage.get(file.page);
    if (candidate === undefined) {
      const fresh: Candidate = {
        page: file.page,
        score: share,
        lexical: undefined,
        semantic: file,
        graph: false,
      };
      byPage.set(file.page, fresh);
      order.push(fresh);
    } else {
      candidate.score += share;
      candidate.semantic = file;
    }
  });
  // Stable: equal scores keep lexical order, then semantic order.
  return order.sort((a, b) => b.score - a.score);
}
