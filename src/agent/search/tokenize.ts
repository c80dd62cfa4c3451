import { foldText } from './foldText.js';
import { scanTokens } from './scanTokens.js';

/**
 * The search tokenizer, for indexed text and queries alike: NFKC, lower case, words for scripts written
 * with spaces (split on every character that is not a letter, number or mark), and overlapping
 * character bigrams for runs of Han, Hiragana, Katakana and Hangul (the one character of a
 * one-character run). Linear in the text; no backtracking.
 *
 * @param text - any text.
 * @returns the tokens in text order, repeats kept.
 * @example
 * ```ts
 * tokenize('Ｒenewal 通知书'); // ['renewal', '通知', '知书']
 * ```
 */
export function tokenize(text: string): string[] {
  const folded = foldText(text);
  const tokens: string[] = [];
  scanTokens(folded, (start, end) => {
    tokens.push(folded.slice(start, end));
  });
  return tokens;
}
