import { CJK, classOf, MARK, SEPARATOR } from './charClass.js';
import { foldText } from './foldText.js';

const ASCII = /^[\u0000-\u007f]*$/;
/** ASCII without capitals: a term `scanCaseless` can search. */
const LOWER_ASCII = /^[\u0000-\u0040\u005b-\u007f]+$/;

/** Base class of the code point ending just before `index`, or `SEPARATOR` at the start. */
function classBefore(text: string, index: number): number {
  if (index === 0) return SEPARATOR;
  const c = text.charCodeAt(index - 1);
  const pair = c >= 0xdc00 && c <= 0xdfff && index >= 2 ? text.codePointAt(index - 2)! : 0;
  return classOf(pair > 0xffff ? pair : c) & 3;
}

/** Base class of the code point at `index`, or `SEPARATOR` at the end. */
function classAt(text: string, index: number): number {
  return index >= text.length ? SEPARATOR : classOf(text.codePointAt(index)!) & 3;
}

/**
 * Fold text piece by piece (a character with its combining marks: NFKC, lower case), keeping for every
 * folded code unit the original offset it came from.
 */
function foldWithOrigin(text: string): { folded: string; origin: Int32Array } {
  const pieces: string[] = [];
  const offsets: number[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    while (i < text.length) {
      const next = text.codePointAt(i)!;
      if ((classOf(next) & MARK) === 0) break;
      i += next > 0xffff ? 2 : 1;
    }
    const c = text.charCodeAt(start);
    const piece =
      i - start === 1 && c < 0x80
        ? text[start]!.toLowerCase()
        : text.slice(start, i).normalize('NFKC').toLowerCase();
    pieces.push(piece);
    for (let k = 0; k < piece.length; k++) offsets.push(start);
  }
  offsets.push(text.length);
  return { folded: pieces.join(''), origin: Int32Array.from(offsets) };
}

/**
 * Where a token first occurs in original text, as the tokenizer would cut it: found with `indexOf` in
 * the folded text, then checked at its edges (a word must not continue a longer word; a one-character
 * CJK token must be a run of its own), and mapped back to original offsets. Linear in the text.
 *
 * @param text - original text (already whitespace-collapsed for excerpts).
 * @param term - a token as `tokenize` produced it.
 * @returns the code-unit range `[start, end)` in `text`, or `undefined` when the term is not there.
 */
export function locateTerm(text: string, term: string): readonly [number, number] | undefined {
  if (term.length === 0) return undefined;
  // A lower-case ASCII term (nearly every name): one scan of the places the term is in any case
  // finds both what the search below takes first (the earliest whole hit written as folded,
  // Capitalized or in capitals) and, when there is none, the first whole hit in any case.
  if (LOWER_ASCII.test(term)) {
    const found = scanCaseless(text, term);
    if (found === undefined) return undefined;
    if (typeof found !== 'number') return found;
    const lowered =
      text.indexOf('\u0130') !== -1
        ? null
        : found === -1
          ? undefined
          : ([found, found + term.length] as const);
    return locateFolded(text, term, lowered);
  }
  // Look for the term as written in the text first, without folding a long text: as it is (a term
  // without cased letters, CJK or digits, is nearly always there so), Capitalized and in capitals.
  // The earliest hit whose source folds to the term is taken; a word only found in another mix of
  // cases, or only through NFKC, falls through to folding the whole text.
  const upper = term.toUpperCase();
  const variants =
    upper === term
      ? [term]
      : [term, term[0]!.toUpperCase() + term.slice(1), upper].filter(
          (v) => v.length === term.length,
        );
  // Each variant's first whole hit counts; the earliest of those that fold to the term is taken. The
  // text is read in windows growing fourfold, each variant from where the window before stopped, so
  // a term near the start of a long text is found without reading the rest three times over, and no
  // part is read twice; a window holds every hit starting in it.
  let best: readonly [number, number] | undefined;
  let decided = 0; // bit per variant whose first whole hit is known
  for (let window = FIRST_WINDOW, scanned = 0; ; scanned = window, window *= 4) {
    const limit = Math.min(window, text.length);
    for (let v = 0; v < variants.length; v++) {
      if ((decided & (1 << v)) !== 0) continue;
      // Once a hit is known, only an earlier one matters.
      const hit = findBetween(text, variants[v]!, scanned, best === undefined ? limit : best[0]);
      if (hit === undefined) continue;
      decided |= 1 << v;
      if (foldText(text.slice(hit[0], hit[1])) === term) best = hit;
    }
    if (best !== undefined || limit === text.length) break;
  }
  if (best !== undefined) return best;
  // Another mix of cases (`WeakMap` for `weakmap`): the lower-cased text, as long as the text unless
  // it holds `İ` (the one character whose lower case is longer), before folding piece by piece.
  const lowered =
    text.indexOf('\u0130') !== -1
      ? null
      : ASCII.test(term)
        ? findCaseless(text, term)
        : findLowered(text, term);
  return locateFolded(text, term, lowered);
}

/**
 * `locateTerm` once the term as written is not in the text: `lowered` is the first whole hit in the
 * lower-cased text (`undefined`: none; `null`: not searched, as the text holds `İ` or `Σ`).
 */
function locateFolded(
  text: string,
  term: string,
  lowered: readonly [number, number] | undefined | null,
): readonly [number, number] | undefined {
  if (lowered === null) {
    const lower = text.toLowerCase();
    if (lower.length === text.length) {
      const hit = find(lower, undefined, term);
      if (hit !== undefined && foldText(text.slice(hit[0], hit[1])) === term) return hit;
    }
  } else if (lowered === undefined) {
    // An ASCII text folds as it lower-cases: what is not found there is not in it.
    if (ASCII.test(text)) return undefined;
  } else if (foldText(text.slice(lowered[0], lowered[1])) === term) return lowered;
  const whole = foldText(text);
  if (whole.length === text.length) {
    const hit = find(whole, undefined, term);
    if (hit === undefined || foldText(text.slice(hit[0], hit[1])) === term) return hit;
  }
  const { folded, origin } = foldWithOrigin(text);
  return find(folded, origin, term);
}

/**
 * Whether a token occurs whole at `at` of original text, as the tokenizer would cut it: the text there
 * folds to it and its edges are word edges (`locateTerm`'s check). For a position the index recorded
 * in the folded text, which is the original's when folding kept every length before it.
 *
 * @param text - original text.
 * @param at - a code-unit offset.
 * @param term - a token as `tokenize` produced it.
 * @returns whether `[at, at + term.length)` is that token.
 */
export function isTermAt(text: string, at: number, term: string): boolean {
  const end = at + term.length;
  if (term.length === 0 || at < 0 || end > text.length) return false;
  if (foldText(text.slice(at, end)) !== term) return false;
  return isWhole(text, at, end, term);
}

/** Whether the hit `[at, end)` of `term` in `text` is whole (`find`'s edge check). */
function isWhole(text: string, at: number, end: number, term: string): boolean {
  const first = term.codePointAt(0)!;
  const cjk = (classOf(first) & 3) === CJK;
  const single = term.length === (first > 0xffff ? 2 : 1);
  const before = classBefore(text, at);
  const after = classAt(text, end);
  return cjk
    ? !single || (before !== CJK && after !== CJK)
    : (before === SEPARATOR || before === CJK) && (after === SEPARATOR || after === CJK);
}

/** Code units of the first window `locateTerm` reads. */
const FIRST_WINDOW = 2048;

/**
 * `find` (unfolded text) for the first whole hit starting in `[from, limit)`: `indexOf` reads only
 * the text such a hit can span, and the edges are checked on the whole text.
 */
function findBetween(
  text: string,
  term: string,
  from: number,
  limit: number,
): readonly [number, number] | undefined {
  if (from >= limit) return undefined;
  const end = limit + term.length - 1;
  return find(end >= text.length ? text : text.slice(0, end), undefined, term, text, from);
}

/**
 * `find` in the lower-cased text, lower-casing it in windows growing fourfold (a term early in a long
 * text costs a window, not the whole text). Lower-casing is per character but for `Σ`, whose lower
 * case depends on its neighbours: `null` when a window holds one (lower-case the whole text then).
 * The text must not hold `İ`, so that lower-casing keeps offsets.
 */
function findLowered(text: string, term: string): readonly [number, number] | undefined | null {
  for (let window = FIRST_WINDOW; ; window *= 4) {
    const limit = Math.min(window, text.length);
    // Two code units past the longest hit starting before `limit`, for its edge check.
    const piece = text.slice(0, Math.min(text.length, limit + term.length + 1));
    if (piece.indexOf('\u03a3') !== -1) return null;
    const hit = find(piece.toLowerCase(), undefined, term);
    if (hit !== undefined && hit[0] < limit) return hit;
    if (limit === text.length) return undefined;
  }
}

/**
 * `find` in the lower-cased text for an ASCII term, without lower-casing the text (which is slow on
 * text beyond Latin-1): the candidates are where the term's first character is, in either case, and
 * the rest is compared case by case. Only ASCII letters and `K` (Kelvin sign, lower case `k`) lower-case
 * to ASCII, and lower-casing keeps a character's class, so the edges are checked on the text itself.
 * The text must not hold `İ`.
 */
function findCaseless(text: string, term: string): readonly [number, number] | undefined {
  const n = term.length;
  const next = caselessHits(text, term);
  for (let at = next(); at !== -1; at = next()) {
    const before = classBefore(text, at);
    const after = classAt(text, at + n);
    if ((before === SEPARATOR || before === CJK) && (after === SEPARATOR || after === CJK))
      return [at, at + n];
  }
  return undefined;
}

/** Case-blind patterns of recent terms (`caselessHits`), cleared when full. */
const PATTERNS = new Map<string, RegExp>();
const PATTERNS_KEPT = 256;

/** The global, case-blind pattern matching `term` literally (kept per term). */
function caselessPattern(term: string): RegExp {
  let pattern = PATTERNS.get(term);
  if (pattern === undefined) {
    if (PATTERNS.size >= PATTERNS_KEPT) PATTERNS.clear();
    pattern = new RegExp(term.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), 'gi');
    PATTERNS.set(term, pattern);
  }
  return pattern;
}

/**
 * The places where `text` holds `term` in any case that lower-cases to it (ASCII letters in either
 * case, `K` for `k`; other characters as they are), edges unchecked, in order: each call answers the
 * next, `-1` when none is left. The candidates are where the term's first character is, in each way
 * of writing it, found with `indexOf` and kept until passed, so no part of the text is read twice.
 */
function caselessHits(text: string, term: string): () => number {
  const n = term.length;
  // A lower-case term in a text without `K`: the engine's case-blind matcher of the literal term,
  // which matches an ASCII letter in either case and every other character as it is (in a pattern
  // without the `u` flag, a character beyond ASCII never matches an ASCII one). Linear: the pattern
  // is the escaped term.
  if (LOWER_ASCII.test(term) && (term.indexOf('k') === -1 || text.indexOf('\u212a') === -1)) {
    const pattern = caselessPattern(term);
    let from = 0;
    return () => {
      pattern.lastIndex = from;
      if (!pattern.test(text)) return -1;
      const at = pattern.lastIndex - n;
      from = at + 1;
      return at;
    };
  }
  const t0 = term.charCodeAt(0);
  const first = term[0]!;
  const upper = t0 >= 0x61 && t0 <= 0x7a ? String.fromCharCode(t0 - 32) : undefined;
  const kelvin = t0 === 0x6b;
  let lower = text.indexOf(first);
  let capital = upper === undefined ? -1 : text.indexOf(upper);
  let sign = kelvin ? text.indexOf('\u212a') : -1;
  return () => {
    for (;;) {
      let at = lower;
      if (capital !== -1 && (at === -1 || capital < at)) at = capital;
      if (sign !== -1 && (at === -1 || sign < at)) at = sign;
      if (at === -1 || at + n > text.length) return -1;
      if (at === lower) lower = text.indexOf(first, at + 1);
      else if (at === capital) capital = text.indexOf(upper!, at + 1);
      else sign = text.indexOf('\u212a', at + 1);
      let k = 1;
      for (; k < n; k++) {
        const c = text.charCodeAt(at + k);
        const t = term.charCodeAt(k);
        if (c !== t && !(t >= 0x61 && t <= 0x7a && c === t - 32) && !(t === 0x6b && c === 0x212a))
          break;
      }
      if (k === n) return at;
    }
  };
}

/**
 * For a lower-case ASCII term: the earliest whole hit written as the term, Capitalized or in capitals
 * (what `locateTerm`'s search of those three finds first); else the start of the first whole hit in
 * any case that lower-cases to it (`findCaseless`), or `-1` when there is none but the text is not
 * ASCII; `undefined` when there is none in an ASCII text (which folds as it lower-cases).
 */
function scanCaseless(text: string, term: string): readonly [number, number] | number | undefined {
  const n = term.length;
  const capitalized = term[0]!.toUpperCase() + term.slice(1);
  const capitals = term.toUpperCase();
  let firstWhole = -1;
  const next = caselessHits(text, term);
  for (let at = next(); at !== -1; at = next()) {
    const before = classBefore(text, at);
    const after = classAt(text, at + n);
    if (!((before === SEPARATOR || before === CJK) && (after === SEPARATOR || after === CJK)))
      continue;
    if (
      text.startsWith(term, at) ||
      text.startsWith(capitalized, at) ||
      text.startsWith(capitals, at)
    )
      return [at, at + n];
    if (firstWhole === -1) firstWhole = at;
  }
  if (firstWhole !== -1) return firstWhole;
  return ASCII.test(text) ? undefined : -1;
}

function find(
  folded: string,
  origin: Int32Array | undefined,
  term: string,
  whole: string = folded,
  from = 0,
): readonly [number, number] | undefined {
  const first = term.codePointAt(0)!;
  const cjk = (classOf(first) & 3) === CJK;
  const single = term.length === (first > 0xffff ? 2 : 1);
  for (let at = folded.indexOf(term, from); at !== -1; at = folded.indexOf(term, at + 1)) {
    const end = at + term.length;
    const before = classBefore(whole, at);
    const after = classAt(whole, end);
    const isWhole = cjk
      ? !single || (before !== CJK && after !== CJK)
      : (before === SEPARATOR || before === CJK) && (after === SEPARATOR || after === CJK);
    if (isWhole) return origin === undefined ? [at, end] : [origin[at]!, origin[end]!];
  }
  return undefined;
}
