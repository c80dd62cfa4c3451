/**
 * The pieces of CommonMark link syntax shared by inline links and link reference definitions:
 * destinations, titles and labels. Each parser reads forward from a position and returns where it
 * stopped, or `-1`; none backtracks.
 */

const BACKSLASH = 92;

/** Space, tab or line feed: Markdown whitespace inside link syntax (a paragraph holds no blank line). */
export function isLinkSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10;
}

/** `s[pos]` onwards past spaces, tabs and line feeds. */
export function skipLinkSpace(s: string, pos: number, end: number): number {
  while (pos < end && isLinkSpace(s.charCodeAt(pos))) pos++;
  return pos;
}

/** `s[pos]` onwards past spaces and tabs. */
export function skipSpaces(s: string, pos: number, end: number): number {
  while (pos < end) {
    const c = s.charCodeAt(pos);
    if (c !== 32 && c !== 9) break;
    pos++;
  }
  return pos;
}

/** Where a destination was found: its text `[start, end)` (inside `<…>` when angled) and what follows. */
export interface Destination {
  readonly start: number;
  readonly end: number;
  readonly next: number;
}

/** Deepest unescaped parenthesis nesting of a raw destination (micromark's and commonmark.js's limit). */
const MAX_BALANCE = 32;

/**
 * A link destination at `pos`: `<…>` (no line ending, no unescaped `<` or `>`), or raw text with
 * balanced unescaped parentheses and no space or control character. A raw destination may be empty
 * (the caller decides whether that is allowed).
 */
export function parseDestination(s: string, pos: number, end: number): Destination | undefined {
  if (s.charCodeAt(pos) === 60 /* < */) {
    let i = pos + 1;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === 62 /* > */) return { start: pos + 1, end: i, next: i + 1 };
      if (c === 10 || c === 60) return undefined;
      i += c === BACKSLASH && i + 1 < end && s.charCodeAt(i + 1) !== 10 ? 2 : 1;
    }
    return undefined;
  }
  let depth = 0;
  let i = pos;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c <= 32 || c === 127) break;
    if (c === BACKSLASH && i + 1 < end && isEscapable(s.charCodeAt(i + 1))) {
      i += 2;
      continue;
    }
    if (c === 40 /* ( */) {
      if (depth >= MAX_BALANCE) return undefined;
      depth++;
    } else if (c === 41 /* ) */) {
      if (depth === 0) break;
      depth--;
    }
    i++;
  }
  return depth === 0 ? { start: pos, end: i, next: i } : undefined;
}

function isEscapable(c: number): boolean {
  return (
    (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
  );
}

/**
 * A link title at `pos` (`"…"`, `'…'` or `(…)`): the position after its closing mark, or `-1`. As in
 * micromark (remark), a `(…)` title may hold an unescaped `(`, which the CommonMark spec refuses.
 */
export function parseTitle(s: string, pos: number, end: number): number {
  const open = s.charCodeAt(pos);
  const close = open === 40 ? 41 : open;
  if (open !== 34 && open !== 39 && open !== 40) return -1;
  let i = pos + 1;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === close) return i + 1;
    i += c === BACKSLASH && i + 1 < end ? 2 : 1;
  }
  return -1;
}

/** Longest link label, in characters between the brackets. */
const MAX_LABEL = 999;

/**
 * A link label at `s[pos] === '['`: the index of its closing `]`, or `-1`. At most 999 characters, no
 * unescaped `[`, and at least one character that is not whitespace.
 */
export function parseLabel(s: string, pos: number, end: number): number {
  let i = pos + 1;
  let seen = false;
  const limit = Math.min(end, pos + 1 + MAX_LABEL + 1);
  while (i < limit) {
    const c = s.charCodeAt(i);
    if (c === 93 /* ] */) return seen && i - pos - 1 <= MAX_LABEL ? i : -1;
    if (c === 91 /* [ */) return -1;
    if (!isLinkSpace(c)) seen = true;
    if (c === BACKSLASH && i + 1 < end && isEscapable(s.charCodeAt(i + 1))) i++;
    i++;
  }
  return -1;
}

/** A label as definitions and references match it: whitespace collapsed, trimmed, case-folded. */
export function normalizeLabel(label: string): string {
  let out = '';
  let space = false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) space = out.length > 0;
    else {
      if (space) out += ' ';
      space = false;
      out += label[i];
    }
  }
  return out.toLowerCase().toUpperCase();
}
