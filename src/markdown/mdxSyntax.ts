/**
 * MDX's own syntax, as far as a page's text needs it: where an ESM statement (`import …`,
 * `export …`) starts and ends, the string value of `export const title = "…"`, and JSX tags,
 * `{expressions}` and `{/* comments *\/}` inside text, which are not text. Forward scans with
 * `charCodeAt`/`indexOf` whose state carries from one line to the next (a tag's attributes, an
 * expression or a string may span lines); no regular expression runs on the author's text.
 * Internal to `src/markdown`.
 */
import {
  APOSTROPHE,
  AT,
  BACKSLASH,
  BACKTICK,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  COLON,
  DASH,
  DOLLAR,
  EQUALS,
  GT,
  LOWER_N,
  LOWER_T,
  LT,
  OPEN_BRACE,
  OPEN_BRACKET,
  OPEN_PAREN,
  PERIOD,
  QUOTATION_MARK,
  SLASH,
  SPACE,
  STAR,
  TAB,
  UNDERSCORE,
  isAlpha,
  isAlnum,
  skipSpaceOrTab,
} from './chars.js';
import { codeSpanEnd } from './inlineText.js';

/** `quote` while inside a block comment (`/* … *\/`). */
const IN_COMMENT = -1;

/**
 * Whether the line `[p, end)` starts an MDX ESM statement: `import` or `export` followed by a blank,
 * `{` or `*` (where micromark-extension-mdxjs-esm starts one). The caller checks that the line is a
 * paragraph's first line at the top level.
 *
 * @param text - the page's text.
 * @param p - the line's first character.
 * @param end - the line's end.
 * @returns whether an ESM block starts here.
 */
export function isEsmStart(text: string, p: number, end: number): boolean {
  let k: number;
  if (text.startsWith('import', p)) k = p + 6;
  else if (text.startsWith('export', p)) k = p + 6;
  else return false;
  if (k >= end) return false;
  const c = text.charCodeAt(k);
  return c === SPACE || c === TAB || c === OPEN_BRACE || c === STAR;
}

/**
 * The lexical state of JavaScript across the lines of one ESM block: open brackets, an open string
 * or template literal, an open block comment. An ESM block ends at a blank line where nothing is
 * open (MDX reads statements up to a blank line, and on past it while the code is unfinished).
 */
export class EsmReader {
  /** Open `(`, `[` and `{` minus their closers. */
  depth = 0;
  /** The open string's quote, `IN_COMMENT`, or 0. */
  quote = 0;

  /** Reads the line `[p, end)` and updates the state. Linear in the line. */
  line(text: string, p: number, end: number): void {
    let depth = this.depth;
    let quote = this.quote;
    while (p < end) {
      if (quote !== 0) {
        p = closeOf(text, p, end, quote);
        if (p < 0) {
          p = end;
          break;
        }
        quote = 0;
        continue;
      }
      const c = text.charCodeAt(p);
      if (c === QUOTATION_MARK || c === APOSTROPHE || c === BACKTICK) quote = c;
      else if (c === SLASH && p + 1 < end) {
        const d = text.charCodeAt(p + 1);
        if (d === SLASH) break; // a line comment
        if (d === STAR) {
          quote = IN_COMMENT;
          p += 2;
          continue;
        }
      } else if (c === OPEN_BRACE || c === OPEN_PAREN || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_PAREN || c === CLOSE_BRACKET) {
        if (depth > 0) depth--;
      }
      p++;
    }
    // A single-quoted string never spans lines; only templates and comments do.
    this.quote = quote === QUOTATION_MARK || quote === APOSTROPHE ? 0 : quote;
    this.depth = depth;
  }

  /** Whether the statements read so far are finished (a blank line here ends the block). */
  get closed(): boolean {
    return this.depth === 0 && this.quote === 0;
  }
}

/**
 * Where the string, template or comment opened by `quote` closes, searching `[p, end)`: the index
 * after its closer, or -1 when it does not close on this line. Backslash escapes are skipped.
 */
function closeOf(text: string, p: number, end: number, quote: number): number {
  if (quote === IN_COMMENT) {
    // On the line only: a comment open over many lines is searched once per line.
    for (let i = p; i + 1 < end; i++)
      if (text.charCodeAt(i) === STAR && text.charCodeAt(i + 1) === SLASH) return i + 2;
    return -1;
  }
  while (p < end) {
    const c = text.charCodeAt(p);
    if (c === BACKSLASH) p += 2;
    else if (c === quote) return p + 1;
    else p++;
  }
  return -1;
}

/**
 * The value of `export const NAME = 'literal'` when the line `[p, end)` is that statement for
 * `name` (a string literal in single or double quotes, simple escapes decoded), else `undefined`.
 * A template literal counts only without `${`.
 *
 * @example
 * ```ts
 * exportedString('export const title = "flex";', 0, 28, 'title'); // 'flex'
 * ```
 */
export function exportedString(
  text: string,
  p: number,
  end: number,
  name: string,
): string | undefined {
  let k = skipSpaceOrTab(text, p + 6, end); // after `export`
  if (k === p + 6 || !text.startsWith('const', k)) return undefined;
  const afterConst = skipSpaceOrTab(text, k + 5, end);
  if (afterConst === k + 5 || !text.startsWith(name, afterConst)) return undefined;
  k = skipSpaceOrTab(text, afterConst + name.length, end);
  if (k >= end || text.charCodeAt(k) !== EQUALS) return undefined;
  k = skipSpaceOrTab(text, k + 1, end);
  const quote = text.charCodeAt(k);
  if (quote !== QUOTATION_MARK && quote !== APOSTROPHE && quote !== BACKTICK) return undefined;
  const parts: string[] = [];
  let from = k + 1;
  for (let i = k + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      parts.push(text.slice(from, i));
      return parts.join('');
    }
    if (c === BACKSLASH && i + 1 < end) {
      parts.push(text.slice(from, i));
      const e = text.charCodeAt(i + 1);
      parts.push(e === LOWER_N ? '\n' : e === LOWER_T ? '\t' : text.charAt(i + 1));
      i++;
      from = i + 1;
    } else if (c === DOLLAR && quote === BACKTICK && text.charCodeAt(i + 1) === OPEN_BRACE)
      return undefined;
  }
  return undefined;
}

const TEXT = 0;
const TAG = 1;
const EXPRESSION = 2;

/**
 * Removes JSX from MDX text, line by line: tags (`<Card title="x">`, `</Card>`, `<br />`, `<>`)
 * with their attributes, `{expressions}` and `{/* comments *\/}`, keeping the text between them.
 * Code spans (`` `<Tabs>` ``) and backslash escapes are text. The state carries over lines, so a
 * tag whose attributes span lines is removed whole; `reset` drops it (at code, where JSX cannot be).
 */
export class JsxStripper {
  private state = TEXT;
  /** The state an expression returns to: `TEXT`, or `TAG` for an attribute's value. */
  private outer = TEXT;
  private depth = 0;
  private quote = 0;

  /** Whether a tag or an expression is open (the next line continues it). */
  get open(): boolean {
    return this.state !== TEXT;
  }

  /** Back to text (nothing open). */
  reset(): void {
    this.state = TEXT;
    this.depth = 0;
    this.quote = 0;
  }

  /** Whether the line `[p, end)` can be left as it is: nothing is open and it holds no `<` or `{`. */
  untouched(text: string, p: number, end: number): boolean {
    if (this.state !== TEXT) return false;
    for (; p < end; p++) {
      const c = text.charCodeAt(p);
      if (c === LT || c === OPEN_BRACE) return false;
    }
    return true;
  }

  /**
   * Pushes onto `out` the text of `[p, end)` with the JSX removed. Linear in the line.
   *
   * @returns the text pieces kept, on `out` (nothing when the whole line is JSX).
   */
  line(text: string, p: number, end: number, out: string[]): void {
    let keep = this.state === TEXT ? p : -1;
    let state = this.state;
    let depth = this.depth;
    let quote = this.quote;
    while (p < end) {
      if (state === TEXT) {
        const c = text.charCodeAt(p);
        if (c === BACKTICK) p = codeSpanEnd(text, p, end);
        else if (c === BACKSLASH) p += 2;
        else if (c === OPEN_BRACE || (c === LT && isTagStart(text, p + 1, end))) {
          if (p > keep) out.push(text.slice(keep, p));
          keep = -1;
          if (c === OPEN_BRACE) {
            state = EXPRESSION;
            this.outer = TEXT;
            depth = 1;
          } else state = TAG;
          p++;
        } else p++;
        continue;
      }
      if (quote !== 0) {
        const close = closeOf(text, p, end, quote);
        if (close < 0) {
          p = end;
          break;
        }
        quote = 0;
        p = close;
        continue;
      }
      const c = text.charCodeAt(p);
      if (c === QUOTATION_MARK || c === APOSTROPHE || (state === EXPRESSION && c === BACKTICK))
        quote = c;
      else if (
        c === SLASH &&
        state === EXPRESSION &&
        p + 1 < end &&
        text.charCodeAt(p + 1) === STAR
      ) {
        quote = IN_COMMENT;
        p += 2;
        continue;
      } else if (state === TAG) {
        if (c === OPEN_BRACE) {
          state = EXPRESSION;
          this.outer = TAG;
          depth = 1;
        } else if (c === GT) {
          state = TEXT;
          keep = p + 1;
        }
      } else if (c === OPEN_BRACE) depth++;
      else if (c === CLOSE_BRACE && --depth === 0) {
        state = this.outer;
        if (state === TEXT) keep = p + 1;
      }
      p++;
    }
    if (state === TEXT && keep >= 0 && keep < end) out.push(text.slice(keep, end));
    this.state = state;
    this.depth = depth;
    // A string in an attribute or expression may span lines; a comment too.
    this.quote = quote;
  }
}

/**
 * Whether `<` before `p` opens a JSX tag: a letter, `_`, `$`, `/` or `>` (a fragment) follows, and
 * the name is not an autolink's scheme or an e-mail address (`<https://…>`, `<a@b.c>`).
 */
function isTagStart(text: string, p: number, end: number): boolean {
  if (p >= end) return false;
  const c = text.charCodeAt(p);
  if (c === SLASH || c === GT) return true;
  if (!isAlpha(c) && c !== UNDERSCORE && c !== DOLLAR) return false;
  let k = p + 1;
  while (k < end) {
    const d = text.charCodeAt(k);
    if (!isAlnum(d) && d !== DASH && d !== PERIOD && d !== UNDERSCORE) break;
    k++;
  }
  if (k >= end) return true;
  const d = text.charCodeAt(k);
  return d !== COLON && d !== AT;
}
