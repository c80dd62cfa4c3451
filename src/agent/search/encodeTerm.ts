import { CJK, classOf } from './charClass.js';

/** First character of an encoded CJK term: a separator, so no word token can start with it. */
export const CJK_TERM_MARK = '#';
const HEX = '0123456789abcdef';

/**
 * MiniSearch's `processTerm`: a CJK token (bigram or single character) becomes `#` and four hex digits
 * per UTF-16 code unit; words pass unchanged. MiniSearch's radix tree scans a node's children one by
 * one, and CJK text puts thousands of distinct first characters under its root, which made indexing
 * Chinese about five times slower per token than English; hex digits bound every node to 16 children.
 *
 * @param term - a token of `tokenize`.
 * @returns the indexed term.
 */
export function encodeTerm(term: string): string {
  const first = term.codePointAt(0);
  if (first === undefined || first < 0x1100 || (classOf(first) & 3) !== CJK) return term;
  let out = CJK_TERM_MARK;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    out += HEX[(c >> 12) & 15]! + HEX[(c >> 8) & 15]! + HEX[(c >> 4) & 15]! + HEX[c & 15]!;
  }
  return out;
}

/**
 * The token an indexed term came from (inverse of `encodeTerm`).
 *
 * @param term - an indexed term.
 * @returns the token.
 */
export function decodeTerm(term: string): string {
  if (!term.startsWith(CJK_TERM_MARK)) return term;
  let out = '';
  for (let i = 1; i + 4 <= term.length; i += 4)
    out += String.fromCharCode(Number.parseInt(term.slice(i, i + 4), 16));
  return out;
}
