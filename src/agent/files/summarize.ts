/**
 * A page's default title and description from its text: the first ATX heading outside code, and the
 * first paragraph outside code after it, inline markup removed. One pass over the lines, with the
 * core's CommonMark block tracker deciding which lines are code.
 */
import { CommonMarkBlocks, NOT_CODE } from '../../parse/commonMarkBlocks.js';

const DESCRIPTION_CHARS = 200;

/** The heading text of an ATX heading line (`#`–`######`), or `undefined`. */
function atxHeading(line: string): string | undefined {
  let p = 0;
  while (p < 3 && line.charCodeAt(p) === 32) p++;
  let hashes = 0;
  while (line.charCodeAt(p + hashes) === 35) hashes++;
  if (hashes < 1 || hashes > 6) return undefined;
  const after = line.charCodeAt(p + hashes);
  if (p + hashes < line.length && after !== 32 && after !== 9) return undefined;
  let text = line.slice(p + hashes).trim();
  // A closing sequence of #s, preceded by a space, is not part of the text.
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 35) end--;
  if (end === 0) text = '';
  else if (end < text.length && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) text = text.slice(0, end).trim();
  return plainInline(text);
}

/** Whether a non-blank line starts a block other than a paragraph (so it is no description). */
function startsOtherBlock(line: string): boolean {
  const t = line.trimStart();
  const c = t.charCodeAt(0);
  if (c === 35 || c === 62 || c === 60 || c === 124) return true; // # > < |
  if ((c === 45 || c === 42 || c === 43) && (t.length === 1 || t.charCodeAt(1) === 32 || t.charCodeAt(1) === c)) return true;
  if (c >= 48 && c <= 57) {
    let q = 1;
    while (q < t.length && t.charCodeAt(q) >= 48 && t.charCodeAt(q) <= 57) q++;
    const d = t.charCodeAt(q);
    if ((d === 46 || d === 41) && (q + 1 === t.length || t.charCodeAt(q + 1) === 32)) return true;
  }
  if (c === 91 && t.includes(']:')) return true; // a reference definition
  if (c === 95 && t.startsWith('___')) return true;
  return false;
}

/**
 * Text without inline markup: links and images keep their text, code spans their content, emphasis
 * markers and HTML tags go, backslash escapes are resolved, whitespace collapsed. Linear.
 */
export function plainInline(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 && i + 1 < text.length && isAsciiPunctuation(text.charCodeAt(i + 1))) {
      out += text[++i];
    } else if (c === 42 || c === 95 || c === 96 || c === 126) {
      // emphasis, code and strikethrough markers: drop (intraword `_` is kept)
      if (c === 95 && isWord(text.charCodeAt(i - 1)) && isWord(text.charCodeAt(i + 1))) out += '_';
    } else if (c === 33 && text.charCodeAt(i + 1) === 91) {
      // `![alt](…)`: the alt text stays, as link text does
    } else if (c === 91 || c === 93) {
      if (c === 93 && text.charCodeAt(i + 1) === 40) {
        const close = text.indexOf(')', i + 2);
        if (close > 0) i = close;
      } else if (c === 93 && text.charCodeAt(i + 1) === 91) {
        const close = text.indexOf(']', i + 2);
        if (close > 0) i = close;
      }
    } else if (c === 60) {
      const close = text.indexOf('>', i + 1);
      const next = text.charCodeAt(i + 1);
      const tagLike = close > 0 && (isLetter(next) || next === 47 || next === 33);
      if (tagLike) {
        const inner = text.slice(i + 1, close);
        if (inner.includes('://') || inner.includes('@')) out += inner; // an autolink keeps its URL
        i = close;
      } else out += '<';
    } else out += text[i];
  }
  return collapse(out);
}

function isAsciiPunctuation(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isWord(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c > 127;
}

/** Whitespace runs as one space, trimmed. */
function collapse(text: string): string {
  let out = '';
  let space = false;
  for (const ch of text) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v') space = out.length > 0;
    else {
      if (space) out += ' ';
      space = false;
      out += ch;
    }
  }
  return out;
}

/** `text` cut to at most `max` code points, the last being `…` when cut. */
export function cutCodePoints(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('').trimEnd()}…`;
}

/** The first ATX heading's text and the first paragraph after it (or, with no heading, the first one), outside code. */
export function summarize(text: string): { title: string | undefined; description: string | undefined } {
  const blocks = new CommonMarkBlocks(text);
  let title: string | undefined;
  /** The first paragraph before any heading, and the first after the title. */
  let before: string[] | undefined;
  let after: string[] | undefined;
  let open: string[] | undefined;
  let pos = 0;
  while (pos <= text.length && (title === undefined || after === undefined || open !== undefined)) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end);
    let first = pos;
    while (first < end && (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9)) first++;
    const kind = blocks.line(pos, end, first);
    pos = end + 1;
    const blank = first === end;
    if (open !== undefined) {
      if (!blank && kind === NOT_CODE && !startsOtherBlock(line)) {
        open.push(line);
        continue;
      }
      open = undefined;
    }
    if (blank || kind !== NOT_CODE) continue;
    const heading = atxHeading(line);
    if (heading !== undefined) {
      if (title === undefined && heading.length > 0) title = heading;
      continue;
    }
    if (startsOtherBlock(line)) continue;
    if (title === undefined && before === undefined) open = before = [line];
    else if (title !== undefined && after === undefined) open = after = [line];
  }
  const paragraph = title === undefined ? before : after;
  const description = paragraph === undefined ? '' : plainInline(paragraph.join('\n'));
  return { title, description: description.length > 0 ? cutCodePoints(description, DESCRIPTION_CHARS) : undefined };
}
