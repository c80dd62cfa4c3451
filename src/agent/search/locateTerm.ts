import { CJK, classOf, MARK, SEPARATOR } from './charClass.js';
import { foldText } from './foldText.js';

const ASCII = /^[\u0000-\u007f]*$/;

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
  const t0 = term.charCodeAt(0);
  const letter = t0 >= 0x61 && t0 <= 0x7a;
  const upper = letter ? String.fromCharCode(t0 - 32) : undefined;
  const kelvin = t0 === 0x6b;
  let at = -1;
  for (;;) {
    // The next place the first character is, in any case that lower-cases to it.
    let next = text.indexOf(term[0]!, at + 1);
    if (upper !== undefined) {
      const u = text.indexOf(upper, at + 1);
      if (u !== -1 && (next === -1 || u < next)) next = u;
    }
    if (kelvin) {
      const k = text.indexOf('\u212a', at + 1);
      if (k !== -1 && (next === -1 || k < next)) next = k;
    }
    if (next === -1 || next + n > text.length) return undefined;
    at = next;
    let k = 1;
    for (; k < n; k++) {
      const c = text.charCodeAt(at + k);
      const t = term.charCodeAt(k);
      if (c !== t && !(t >= 0x61 && t <= 0x7a && c === t - 32) && !(t === 0x6b && c === 0x212a))
        break;
    }
    if (k < n) continue;
    const before = classBefore(text, at);
    const after = classAt(text, at + n);
    if ((before === SEPARATOR || before === CJK) && (after === SEPARATOR || after === CJK))
      return [at, at + n];
  }
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
