/**
 * Character classes of the search tokenizer, by code point: separators, word characters, Latin letters
 * (which may be matched fuzzily) and the CJK scripts that are cut into bigrams. Classified once per
 * code point with precompiled Unicode property expressions, then cached (a table for the BMP, a map
 * for astral planes), so the scanners only read a byte per character.
 */

/** Not part of any token: whitespace, punctuation, symbols, unpaired surrogates. */
export const SEPARATOR = 0;
/** A letter, number or mark of a script written with spaces (other than Latin letters). */
export const WORD = 1;
/** A letter of the Latin script. */
export const LATIN = 2;
/** A letter, number or mark of Han, Hiragana, Katakana or Hangul: cut into bigrams. */
export const CJK = 3;
/** Flag added to the class of a combining mark (`\p{M}`), which joins the character before it. */
export const MARK = 4;

const WORDISH = /^[\p{L}\p{N}\p{M}]$/u;
const CJK_SCRIPTS = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u;
const LATIN_SCRIPT = /^\p{sc=Latin}$/u;
const COMBINING = /^\p{M}$/u;
const UNKNOWN = 255;

const bmp = new Uint8Array(0x10000).fill(UNKNOWN);
const astral = new Map<number, number>();
for (let c = 0; c < 0x80; c++) {
  bmp[c] =
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)
      ? LATIN
      : c >= 0x30 && c <= 0x39
        ? WORD
        : SEPARATOR;
}
// Surrogate code units alone are separators; the scanners pair them before asking.
bmp.fill(SEPARATOR, 0xd800, 0xe000);

function classify(codePoint: number): number {
  const s = String.fromCodePoint(codePoint);
  if (!WORDISH.test(s)) return SEPARATOR;
  const mark = COMBINING.test(s) ? MARK : 0;
  if (CJK_SCRIPTS.test(s)) return CJK | mark;
  return (LATIN_SCRIPT.test(s) ? LATIN : WORD) | mark;
}

/**
 * The class of one code point: `SEPARATOR`, `WORD`, `LATIN` or `CJK`, plus `MARK` for combining marks.
 *
 * @param codePoint - a Unicode code point.
 * @returns its class bits; mask with `3` for the base class.
 */
export function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    let c = bmp[codePoint]!;
    if (c === UNKNOWN) bmp[codePoint] = c = classify(codePoint);
    return c;
  }
  let c = astral.get(codePoint);
  if (c === undefined) astral.set(codePoint, (c = classify(codePoint)));
  return c;
}
