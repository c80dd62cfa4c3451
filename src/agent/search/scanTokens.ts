import { CJK, classOf, SEPARATOR } from './charClass.js';

/**
 * Receives one token of a scan: the code-unit range `[start, end)` of already folded text, and whether
 * it is a CJK bigram (or single CJK character) rather than a word.
 */
export type TokenSink = (start: number, end: number, cjk: boolean) => void;

/**
 * Scan folded text (NFKC, lower case) into tokens, in one linear pass without regular expressions:
 * runs of word characters are words; runs of Han, Hiragana, Katakana and Hangul give their overlapping
 * bigrams, or their one character when the run has one. Astral characters count as one character.
 *
 * @param text - folded text (see `foldText`).
 * @param emit - called for each token, in order.
 */
export function scanTokens(text: string, emit: TokenSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let cp = text.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const cls = classOf(cp) & 3;
    if (cls === SEPARATOR) {
      i += width;
      continue;
    }
    const start = i;
    i += width;
    const cjk = cls === CJK;
    let previous = start;
    let count = 1;
    while (i < n) {
      let next = text.charCodeAt(i);
      let w = 1;
      if (next >= 0xd800 && next <= 0xdbff && i + 1 < n) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          next = (next - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          w = 2;
        }
      }
      const c = classOf(next) & 3;
      if (c === SEPARATOR || (c === CJK) !== cjk) break;
      if (cjk) {
        emit(previous, i + w, true);
        previous = i;
      }
      i += w;
      count++;
    }
    if (!cjk) emit(start, i, false);
    else if (count === 1) emit(start, i, true);
  }
}
