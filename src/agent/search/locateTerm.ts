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
  let best: readonly [number, number] | undefined;
  const upper = term.toUpperCase();
  const variants =
    upper === term
      ? [term]
      : [term, term[0]!.toUpperCase() + term.slice(1), upper].filter(
          (v) => v.length === term.length,
        );
  for (const variant of variants) {
    // Once a hit is known, only an earlier one matters: search the text before it (a hit starting
    // there ends inside the slice, so its edge check reads the real next character).
    const within = best === undefined ? text : text.slice(0, best[0] + variant.length);
    const hit = find(within, undefined, variant);
    if (hit === undefined || (best !== undefined && hit[0] >= best[0])) continue;
    if (foldText(text.slice(hit[0], hit[1])) === term) best = hit;
  }
  if (best !== undefined) return best;
  if (ASCII.test(text)) return find(text.toLowerCase(), undefined, term);
  // Another mix of cases (`WeakMap` for `weakmap`): the lower-cased text, as long as the text for
  // nearly every script, before folding piece by piece.
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    const hit = find(lower, undefined, term);
    if (hit !== undefined && foldText(text.slice(hit[0], hit[1])) === term) return hit;
  }
  const whole = foldText(text);
  if (whole.length === text.length) {
    const hit = find(whole, undefined, term);
    if (hit === undefined || foldText(text.slice(hit[0], hit[1])) === term) return hit;
  }
  const { folded, origin } = foldWithOrigin(text);
  return find(folded, origin, term);
}

function find(
  folded: string,
  origin: Int32Array | undefined,
  term: string,
): readonly [number, number] | undefined {
  const first = term.codePointAt(0)!;
  const cjk = (classOf(first) & 3) === CJK;
  const single = term.length === (first > 0xffff ? 2 : 1);
  for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1)) {
    const end = at + term.length;
    const before = classBefore(folded, at);
    const after = classAt(folded, end);
    const whole = cjk
      ? !single || (before !== CJK && after !== CJK)
      : (before === SEPARATOR || before === CJK) && (after === SEPARATOR || after === CJK);
    if (whole) return origin === undefined ? [at, end] : [origin[at]!, origin[end]!];
  }
  return undefined;
}
