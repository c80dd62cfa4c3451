/**
 * What a page's text keeps of one line's inline markup (`pageText`, the text that search, excerpts
 * and leads read): character references are decoded (`&lt;` is `<`, `&#x27;` is `'`), and in `.md`
 * pages raw HTML is not text: tags (`<Badge type="info" text="new" />`, `<kbd>`, `</span>`) go with
 * their attributes and HTML comments go whole, while the text between tags stays. Code spans and
 * backslash escapes are text as written (`` `&amp;` `` and `\<b>` stay). A tag or comment may run
 * on over the next lines of its paragraph; the caller drops those lines' part up to its end. So
 * may a code span; the caller keeps those lines' part up to its end as written.
 *
 * Forward scans with `charCodeAt`; the tag grammar is CommonMark's (`htmlSyntax.ts`), each tag read
 * over at most `MAX_TAG` code units and each code span left open at a line's end looked for over
 * at most `MAX_CODE_SPAN`, so a line costs at most that much per `<` or backtick run and the scan
 * stays linear. Internal to `src/markdown`.
 */
import {
  AMPERSAND,
  BACKSLASH,
  BACKTICK,
  BANG,
  CR,
  DASH,
  GT,
  LF,
  LT,
  SLASH,
  SPACE,
  TAB,
  isAlnum,
  isAlpha,
  isSpaceOrLineEnding,
  onlySpaceOrTab,
} from './chars.js';
import { endsParagraph } from './leafStarts.js';
import { characterReference } from './characterReference.js';
import { closeTagEnd, openTagEnd, tagNameEnd } from './htmlSyntax.js';

/** The longest tag or comment removed, in code units: a longer one stays as written. */
export const MAX_TAG = 1000;

/**
 * How far past a line's end a code span left open there is looked for, in code units: a span that
 * closes further on is read as if not closed (its backticks text, what follows read as usual), so
 * a line costs at most this much per open span and the scan stays linear.
 */
export const MAX_CODE_SPAN = 1000;

/** `inlineText` flag: raw HTML is not text (`.md` pages; in MDX, JSX has its own reader). */
export const STRIP_HTML = 1;
/** `inlineText` flag: character references are decoded. */
export const DECODE = 2;
/** `inlineText` flag: a tag may run on over the next lines of its paragraph. */
export const OVER_LINES = 4;
/**
 * `inlineText` flag, with `OVER_LINES`: the line is a raw HTML block's, which goes on to a blank
 * line whatever the lines in between start (a paragraph's lines stop at a heading, a list item, …).
 */
export const IN_HTML_BLOCK = 8;

/**
 * Tags that a browser shows as a break between words (a line break, a rule, a block or a cell): a
 * removed one leaves a space when words meet, so `a<br>b` reads `a b` while `H<sub>2</sub>O`
 * reads `H2O`.
 */
const BREAKS: ReadonlySet<string> = new Set([
  'br',
  'hr',
  'p',
  'div',
  'td',
  'th',
  'tr',
  'li',
  'ul',
  'ol',
  'dd',
  'dt',
  'table',
  'pre',
  'blockquote',
  'section',
  'details',
  'summary',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/**
 * Whether the line `[p, end)` holds anything `inlineText` would change: with `DECODE` an `&`, with
 * `STRIP_HTML` a `<` followed by a letter, `/` or `!`, and, with `OVER_LINES` (a paragraph's line),
 * a code span not closed on the line (it may close on a later one, which then stays as written).
 *
 * @param text - the page's text.
 * @param p - the line's first character kept.
 * @param end - the line's end.
 * @param flags - `STRIP_HTML`, `DECODE`, `OVER_LINES`, `IN_HTML_BLOCK`.
 * @returns `false` when the line can stay as it is.
 */
export function holdsInline(text: string, p: number, end: number, flags: number): boolean {
  const decode = (flags & DECODE) !== 0;
  const html = (flags & STRIP_HTML) !== 0;
  const spans = (flags & (OVER_LINES | IN_HTML_BLOCK)) === OVER_LINES;
  for (; p < end; p++) {
    const c = text.charCodeAt(p);
    if (c === BACKTICK && spans) {
      // A code span left open at the line's end may close on a later line: `inlineText` looks.
      const after = codeSpanEnd(text, p, end);
      if (!closesOnLine(text, p, after)) return true;
      p = after - 1;
      continue;
    }
    if (c === AMPERSAND && decode) return true;
    if (c === LT && html) {
      const d = text.charCodeAt(p + 1);
      if (isAlpha(d) || d === SLASH || d === BANG) return true;
    }
  }
  return false;
}

/**
 * Pushes onto `out` what the text keeps of the line `[p, end)`; see the module's description.
 *
 * @param text - the page's text.
 * @param p - the line's first character to read.
 * @param end - the line's end (before its line ending).
 * @param flags - `STRIP_HTML`, `DECODE`, `OVER_LINES` and `IN_HTML_BLOCK`.
 * @param out - the pieces of the text, appended to.
 * @returns where a tag or comment that runs on past `end` ends (the caller drops the next lines'
 *   text up to there); minus where a code span that runs on past `end` ends (the caller keeps the
 *   next lines' text up to there as written), a number below `-end`; or `-1`.
 * @example
 * ```ts
 * const out: string[] = [];
 * inlineText('`useData` <Badge text="new" /> &lt;T&gt;', 0, 39, STRIP_HTML | DECODE, out);
 * out.join(''); // '`useData`  <T>'
 * ```
 */
export function inlineText(
  text: string,
  p: number,
  end: number,
  flags: number,
  out: string[],
): number {
  const decode = (flags & DECODE) !== 0;
  const html = (flags & STRIP_HTML) !== 0;
  let keep = p;
  /** The line's last `>` and last `<` (`-2`: not looked for yet). */
  let lastGt = -2;
  let lastLt = -2;
  while (p < end) {
    const c = text.charCodeAt(p);
    if (c === BACKTICK) {
      const after = codeSpanEnd(text, p, end);
      if (!closesOnLine(text, p, after) && (flags & (OVER_LINES | IN_HTML_BLOCK)) === OVER_LINES) {
        // Not closed on its line: a run as long on a later line of the paragraph closes it, and
        // what lies between is code, as written (CommonMark's code spans go over line endings).
        const close = codeSpanCloseOver(
          text,
          after - p,
          end,
          paragraphLimit(text, end, end + MAX_CODE_SPAN, true),
        );
        if (close > end) {
          if (end > keep) out.push(text.slice(keep, end));
          return -close;
        }
      }
      p = after;
    } else if (c === BACKSLASH) p += 2;
    else if (c === AMPERSAND && decode) {
      const ref = characterReference(text, p);
      if (ref === undefined || ref[1] > end) p++;
      else {
        if (p > keep) out.push(text.slice(keep, p));
        // A reference never breaks the line: the text keeps the page's lines.
        out.push(ref[0].includes('\n') || ref[0].includes('\r') ? ' ' : ref[0]);
        keep = p = ref[1];
      }
    } else if (c === LT && html) {
      if (lastGt === -2) {
        lastGt = lastOf(text, p, end, GT);
        lastLt = lastOf(text, p, end, LT);
      }
      // A tag or comment ends with `>`: on its line, or, for the line's last `<` with no `>` after
      // it, over the next lines (so a line's tags are read over the next lines once at most).
      let close = -1;
      if (lastGt > p) close = htmlEnd(text, p, end);
      else if (lastLt === p && (flags & OVER_LINES) !== 0)
        close = htmlEnd(
          text,
          p,
          paragraphLimit(text, end, p + MAX_TAG, (flags & IN_HTML_BLOCK) === 0),
        );
      if (close < 0) {
        p++;
        continue;
      }
      if (p > keep) out.push(text.slice(keep, p));
      if (breaksWords(text, p) && p > 0 && !isSpaceOrLineEnding(text.charCodeAt(p - 1)))
        out.push(' ');
      if (close > end) return close;
      keep = p = close;
    } else p++;
  }
  if (end > keep) out.push(text.slice(keep, end));
  return -1;
}

/**
 * The end of the tag or HTML comment at `text[p] === '<'` that ends by `limit` (and within
 * `MAX_TAG`), or `-1`. Processing instructions, declarations and CDATA stay text.
 */
function htmlEnd(text: string, p: number, limit: number): number {
  const end = Math.min(limit, p + MAX_TAG);
  const c = text.charCodeAt(p + 1);
  if (isAlpha(c)) {
    const name = tagNameEnd(text, p + 1, end);
    return openTagEnd(text, name, end);
  }
  if (c === SLASH) {
    const name = tagNameEnd(text, p + 2, end);
    return name < 0 ? -1 : closeTagEnd(text, name, end);
  }
  if (c !== BANG || !text.startsWith('--', p + 2)) return -1;
  if (text.charCodeAt(p + 4) === GT) return p + 5; // <!-->
  if (text.startsWith('->', p + 4)) return p + 6; // <!--->
  for (let i = p + 4; i + 3 <= end; i++)
    if (text.charCodeAt(i) === DASH && text.startsWith('-->', i)) return i + 3;
  return -1;
}

/** Whether the tag at `text[p] === '<'` is one that `BREAKS` lists (any case). */
function breaksWords(text: string, p: number): boolean {
  const from = text.charCodeAt(p + 1) === SLASH ? p + 2 : p + 1;
  let to = from;
  while (to < from + 11 && to < text.length && isAlnum(text.charCodeAt(to))) to++;
  return to > from && BREAKS.has(text.slice(from, to).toLowerCase());
}

/** The last index of `code` in `[from, end)`, or `-1`. */
function lastOf(text: string, from: number, end: number, code: number): number {
  for (let i = end - 1; i >= from; i--) if (text.charCodeAt(i) === code) return i;
  return -1;
}

/**
 * Where the paragraph (or raw HTML block) that goes on after the line ending at `end` stops, reading
 * no further than `limit`: before its first blank line (a tag never spans one), and, for a
 * paragraph, before its first line that starts a block interrupting it (`endsParagraph`: a heading,
 * a list item, a fence, …); else `limit` (or the text's end). Lines are judged as at top level (in a
 * block quote, the next line's `>` ends the look). A line that `limit` cuts is judged by what it
 * holds before `limit` (a rule or an underline there holds no `>`, so no tag could close on it).
 */
function paragraphLimit(text: string, end: number, limit: number, paragraph: boolean): number {
  const stop = Math.min(limit, text.length);
  let lineBreak = end;
  while (lineBreak < stop) {
    const start =
      lineBreak +
      (text.charCodeAt(lineBreak) === CR && text.charCodeAt(lineBreak + 1) === LF ? 2 : 1);
    let lineEnd = start;
    while (lineEnd < stop) {
      const c = text.charCodeAt(lineEnd);
      if (c === LF || c === CR) break;
      lineEnd++;
    }
    if (onlySpaceOrTab(text, start, lineEnd))
      return lineEnd < stop || stop === text.length ? lineBreak : stop;
    if (paragraph) {
      // Indented four columns or more (a tab among the first four), the line goes on the paragraph.
      let first = start;
      while (first - start < 3 && text.charCodeAt(first) === SPACE) first++;
      const c = text.charCodeAt(first);
      if (c !== SPACE && c !== TAB && endsParagraph(text, first, lineEnd)) return lineBreak;
    }
    lineBreak = lineEnd;
  }
  return stop;
}

/**
 * The end of the code span whose opening backtick run starts at `p` (after its closing run), or the
 * end of the run when no run of the same length closes it on this line.
 *
 * @param text - the page's text.
 * @param p - the first backtick of the run.
 * @param end - the line's end.
 * @returns where reading goes on.
 */
export function codeSpanEnd(text: string, p: number, end: number): number {
  let k = p;
  while (k < end && text.charCodeAt(k) === BACKTICK) k++;
  const run = k - p;
  let from = k;
  while (from < end) {
    let close = from; // on the line only
    while (close < end && text.charCodeAt(close) !== BACKTICK) close++;
    if (close >= end) break;
    let stop = close;
    while (stop < end && text.charCodeAt(stop) === BACKTICK) stop++;
    if (stop - close === run) return stop;
    from = stop;
  }
  return k;
}

/**
 * Whether the run at `p`, read by `codeSpanEnd` up to `after`, closed on its line: `after` is then
 * past the closing run, with code between (else it is the opening run's end).
 */
function closesOnLine(text: string, p: number, after: number): boolean {
  for (let i = p; i < after; i++) if (text.charCodeAt(i) !== BACKTICK) return true;
  return false;
}

/**
 * The end of the first run of exactly `run` backticks within `[from, limit)` (just past it), or
 * `-1`: where a code span left open at a line's end closes on a later line. A run that `limit` cuts
 * closes nothing.
 */
function codeSpanCloseOver(text: string, run: number, from: number, limit: number): number {
  let i = text.indexOf('`', from);
  while (i !== -1 && i < limit) {
    let stop = i;
    while (stop < limit && text.charCodeAt(stop) === BACKTICK) stop++;
    if (text.charCodeAt(stop) === BACKTICK) return -1; // cut by `limit`
    if (stop - i === run) return stop;
    i = text.indexOf('`', stop);
  }
  return -1;
}
