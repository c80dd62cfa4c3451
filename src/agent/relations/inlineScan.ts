/**
 * The inline pass over one paragraph or heading: code spans, escapes, character references, autolinks
 * and raw HTML first (they bind tighter than brackets), then links and images by CommonMark's bracket
 * algorithm (an explicit opener stack; a link deactivates the link openers before it). It reports
 * each inline link's destination and, on request, the plain text with the markup removed. Linear in
 * the text's length, but for pathological runs of unclosed titles or attribute quotes.
 */
import {
  AMPERSAND,
  AT,
  BACKSLASH,
  BACKTICK,
  BANG,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  COLON,
  DASH,
  DEL,
  GT,
  LF,
  LT,
  OPEN_BRACKET,
  OPEN_PAREN,
  PERIOD,
  SPACE,
  STAR,
  UNDERSCORE,
  isAlnum,
  isAlpha,
  isAsciiPunctuation,
  isSchemeChar,
  skipSpaceOrLineEnding,
} from '../../markdown/chars.js';
import { inlineHtmlEnd } from '../../markdown/htmlSyntax.js';
import {
  FAIL,
  INLINE_BALANCE,
  destinationEnd,
  destinationText,
  labelEnd,
  normalizeLabel,
  titleClose,
  titleEnd,
} from '../../markdown/linkSyntax.js';
import { characterReference } from '../../markdown/characterReference.js';
import { decodeMarkdownString } from './decodeMarkdownString.js';

/** An inline link: its decoded destination and the offset of its `[` in the scanned text. */
export interface InlineLink {
  readonly url: string;
  readonly offset: number;
}

/** What `scanInline` found. */
export interface InlineScan {
  readonly links: readonly InlineLink[];
  /** The text without markup (`''` unless asked for): link and image text kept, code without its ticks. */
  readonly text: string;
}

interface Opener {
  readonly pos: number;
  readonly image: boolean;
  /** Index of its `[` / `![` piece in the text output. */
  readonly piece: number;
  /** Links found before it, so an image can drop the links inside its description (remark's tree has none). */
  readonly linksBefore: number;
}

/** Longer link text is never compared with the definitions' labels (a label has at most 999 characters). */
const MAX_REFERENCE_TEXT = 4000;

/** The normalized labels of a document's link reference definitions, as the inline scanner asks them. */
export type Labels = Pick<ReadonlySet<string>, 'has'>;

/**
 * Scan inline text for links.
 *
 * @param s - the text of one paragraph or heading (lines joined by `\n`).
 * @param defined - normalized labels of the document's link reference definitions.
 * @param wantText - also build the plain text.
 */
export function scanInline(s: string, defined: Labels, wantText: boolean): InlineScan {
  const n = s.length;
  const links: InlineLink[] = [];
  const out: string[] = [];
  const openers: Opener[] = [];
  /** Link openers below this index are inactive (a link formed after them). */
  let floor = 0;
  let runs: Map<number, { readonly at: number[]; next: number }> | undefined;
  let textStart = 0;
  const flush = (to: number): void => {
    if (wantText && to > textStart) out.push(stripEmphasis(s.slice(textStart, to)));
  };
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) {
      const next = s.charCodeAt(i + 1);
      if (isAsciiPunctuation(next) || next === LF) {
        flush(i);
        if (wantText) out.push(s[i + 1]!); // as written: an escaped `*` is no emphasis marker
        i = textStart = i + 2;
      } else i++;
    } else if (c === BACKTICK) {
      let j = i;
      while (s.charCodeAt(j) === BACKTICK) j++;
      const length = j - i;
      runs ??= backtickRuns(s);
      const close = closingRun(runs, length, j);
      if (close < 0) i = j;
      else {
        flush(i);
        if (wantText) out.push(codeText(s.slice(j, close)));
        i = textStart = close + length;
      }
    } else if (c === LT) {
      const auto = autolinkEnd(s, i, n);
      const end = auto > 0 ? auto : inlineHtmlEnd(s, i, n);
      if (end > 0) {
        flush(i);
        if (auto > 0 && wantText) out.push(s.slice(i + 1, auto - 1));
        i = textStart = end;
      } else i++;
    } else if (c === AMPERSAND) {
      const ref = characterReference(s, i);
      if (ref === undefined) i++;
      else {
        flush(i);
        if (wantText) out.push(ref[0]);
        i = textStart = ref[1];
      }
    } else if (c === OPEN_BRACKET || (c === BANG && s.charCodeAt(i + 1) === OPEN_BRACKET)) {
      flush(i);
      const image = c === BANG;
      openers.push({ pos: i, image, piece: out.length, linksBefore: links.length });
      if (wantText) out.push(image ? '![' : '[');
      i = textStart = i + (image ? 2 : 1);
    } else if (c === CLOSE_BRACKET) {
      const index = openers.length - 1;
      const opener = openers[index];
      if (opener === undefined) {
        i++;
        continue;
      }
      if (!opener.image && index < floor) {
        openers.pop();
        floor = Math.min(floor, openers.length);
        i++;
        continue;
      }
      const textFrom = opener.pos + (opener.image ? 2 : 1);
      const isDefined =
        i - textFrom <= MAX_REFERENCE_TEXT && defined.has(normalizeLabel(s.slice(textFrom, i)));
      let after = -1;
      let url: string | undefined;
      const next = s.charCodeAt(i + 1);
      if (next === OPEN_PAREN) {
        const resource = parseResource(s, i + 1, n);
        if (resource !== undefined) [url, after] = resource;
        else if (isDefined) after = i + 1;
      } else if (next === OPEN_BRACKET) {
        const labelClose = labelEnd(s, i + 2, n);
        if (labelClose >= 0 && defined.has(normalizeLabel(s.slice(i + 2, labelClose))))
          after = labelClose + 1;
        else if (isDefined && s.charCodeAt(i + 2) === CLOSE_BRACKET) after = i + 3;
      } else if (isDefined) after = i + 1;
      openers.pop();
      floor = Math.min(floor, openers.length);
      if (after < 0) {
        i++;
        continue;
      }
      flush(i);
      if (wantText) out[opener.piece] = '';
      if (opener.image) links.length = opener.linksBefore;
      else {
        if (url !== undefined) links.push({ url, offset: opener.pos });
        floor = openers.length;
      }
      i = textStart = after;
    } else i++;
  }
  flush(n);
  return { links, text: wantText ? out.join('') : '' };
}

/** `(destination "title")` at `s[p] === '('`: the decoded destination and the position after `)`. */
function parseResource(s: string, p: number, n: number): readonly [string, number] | undefined {
  let j = skipSpaceOrLineEnding(s, p + 1, n);
  if (s.charCodeAt(j) === CLOSE_PAREN) return ['', j + 1];
  const destEnd = destinationEnd(s, j, n, INLINE_BALANCE);
  if (destEnd === FAIL) return undefined;
  const [urlStart, urlEnd] = destinationText(s, j, destEnd);
  const url = decodeMarkdownString(s, urlStart, urlEnd);
  j = skipSpaceOrLineEnding(s, destEnd, n);
  if (s.charCodeAt(j) === CLOSE_PAREN) return [url, j + 1];
  const close = titleClose(s.charCodeAt(j));
  if (j === destEnd || close === 0) return undefined;
  const after = titleEnd(s, j + 1, n, close);
  if (after === FAIL) return undefined;
  j = skipSpaceOrLineEnding(s, after, n);
  return s.charCodeAt(j) === CLOSE_PAREN ? [url, j + 1] : undefined;
}

/** Every run of backticks, by length, for finding a code span's closing run in constant time. */
function backtickRuns(s: string): Map<number, { readonly at: number[]; next: number }> {
  const runs = new Map<number, { readonly at: number[]; next: number }>();
  let i = s.indexOf('`');
  while (i >= 0) {
    let j = i;
    while (s.charCodeAt(j) === BACKTICK) j++;
    const entry = runs.get(j - i);
    if (entry === undefined) runs.set(j - i, { at: [i], next: 0 });
    else entry.at.push(i);
    i = s.indexOf('`', j);
  }
  return runs;
}

/** Start of the first run of exactly `length` backticks at or after `from`, or `-1`. */
function closingRun(
  runs: Map<number, { readonly at: number[]; next: number }>,
  length: number,
  from: number,
): number {
  const entry = runs.get(length);
  if (entry === undefined) return -1;
  while (entry.next < entry.at.length && entry.at[entry.next]! < from) entry.next++;
  return entry.next < entry.at.length ? entry.at[entry.next]! : -1;
}

/** A code span's text: line endings as spaces, one space stripped from each end when both have one. */
function codeText(code: string): string {
  const text = code.replaceAll('\n', ' ');
  return text.length > 2 && text.startsWith(' ') && text.endsWith(' ') && text.trim() !== ''
    ? text.slice(1, -1)
    : text;
}

/** The position after an autolink (`<scheme:…>` or `<user@host>`) at `s[i] === '<'`, or `-1`. */
function autolinkEnd(s: string, i: number, n: number): number {
  let j = i + 1;
  if (isAlpha(s.charCodeAt(j))) {
    j++;
    while (j < n && j - i - 1 < 33) {
      const c = s.charCodeAt(j);
      if (!isSchemeChar(c)) break;
      j++;
    }
    const scheme = j - i - 1;
    if (s.charCodeAt(j) === COLON && scheme >= 2 && scheme <= 32) {
      j++;
      while (j < n) {
        const c = s.charCodeAt(j);
        if (c === GT) return j + 1;
        if (c <= SPACE || c === LT || c === DEL) return -1;
        j++;
      }
      return -1;
    }
  }
  // An email address.
  j = i + 1;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (!(isAlnum(c) || ".!#$%&'*+/=?^_`{|}~-".includes(s[j]!))) break;
    j++;
  }
  if (j === i + 1 || s.charCodeAt(j) !== AT) return -1;
  j++;
  for (;;) {
    const start = j;
    while (j < n && j - start < 63 && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === DASH)) j++;
    if (j === start || s.charCodeAt(start) === DASH || s.charCodeAt(j - 1) === DASH) return -1;
    const c = s.charCodeAt(j);
    if (c === GT) return j + 1;
    if (c !== PERIOD) return -1;
    j++;
  }
}

/**
 * Emphasis markers removed from a run of literal text: every `*`, and `_` runs that do not sit
 * between two letters or digits (`snake_case` keeps its underscore). An approximation of CommonMark's
 * delimiter rules that is right for summaries, where a stray marker is only noise.
 */
function stripEmphasis(text: string): string {
  if (!text.includes('*') && !text.includes('_')) return text;
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === STAR) {
      out += text.slice(last, i);
      last = i + 1;
    } else if (c === UNDERSCORE) {
      let j = i;
      while (text.charCodeAt(j) === UNDERSCORE) j++;
      const before = text.codePointAt(i - 1);
      const after = text.codePointAt(j);
      const word = (cp: number | undefined): boolean =>
        cp !== undefined && /[\p{L}\p{N}]/u.test(String.fromCodePoint(cp));
      if (!(word(before) && word(after))) {
        out += text.slice(last, i);
        last = j;
      }
      i = j - 1;
    }
  }
  return out + text.slice(last);
}
