import type { SearchOptions } from 'minisearch';
import { encodeTerm } from './encodeTerm.js';
import { QUERY_OPTIONS } from './lexicalIndex.js';
import { tokenize } from './tokenize.js';

/** Most distinct terms a query searches for; beyond it, the rarest are kept. */
export const MAX_QUERY_TERMS = 64;

/** What MiniSearch is asked: the query's distinct terms, and its options with a boost for repeats. */
export interface QueryPlan {
  /** The distinct tokens, space-separated (they tokenize back to themselves), the query's last token last. */
  readonly text: string;
  readonly options: SearchOptions;
}

/**
 * Plan a query: each distinct term once, boosted by how often the query repeats it (MiniSearch sums one
 * sub-query per token, so the scores are the same), and at most `MAX_QUERY_TERMS` distinct terms, the
 * rarest in the content index. A 2,000-character query that repeats one word, or names hundreds of
 * words, then costs a bounded number of term lookups instead of blocking the process for seconds.
 *
 * @param query - the query text.
 * @param frequency - chunks holding an indexed term (`chunkFrequency`), or `undefined` when unknown
 *   (then the first terms are kept).
 * @returns the text and options to search with.
 */
export function planQuery(
  query: string,
  frequency: ((term: string) => number) | undefined,
): QueryPlan {
  const tokens = tokenize(query);
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  let distinct = [...counts.keys()];
  const last = tokens[tokens.length - 1];
  if (distinct.length > MAX_QUERY_TERMS) {
    const rarity = new Map(
      distinct.map((token, order) => [token, { df: frequency?.(encodeTerm(token)) ?? 0, order }]),
    );
    const kept = new Set(
      [...distinct]
        .sort(
          (a, b) =>
            rarity.get(a)!.df - rarity.get(b)!.df || rarity.get(a)!.order - rarity.get(b)!.order,
        )
        .slice(0, MAX_QUERY_TERMS),
    );
    distinct = distinct.filter((token) => kept.has(token));
  }
  // The query's last token stays last, so prefix matching still applies to the word being typed.
  if (last !== undefined && distinct.includes(last) && distinct[distinct.length - 1] !== last) {
    distinct = [...distinct.filter((token) => token !== last), last];
  }
  const boosts = new Map<string, number>();
  for (const token of distinct) {
    const n = counts.get(token)!;
    if (n > 1) boosts.set(encodeTerm(token), n);
  }
  return {
    text: distinct.join(' '),
    options:
      boosts.size === 0
        ? QUERY_OPTIONS
        : { ...QUERY_OPTIONS, boostTerm: (term: string) => boosts.get(term) ?? 1 },
  };
}
