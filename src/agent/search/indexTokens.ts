import { classOf, SEPARATOR } from './charClass.js';
import { foldText } from './foldText.js';
import { scanTokens } from './scanTokens.js';

/** Most parts an identifier compound joins (`a-b-c-…`); longer runs stop growing compounds. */
export const MAX_COMPOUND_PARTS = 6;

/**
 * Receives one index token: its folded text; whether it is a CJK bigram or character; whether it is an
 * identifier compound (two or more words joined by connectors, emitted after its last part); and its
 * start in the folded text (for a compound, its first part's).
 */
export type IndexTokenSink = (
  token: string,
  cjk: boolean,
  compound: boolean,
  start: number,
) => void;

/**
 * Whether the code unit joins two words of one identifier: `-`, `_`, `.`, `/`, `:` (and so `::`).
 */
function isConnector(c: number): boolean {
  return c === 45 || c === 95 || c === 46 || c === 47 || c === 58;
}

/** Whether the code unit is a sigil that names carry before them: `$` (`$state`), `@` (`@render`), `#` (`#each`). */
function isSigil(c: number): boolean {
  return c === 36 || c === 64 || c === 35;
}

/**
 * The tokens the index and queries use: `tokenize`'s tokens (words and CJK bigrams), plus identifier
 * compounds kept whole (`v-if`, `no-unused-vars`, `std::fs`, `snake_case`, `main.rs`): when words
 * are joined by one connector (`-`, `_`, `.`, `/`, `:`, or `::`) with no space, each growing prefix
 * of the run (`std::fs`, then `std::fs::read`) is emitted after the word that ends it. Linear in the
 * text; no regular expression.
 *
 * @param text - any text (folded here: NFKC, lower case).
 * @param emit - called for each token, in text order.
 */
export function indexTokens(text: string, emit: IndexTokenSink): void {
  const folded = foldText(text);
  let runStart = -1;
  let lastEnd = -1;
  let parts = 0;
  scanTokens(folded, (start, end, cjk) => {
    if (cjk) {
      runStart = -1;
      emit(folded.slice(start, end), true, false, start);
      return;
    }
    emit(folded.slice(start, end), false, false, start);
    // A name with its sigils (`$state`, `$$props`, `@render`, `#each`), when they start a word.
    let from = start;
    while (from > 0 && isSigil(folded.charCodeAt(from - 1))) from--;
    if (from < start && (from === 0 || (classOf(folded.charCodeAt(from - 1)) & 3) === SEPARATOR))
      emit(folded.slice(from, end), false, true, from);
    const gap = start - lastEnd;
    const joined =
      runStart !== -1 &&
      ((gap === 1 && isConnector(folded.charCodeAt(lastEnd))) ||
        (gap === 2 && folded.charCodeAt(lastEnd) === 58 && folded.charCodeAt(lastEnd + 1) === 58));
    if (joined && parts < MAX_COMPOUND_PARTS) {
      parts++;
      emit(folded.slice(runStart, end), false, true, runStart);
    } else {
      runStart = start;
      parts = 1;
    }
    lastEnd = end;
  });
}

/**
 * The key of a whole heading (or a whole query) as the index keeps it beside the heading's words:
 * its words and CJK bigrams (no compounds) joined by spaces after `HEADING_KEY_MARK` (`\u0001`), which no token holds
 * (so no word and no pair has this key). A query whose key is a heading's names that heading exactly.
 *
 * @param text - a heading's text, or a query.
 * @returns the key, `''` when the text has no token.
 */
export function headingKey(text: string): string {
  let key = '';
  indexTokens(text, (token, _cjk, compound) => {
    if (!compound) key = withWord(key, token);
  });
  return key;
}

/** What starts every heading key (`headingKey`): no token holds it. */
export const HEADING_KEY_MARK = '\u0001';

/** A heading key with one more word: the mark before the first, a space before each other. */
function withWord(key: string, token: string): string {
  return key === '' ? HEADING_KEY_MARK + token : `${key} ${token}`;
}

/**
 * The heading keys of a page's file name without its extension: the whole name (`headingKey`:
 * `i18n`), and each run of two to `HEADING_KEY_MAX_WORDS` of its words that is not the whole
 * (`setting-up-social-cards`: `setting up`, `social cards`, `up social cards`, …), so that a query
 * naming part of a page's file name names that page. A single word of the name names nothing
 * (`social` is in many names).
 *
 * @param stem - the file name without its extension.
 * @returns the keys, the whole name's first; none for a name without words.
 */
export function fileNameKeys(stem: string): string[] {
  const words: string[] = [];
  indexTokens(stem, (token, _cjk, compound) => {
    if (!compound) words.push(token);
  });
  if (words.length === 0) return [];
  const keys = [words.reduce(withWord, '')];
  for (let from = 0; from < words.length; from++) {
    let key = withWord('', words[from]!);
    for (let to = from + 1; to < words.length && to - from < HEADING_KEY_MAX_WORDS; to++) {
      key = withWord(key, words[to]!);
      if (to - from + 1 < words.length) keys.push(key);
    }
  }
  return keys;
}

/**
 * Most words a query may have for a heading to name it with one word left out (`headingKeysOf`), and
 * most words of a run of a file name kept as a heading (`fileNameKeys`).
 */
export const HEADING_KEY_MAX_WORDS = 6;

/** One heading key a query may match: the key, and the token it leaves out (`''`: none). */
export interface QueryHeadingKey {
  readonly key: string;
  readonly without: string;
}

/**
 * The heading keys a query may match, from its tokens (`indexTokens`, compounds left out): the
 * query whole (`headingKey`), then, for a query of 2 to `HEADING_KEY_MAX_WORDS` tokens, the query
 * without one of its words (not a CJK bigram), in query order. Whether a shorter key counts (its
 * word common enough to leave out) is the planner's choice (`planQuery`); a term store is asked for
 * every key.
 *
 * @param tokens - the query's non-compound tokens, in order, each with whether it is CJK.
 * @returns the keys, the whole query's first; none when there is no token.
 */
export function headingKeysOf(
  tokens: readonly { readonly token: string; readonly cjk: boolean }[],
): QueryHeadingKey[] {
  if (tokens.length === 0) return [];
  const join = (skip: number): string => {
    let key = '';
    for (let j = 0; j < tokens.length; j++) if (j !== skip) key = withWord(key, tokens[j]!.token);
    return key;
  };
  const keys: QueryHeadingKey[] = [{ key: join(-1), without: '' }];
  if (tokens.length >= 2 && tokens.length <= HEADING_KEY_MAX_WORDS)
    for (let i = 0; i < tokens.length; i++)
      if (!tokens[i]!.cjk) keys.push({ key: join(i), without: tokens[i]!.token });
  return keys;
}
