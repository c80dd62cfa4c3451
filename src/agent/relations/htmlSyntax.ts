/**
 * Inline raw HTML as CommonMark recognises it: tags (which bind tighter than link brackets, so a `]`
 * inside an attribute is not a bracket), comments, processing instructions, declarations and CDATA.
 * Forward-only scans. Raw HTML blocks are the block scanner's (`src/markdown/htmlBlock.ts`).
 */

const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isWs = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

/** After a tag name starting at `pos` (a letter), or `-1`. */
function tagName(s: string, pos: number, end: number): number {
  if (pos >= end || !isAlpha(s.charCodeAt(pos))) return -1;
  let i = pos + 1;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (!isAlpha(c) && !isDigit(c) && c !== 45) break;
    i++;
  }
  return i;
}

/** After the attributes and the closing `>` / `/>` of an open tag whose name ends at `pos`, or `-1`. */
function openTagRest(s: string, pos: number, end: number, allowNewline: boolean): number {
  let i = pos;
  for (;;) {
    const before = i;
    while (i < end && isWs(s.charCodeAt(i)) && (allowNewline || s.charCodeAt(i) !== 10)) i++;
    const c = s.charCodeAt(i);
    if (c === 62 /* > */) return i + 1;
    if (c === 47 /* / */) return s.charCodeAt(i + 1) === 62 ? i + 2 : -1;
    if (i === before) return -1; // an attribute needs whitespace before it
    if (!(isAlpha(c) || c === 95 || c === 58)) return -1;
    i++;
    while (i < end) {
      const a = s.charCodeAt(i);
      if (!(isAlpha(a) || isDigit(a) || a === 95 || a === 46 || a === 58 || a === 45)) break;
      i++;
    }
    let j = i;
    while (j < end && isWs(s.charCodeAt(j)) && (allowNewline || s.charCodeAt(j) !== 10)) j++;
    if (s.charCodeAt(j) !== 61 /* = */) continue;
    j++;
    while (j < end && isWs(s.charCodeAt(j)) && (allowNewline || s.charCodeAt(j) !== 10)) j++;
    const q = s.charCodeAt(j);
    if (q === 34 || q === 39) {
      const close = s.indexOf(q === 34 ? '"' : "'", j + 1);
      if (close < 0 || close >= end) return -1;
      if (!allowNewline && s.slice(j, close).includes('\n')) return -1;
      i = close + 1;
    } else {
      const start = j;
      while (j < end) {
        const v = s.charCodeAt(j);
        if (isWs(v) || v === 34 || v === 39 || v === 61 || v === 60 || v === 62 || v === 96) break;
        j++;
      }
      if (j === start) return -1;
      i = j;
    }
  }
}

/**
 * Inline raw HTML at `s[pos] === '<'`: an open or closing tag, a comment, a processing instruction, a
 * declaration or a CDATA section. Returns the position after it, or `-1`.
 */
export function inlineHtmlEnd(s: string, pos: number, end: number): number {
  const c = s.charCodeAt(pos + 1);
  if (isAlpha(c)) {
    const name = tagName(s, pos + 1, end);
    return openTagRest(s, name, end, true);
  }
  if (c === 47 /* / */) {
    const name = tagName(s, pos + 2, end);
    if (name < 0) return -1;
    let i = name;
    while (i < end && isWs(s.charCodeAt(i))) i++;
    return s.charCodeAt(i) === 62 ? i + 1 : -1;
  }
  if (c === 63 /* ? */) return after(s, '?>', pos + 2, end);
  if (c !== 33 /* ! */) return -1;
  if (s.startsWith('--', pos + 2)) {
    if (s.charCodeAt(pos + 4) === 62) return pos + 5; // <!-->
    if (s.startsWith('->', pos + 4)) return pos + 6; // <!--->
    return after(s, '-->', pos + 4, end);
  }
  if (s.startsWith('[CDATA[', pos + 2)) return after(s, ']]>', pos + 9, end);
  if (isAlpha(s.charCodeAt(pos + 2))) return after(s, '>', pos + 3, end);
  return -1;
}

function after(s: string, marker: string, from: number, end: number): number {
  const at = s.indexOf(marker, from);
  return at < 0 || at + marker.length > end ? -1 : at + marker.length;
}
