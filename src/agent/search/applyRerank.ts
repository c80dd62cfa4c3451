import type { Candidate } from './candidate.js';

/**
 * Reorder the first `scores.length` candidates by the reranker's scores (higher first, ties keep the
 * fused order). The reordered candidates take the fused scores of those places in turn, so scores stay
 * positive and descending and the tail is untouched (a reranker's raw scores may be negative).
 *
 * @param ranked - candidates, best first.
 * @param scores - the reranker's score of each of the first candidates, in order.
 * @returns a new array, best first.
 */
export function applyRerank(ranked: readonly Candidate[], scores: readonly number[]): Candidate[] {
  const top = ranked.slice(0, scores.length);
  const places = top.map((c) => c.score);
  const order = top
    .map((candidate, i) => ({ candidate, score: scores[i]!, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  order.forEach((entry, i) => {
    entry.candidate.score = places[i]!;
  });
  return [...order.map((entry) => entry.candidate), ...ranked.slice(scores.length)];
}

/**
 * Check a reranker's answer.
 *
 * @param scores - what `rerank` resolved to.
 * @param count - candidates sent.
 * @returns the scores.
 * @throws `Error` when it is not `count` finite numbers.
 */
export function checkRerankScores(scores: unknown, count: number): readonly number[] {
  if (
    !Array.isArray(scores) ||
    scores.length !== count ||
    !scores.every((s) => typeof s === 'number' && Number.isFinite(s))
  ) {
    throw new Error(`the reranker must return ${count} finite numbers`);
  }
  return scores as number[];
}
