import { hasFunctionCharacter, isFunctionWord } from './functionWords.js';
import { headingKeysOf, indexTokens } from './indexTokens.js';
import type { Bm25fIndex } from './bm25fIndex.js';

/** Most distinct terms a query searches for; beyond it, the rarest are kept. */
export const MAX_QUERY_TERMS = 64;

/**
 * The weights of a query's terms, chosen on the `tune` half of the search-quality bench (see
 * docs/search-tuning.md, "Ranking changes").
 */
export interface QueryWeights {
  /** A function word's weight when the query has other words (1 when it has none). */
  readonly functionWord: number;
  /**
   * A CJK bigram one of whose characters is a function character (`是旧`, `的区`) when the query has
   * a token without one: mostly a bigram across two words' edge.
   */
  readonly functionCharacter: number;
  /** An indexed word one edit away from a query word of 5+ Latin letters. */
  readonly fuzzy: number;
  /** An indexed word that the query's last word (3+ units) starts (0: no prefix matching). */
  readonly prefix: number;
  /** A CJK bigram starting with a one-character CJK query term. */
  readonly cjkPrefix: number;
  /** Two query words that follow each other in a chunk (phrase evidence). */
  readonly pair: number;
  /** Two CJK bigrams that follow each other (four characters in a row) in a chunk. */
  readonly cjkPair: number;
}

/**
 * The shortest last word matched as a prefix of longer words (a two-letter word such as `co` would
 * reach every `con…` word). The term-store engine asks its store for the same prefixes.
 */
export const MIN_PREFIX_CHARS = 3;

/** The weights in use. */
export const QUERY_WEIGHTS: QueryWeights = Object.freeze({
  functionWord: 0.2,
  functionCharacter: 0.6,
  fuzzy: 0.4,
  prefix: 0.3,
  cjkPrefix: 0.1,
  pair: 1,
  cjkPair: 1,
});

/** One term a query searches for. */
export interface QueryTerm {
  /** Term number (`Bm25fIndex.terms`), or pair number when `pair`. */
  readonly id: number;
  readonly pair: boolean;
  /** The folded token, for locating it in an excerpt (`''` for a pair). */
  readonly token: string;
  /** Query weight: repeats × the weight of its kind. */
  readonly weight: number;
  /** Pages holding it (its document frequency). */
  readonly frequency: number;
  /**
   * A word the query does not hold but reaches (fuzzy, prefix or CJK prefix): not counted in the
   * query's own weight for the title match. Absent or `false` for the query's own tokens and pairs.
   */
  readonly variant?: boolean;
  /**
   * The query as a whole heading (`headingKey`): the pages with a heading that is the query exactly.
   * Scored as the heading match only (`FieldModel.headingExact`), never as a word.
   */
  readonly heading?: boolean;
}

/** What a query searches for: its terms, rarest first. */
export interface QueryPlan {
  readonly terms: readonly QueryTerm[];
  /**
   * Whether most of the query's distinct tokens are CJK (bigrams or characters): the heading
   * coverage applies (`FieldModel.headingCoverage`). Absent: `false`.
   */
  readonly cjk?: boolean;
}

/** Whether `token` is a Latin word of at least 5 letters (fuzzy matching of one edit applies). */
export function isFuzzyToken(token: string): boolean {
  if (token.length < 5) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/** Whether `a` and `b` are at most one insertion, deletion or substitution apart. Linear. */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // After the first difference, the rest must match with one unit skipped in one or both.
  const skipA = la >= lb ? 1 : 0;
  const skipB = lb >= la ? 1 : 0;
  for (let j = i + skipA, k = i + skipB; j < la; j++, k++)
    if (a.charCodeAt(j) !== b.charCodeAt(k)) return false;
  return true;
}

/** Each bucket's word lengths, derived on first use (a bucket is a frozen index's, or a partial one's). */
const bucketLengths = new WeakMap<readonly number[], Uint16Array>();

/** The lengths of a `wordsByHead` bucket's words, in bucket order (capped at 65,535). */
function lengthsOf(bucket: readonly number[], termList: readonly string[]): Uint16Array {
  let lengths = bucketLengths.get(bucket);
  // A bucket that grew since (a partial index being filled) is measured again.
  if (lengths === undefined || lengths.length !== bucket.length) {
    lengths = new Uint16Array(bucket.length);
    for (let k = 0; k < bucket.length; k++)
      lengths[k] = Math.min(0xffff, termList[bucket[k]!]!.length);
    bucketLengths.set(bucket, lengths);
  }
  return lengths;
}

interface Token {
  readonly token: string;
  readonly cjk: boolean;
  readonly compound: boolean;
  readonly start: number;
}

/**
 * Plan a query on a static index: each distinct token once, weighted by how often the query repeats
 * it (so the scores are those of repeating it); function words weighed less when the query has other
 * words; at most `MAX_QUERY_TERMS` distinct tokens, the rarest; then the indexed words one edit away
 * from words of 5+ Latin letters, the words the last word (of 3+ units) starts, the bigrams a
 * one-character CJK term starts, and the pairs of adjacent query words found adjacent in some chunk.
 *
 * @param query - the query text.
 * @param index - the index.
 * @param weights - the weights of each kind of term.
 * @returns the terms, rarest first (then in query order).
 */
export function planQuery(
  query: string,
  index: Bm25fIndex,
  weights: QueryWeights = QUERY_WEIGHTS,
): QueryPlan {
  const tokens: Token[] = [];
  indexTokens(query, (token, cjk, compound, start) => tokens.push({ token, cjk, compound, start }));
  const counts = new Map<string, number>();
  const first = new Map<string, Token>();
  for (const t of tokens) {
    counts.set(t.token, (counts.get(t.token) ?? 0) + 1);
    if (!first.has(t.token)) first.set(t.token, t);
  }
  const frequencyOf = (token: string): number => {
    const id = index.terms.get(token);
    return id === undefined ? 0 : index.pageFrequency[id]!;
  };
  let distinct = [...first.values()];
  if (distinct.length > MAX_QUERY_TERMS) {
    const rank = new Map(distinct.map((t, order) => [t, { df: frequencyOf(t.token), order }]));
    distinct = [...distinct]
      .sort((a, b) => rank.get(a)!.df - rank.get(b)!.df || rank.get(a)!.order - rank.get(b)!.order)
      .slice(0, MAX_QUERY_TERMS)
      .sort((a, b) => rank.get(a)!.order - rank.get(b)!.order);
  }
  const hasContent = distinct.some((t) => !isFunctionWord(t.token, t.cjk));
  // A token with no function character at all (for `functionCharacter`).
  const hasPlain = distinct.some((t) =>
    t.cjk ? !hasFunctionCharacter(t.token) : !isFunctionWord(t.token, false),
  );
  const lastWord = [...tokens].reverse().find((t) => !t.cjk && !t.compound);

  const out = new Map<number, QueryTerm>();
  const add = (id: number, token: string, weight: number, variant: boolean): void => {
    const had = out.get(id);
    if (had !== undefined && had.weight >= weight) return;
    const frequency = index.pageFrequency[id]!;
    out.set(
      id,
      variant
        ? { id, pair: false, token, weight, frequency, variant }
        : { id, pair: false, token, weight, frequency },
    );
  };
  const exact = new Set(distinct.map((t) => t.token));
  const variants: [number, string, number][] = [];
  for (const t of distinct) {
    let weight = counts.get(t.token)!;
    if (hasContent && isFunctionWord(t.token, t.cjk)) weight *= weights.functionWord;
    else if (hasPlain && t.cjk && hasFunctionCharacter(t.token))
      weight *= weights.functionCharacter;
    const id = index.terms.get(t.token);
    if (id !== undefined) add(id, t.token, weight, false);
    if (t.cjk) {
      // A one-character term that is a function word (`的` between two names) would match every
      // bigram it starts: it is matched as itself only.
      if (
        weights.cjkPrefix > 0 &&
        t.token.length === (t.token.codePointAt(0)! > 0xffff ? 2 : 1) &&
        !isFunctionWord(t.token, true)
      )
        for (const v of index.bigramsByHead.get(t.token) ?? [])
          variants.push([v, index.termList[v]!, weight * weights.cjkPrefix]);
      continue;
    }
    if (t.compound || t.token.length < 2) continue;
    const bucket = index.wordsByHead.get(t.token.slice(0, 2));
    if (bucket === undefined) continue;
    const fuzzy = weights.fuzzy > 0 && isFuzzyToken(t.token);
    const prefix =
      weights.prefix > 0 && t.token.length >= MIN_PREFIX_CHARS && t.token === lastWord?.token;
    if (!fuzzy && !prefix) continue;
    const token = t.token;
    const length = token.length;
    const termList = index.termList;
    const lengths = lengthsOf(bucket, termList);
    for (let k = 0; k < bucket.length; k++) {
      // Lengths first (without reading the word): a prefix match is longer, a fuzzy one differs by
      // one unit at most.
      const n = lengths[k]!;
      if (!(prefix && n > length) && !(fuzzy && n <= length + 1 && n >= length - 1)) continue;
      const v = bucket[k]!;
      const word = termList[v]!;
      let share = 0;
      if (prefix && n > length && word.startsWith(token)) share = weights.prefix;
      if (fuzzy && n <= length + 1 && n >= length - 1 && withinOneEdit(token, word))
        share = Math.max(share, weights.fuzzy);
      if (share > 0 && !exact.has(word)) variants.push([v, word, weight * share]);
    }
  }
  for (const [id, token, weight] of variants) add(id, token, weight, true);

  const terms: QueryTerm[] = [...out.values()];
  {
    const pairs = new Map<number, QueryTerm>();
    const addPair = (q: number, weight: number): void => {
      if (q === -1 || weight === 0) return;
      const had = pairs.get(q);
      pairs.set(q, {
        id: q,
        pair: true,
        token: '',
        weight: (had?.weight ?? 0) + weight,
        frequency: index.pairFrequency[q]!,
      });
    };
    // As the index pairs them: adjacent words, and CJK bigrams two places apart in one run.
    let previous = -1;
    let back2 = -1;
    let back1 = -1;
    let cjkStart = -2;
    for (const t of tokens) {
      if (t.compound) continue;
      const id = index.terms.get(t.token) ?? -1;
      if (t.cjk) {
        previous = -1;
        if (t.start !== cjkStart + 1 && t.start !== cjkStart + 2) back2 = back1 = -1;
        if (back2 !== -1 && id !== -1) addPair(index.pairs.get(back2, id), weights.cjkPair);
        back2 = back1;
        back1 = id;
        cjkStart = t.start;
        continue;
      }
      back2 = back1 = -1;
      if (previous !== -1 && id !== -1) addPair(index.pairs.get(previous, id), weights.pair);
      previous = id;
    }
    terms.push(...pairs.values());
  }
  // The query as a whole heading (`headingKey`, from the tokens already read), or else without one
  // common word: one in more than half of the pages (a product's name: `vitepress useData` names
  // the heading `useData`) or a function word.
  const pages = index.corpusPageCount ?? index.pageCount;
  let headingId: number | undefined;
  for (const { key, without } of headingKeysOf(tokens.filter((t) => !t.compound))) {
    if (without !== '' && !isFunctionWord(without, false) && frequencyOf(without) * 2 <= pages)
      continue;
    headingId = index.terms.get(key);
    if (headingId !== undefined) break;
  }
  if (headingId !== undefined)
    terms.push({
      id: headingId,
      pair: false,
      token: '',
      weight: 0,
      frequency: index.pageFrequency[headingId]!,
      heading: true,
    });
  terms.sort((a, b) => a.frequency - b.frequency);
  let cjkCount = 0;
  for (const t of distinct) if (t.cjk) cjkCount++;
  return { terms, cjk: cjkCount * 2 > distinct.length };
}
