/**
 * Raw HTML as CommonMark recognises it: inline tags (which bind tighter than link brackets, so a `]`
 * inside an attribute is not a bracket) and the seven kinds of HTML block start. Forward-only scans.
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

const RAW_NAMES: readonly string[] = ['script', 'pre', 'style', 'textarea'];
const BLOCK_NAMES: ReadonlySet<string> = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

/** How an HTML block ends: the marker of kinds 1–5 (found on any line), or `''` for a blank line (6, 7). */
export type HtmlBlockEnd = string;

/**
 * Whether `line[pos]` (after at most three spaces of indentation) starts an HTML block, and how it
 * ends: `undefined` when it starts none. Kind 7 (any complete tag alone on its line) cannot interrupt a
 * paragraph.
 */
export function htmlBlockStart(
  line: string,
  pos: number,
  inParagraph: boolean,
): HtmlBlockEnd | undefined {
  if (line.charCodeAt(pos) !== 60) return undefined;
  const end = line.length;
  const c = line.charCodeAt(pos + 1);
  if (c === 33 /* ! */) {
    if (line.startsWith('--', pos + 2)) return '-->';
    if (line.startsWith('[CDATA[', pos + 2)) return ']]>';
    if (isAlpha(line.charCodeAt(pos + 2))) return '>';
    return undefined;
  }
  if (c === 63) return '?>';
  const closing = c === 47;
  const nameStart = pos + (closing ? 2 : 1);
  const nameEnd = tagName(line, nameStart, end);
  if (nameEnd < 0) return undefined;
  const name = line.slice(nameStart, nameEnd).toLowerCase();
  const next = line.charCodeAt(nameEnd);
  const boundary = nameEnd >= end || next === 32 || next === 9 || next === 62;
  if (!closing && RAW_NAMES.includes(name) && boundary) return `</${name}>`;
  if (BLOCK_NAMES.has(name) && (boundary || (next === 47 && line.charCodeAt(nameEnd + 1) === 62)))
    return '';
  if (inParagraph || (!closing && RAW_NAMES.includes(name))) return undefined;
  let i: number;
  if (closing) {
    i = nameEnd;
    while (i < end && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (line.charCodeAt(i) !== 62) return undefined;
    i++;
  } else {
    i = openTagRest(line, nameEnd, end, false);
    if (i < 0) return undefined;
  }
  while (i < end && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return i === end ? '' : undefined;
}

/** Whether `line` holds the end marker of an HTML block of kinds 1–5 (case-insensitive for kind 1). */
export function htmlBlockEnds(line: string, from: number, marker: HtmlBlockEnd): boolean {
  if (marker === '') return false;
  if (marker.startsWith('</')) return line.toLowerCase().includes(marker, from);
  return line.includes(marker, from);
}
