/**
 * The block structure of CommonMark, as far as links and page summaries need it: which lines are
 * paragraphs and headings (whose inline text may hold links) and which are code or raw HTML (which
 * never do), with block quotes, list items, lazy continuation lines and link reference definitions.
 * One pass over the lines with an explicit container stack; it follows the reference algorithm
 * (commonmark.js `blocks.js`), and remark-parse is its test oracle.
 */
import { htmlBlockEnds, htmlBlockStart } from './htmlSyntax.js';
import {
  normalizeLabel,
  parseDestination,
  parseLabel,
  parseTitle,
  skipSpaces,
} from './linkSyntax.js';
import { decodeMarkdownString } from './decodeMarkdownString.js';

/** A paragraph or heading: inline text, lines joined by `\n`, each line's leading whitespace removed. */
export interface LeafBlock {
  readonly kind: 'paragraph' | 'heading';
  /** `true` for an ATX heading (`# Title`), `false` for a setext heading and for paragraphs. */
  readonly atx: boolean;
  readonly text: string;
  /** Source line (1-based) of the text's first line; the rest follow one per `\n`. */
  readonly line: number;
}

/** A link reference definition: its decoded destination and normalized label. */
export interface Definition {
  readonly url: string;
  readonly label: string;
  readonly line: number;
}

/** The inline blocks of a document in source order, and its definitions. */
export interface BlockScan {
  readonly leaves: readonly LeafBlock[];
  readonly definitions: readonly Definition[];
}

interface Container {
  readonly quote: boolean;
  /** For a list item, the columns its content is indented by. */
  readonly indent: number;
  hasChild: boolean;
}

const NONE = 0;
const PARAGRAPH = 1;
const FENCE = 2;
const CODE = 3;
const HTML = 4;

/** Characters that may start a block other than a paragraph (after fewer than four columns of indentation). */
const SPECIAL = new Uint8Array(128);
for (const c of '#`~*+_=<>-0123456789') SPECIAL[c.charCodeAt(0)] = 1;

const isSpace = (c: number): boolean => c === 32 || c === 9;

/**
 * Scan `text` into its paragraphs, headings and link reference definitions. Linear in the text's length
 * (each line is read a bounded number of times per open container).
 */
export function scanBlocks(text: string): BlockScan {
  const leaves: LeafBlock[] = [];
  const definitions: Definition[] = [];
  const stack: Container[] = [];
  let leaf = NONE;
  let paraLines: string[] = [];
  let paraLine = 0;
  let fenceChar = 0;
  let fenceLength = 0;
  let htmlEnd = '';

  const closeLeaf = (): void => {
    if (leaf === PARAGRAPH) {
      const rest = takeDefinitions(paraLines.join('\n'), paraLine, definitions);
      if (rest !== undefined)
        leaves.push({ kind: 'paragraph', atx: false, text: rest.text, line: rest.line });
      paraLines = [];
    }
    leaf = NONE;
  };
  const addChild = (): void => {
    const top = stack[stack.length - 1];
    if (top !== undefined && !top.quote) top.hasChild = true;
  };

  let line = '';
  let len = 0;
  let off = 0;
  let col = 0;
  let nn = 0;
  let nnCol = 0;
  let indent = 0;
  let blank = false;
  const findNonspace = (): void => {
    let i = off;
    let c = col;
    while (i < len) {
      const ch = line.charCodeAt(i);
      if (ch === 32) c++;
      else if (ch === 9) c += 4 - (c % 4);
      else break;
      i++;
    }
    nn = i;
    nnCol = c;
    indent = c - col;
    blank = i === len;
  };
  const advanceColumns = (count: number): void => {
    while (count > 0 && off < len) {
      if (line.charCodeAt(off) === 9) {
        const width = 4 - (col % 4);
        if (width > count) {
          col += count; // a partly consumed tab: the rest of it counts as spaces
          return;
        }
        col += width;
        count -= width;
      } else {
        col++;
        count--;
      }
      off++;
    }
  };
  const toNonspace = (): void => {
    off = nn;
    col = nnCol;
  };

  const processLine = (lineNo: number): void => {
    off = 0;
    col = 0;
    let matched = 0;
    for (; matched < stack.length; matched++) {
      const container = stack[matched]!;
      findNonspace();
      if (container.quote) {
        if (indent > 3 || line.charCodeAt(nn) !== 62) break;
        toNonspace();
        off++;
        col++;
        if (isSpace(line.charCodeAt(off))) advanceColumns(1);
      } else if (blank) {
        if (!container.hasChild) break;
        toNonspace();
      } else if (indent >= container.indent) advanceColumns(container.indent);
      else break;
    }
    const allMatched = matched === stack.length;
    findNonspace();
    if (allMatched) {
      if (leaf === FENCE) {
        if (indent <= 3 && isFenceClose(line, nn, fenceChar, fenceLength)) leaf = NONE;
        return;
      }
      if (leaf === CODE) {
        if (indent >= 4 || blank) return;
        leaf = NONE;
      } else if (leaf === HTML) {
        if (blank && htmlEnd === '') leaf = NONE;
        else if (htmlBlockEnds(line, nn, htmlEnd)) leaf = NONE;
        return;
      } else if (blank) {
        closeLeaf();
        return;
      }
    }

    let closed = false;
    const closeUnmatched = (): void => {
      if (!closed && matched < stack.length) {
        closeLeaf();
        stack.length = matched;
      }
      closed = true;
    };
    const startBlock = (): void => {
      closeUnmatched();
      closeLeaf();
      addChild();
    };
    let started = false;
    for (;;) {
      findNonspace();
      const ch = line.charCodeAt(nn);
      if (indent < 4 && !(ch < 128 && SPECIAL[ch] === 1)) break;
      const paraContinues = allMatched && !started && leaf === PARAGRAPH;
      if (indent < 4) {
        if (ch === 62 /* > */) {
          startBlock();
          toNonspace();
          off++;
          col++;
          if (isSpace(line.charCodeAt(off))) advanceColumns(1);
          stack.push({ quote: true, indent: 0, hasChild: false });
          matched = stack.length;
          started = true;
          continue;
        }
        if (ch === 35 /* # */) {
          const content = atxContent(line, nn);
          if (content !== undefined) {
            startBlock();
            leaves.push({ kind: 'heading', atx: true, text: content, line: lineNo });
            return;
          }
        }
        if (ch === 96 || ch === 126) {
          const length = fenceOpen(line, nn);
          if (length > 0) {
            startBlock();
            leaf = FENCE;
            fenceChar = ch;
            fenceLength = length;
            return;
          }
        }
        if (ch === 60) {
          const end = htmlBlockStart(line, nn, leaf === PARAGRAPH);
          if (end !== undefined) {
            startBlock();
            if (!htmlBlockEnds(line, nn, end)) {
              leaf = HTML;
              htmlEnd = end;
            }
            return;
          }
        }
        if ((ch === 61 || ch === 45) && paraContinues && isSetextUnderline(line, nn)) {
          const rest = takeDefinitions(paraLines.join('\n'), paraLine, definitions);
          paraLines = [];
          if (rest !== undefined) {
            leaves.push({ kind: 'heading', atx: false, text: rest.text, line: rest.line });
            leaf = NONE;
            return;
          }
        }
        if ((ch === 42 || ch === 45 || ch === 95) && isThematicBreak(line, nn)) {
          startBlock();
          return;
        }
      }
      if (indent < 4 || (!started && matched < stack.length && !stack[matched]!.quote)) {
        const item = listItem(line, nn, paraContinues);
        if (item !== undefined) {
          startBlock();
          toNonspace();
          const markerOffset = indent;
          off = item.markerEnd;
          col += item.markerEnd - nn;
          const width = item.markerEnd - nn;
          const spacesStart = off;
          const spacesCol = col;
          findNonspace();
          const spaces = nnCol - spacesCol;
          let padding: number;
          if (spaces >= 5 || spaces < 1 || blank) {
            padding = width + 1;
            off = spacesStart;
            col = spacesCol;
            if (isSpace(line.charCodeAt(off))) advanceColumns(1);
          } else {
            padding = width + spaces;
            toNonspace();
          }
          stack.push({ quote: false, indent: markerOffset + padding, hasChild: false });
          matched = stack.length;
          started = true;
          continue;
        }
      }
      if (indent >= 4 && leaf !== PARAGRAPH && !blank) {
        advanceColumns(4);
        startBlock();
        leaf = CODE;
        return;
      }
      break;
    }
    findNonspace();
    if (!closed && !allMatched && !blank && leaf === PARAGRAPH) {
      if (paraLines.length === 0) paraLine = lineNo;
      paraLines.push(line.slice(nn)); // a lazy continuation line
      return;
    }
    closeUnmatched();
    if (blank) {
      closeLeaf();
      return;
    }
    if (leaf !== PARAGRAPH) {
      closeLeaf();
      addChild();
      leaf = PARAGRAPH;
    }
    if (paraLines.length === 0) paraLine = lineNo;
    paraLines.push(line.slice(nn));
  };

  let start = 0;
  let lineNo = 1;
  const total = text.length;
  let lf = -2;
  let cr = -2;
  while (start <= total) {
    if (lf < start && lf !== -1) lf = text.indexOf('\n', start);
    if (cr < start && cr !== -1) cr = text.indexOf('\r', start);
    const end = lf === -1 ? (cr === -1 ? total : cr) : cr === -1 ? lf : Math.min(lf, cr);
    line = text.slice(start, end);
    len = line.length;
    processLine(lineNo);
    if (end >= total) break;
    start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    lineNo++;
  }
  closeLeaf();
  return { leaves, definitions };
}

/** The content of an ATX heading at `line[pos] === '#'`, or `undefined`. */
function atxContent(line: string, pos: number): string | undefined {
  let i = pos;
  while (i < line.length && line.charCodeAt(i) === 35) i++;
  if (i - pos > 6 || (i < line.length && !isSpace(line.charCodeAt(i)))) return undefined;
  let start = skipSpaces(line, i, line.length);
  let end = line.length;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  let hashes = end;
  while (hashes > start && line.charCodeAt(hashes - 1) === 35) hashes--;
  if (hashes === start) end = start;
  else if (hashes < end && isSpace(line.charCodeAt(hashes - 1))) {
    end = hashes;
    while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  }
  if (start > end) start = end;
  return line.slice(start, end);
}

/** Length of a fence opener at `pos`, or 0. A backtick fence's info string holds no backtick. */
function fenceOpen(line: string, pos: number): number {
  const ch = line.charCodeAt(pos);
  let i = pos;
  while (line.charCodeAt(i) === ch) i++;
  const length = i - pos;
  if (length < 3) return 0;
  if (ch === 96 && line.indexOf('`', i) >= 0) return 0;
  return length;
}

function isFenceClose(line: string, pos: number, ch: number, length: number): boolean {
  let i = pos;
  while (line.charCodeAt(i) === ch) i++;
  return i - pos >= length && skipSpaces(line, i, line.length) === line.length;
}

function isSetextUnderline(line: string, pos: number): boolean {
  const ch = line.charCodeAt(pos);
  let i = pos;
  while (line.charCodeAt(i) === ch) i++;
  return skipSpaces(line, i, line.length) === line.length;
}

function isThematicBreak(line: string, pos: number): boolean {
  const ch = line.charCodeAt(pos);
  let count = 0;
  for (let i = pos; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === ch) count++;
    else if (!isSpace(c)) return false;
  }
  return count >= 3;
}

/** A list marker at `pos` followed by a space, a tab or the line's end; `markerEnd` is after it. */
function listItem(
  line: string,
  pos: number,
  interruptsParagraph: boolean,
): { readonly markerEnd: number; readonly ordered: boolean } | undefined {
  const ch = line.charCodeAt(pos);
  let end: number;
  let ordered = false;
  if (ch === 42 || ch === 43 || ch === 45) end = pos + 1;
  else {
    let i = pos;
    while (i - pos < 10 && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
    const digits = i - pos;
    const delimiter = line.charCodeAt(i);
    if (digits === 0 || digits > 9 || (delimiter !== 46 && delimiter !== 41)) return undefined;
    if (interruptsParagraph && !(digits === 1 && ch === 49)) return undefined;
    end = i + 1;
    ordered = true;
  }
  if (end < line.length && !isSpace(line.charCodeAt(end))) return undefined;
  if (interruptsParagraph && skipSpaces(line, end, line.length) === line.length) return undefined;
  return { markerEnd: end, ordered };
}

/**
 * Take the link reference definitions at the start of a paragraph's text, adding them to `out`; return
 * what is left of the paragraph (and the line it starts on), or `undefined` when nothing is.
 */
function takeDefinitions(
  text: string,
  line: number,
  out: Definition[],
): { text: string; line: number } | undefined {
  let pos = 0;
  let lineNo = line;
  const end = text.length;
  while (pos < end && text.charCodeAt(pos) === 91) {
    const labelEnd = parseLabel(text, pos, end);
    if (labelEnd < 0 || text.charCodeAt(labelEnd + 1) !== 58 /* : */) break;
    let i = skipSpaces(text, labelEnd + 2, end);
    if (text.charCodeAt(i) === 10) i = skipSpaces(text, i + 1, end);
    const destination = parseDestination(text, i, end);
    if (
      destination === undefined ||
      (destination.next === destination.start && text.charCodeAt(i) !== 60)
    )
      break;
    let next = -1;
    // A title, after whitespace (at most one line ending), then nothing but spaces on its last line.
    let j = skipSpaces(text, destination.next, end);
    const lineEndAfterDestination = j >= end || text.charCodeAt(j) === 10;
    if (text.charCodeAt(j) === 10) j = skipSpaces(text, j + 1, end);
    if (j > destination.next) {
      const titleEnd = parseTitle(text, j, end);
      if (titleEnd >= 0) {
        const k = skipSpaces(text, titleEnd, end);
        if (k >= end || text.charCodeAt(k) === 10) next = k;
      }
    }
    if (next < 0) {
      if (!lineEndAfterDestination) break;
      next = skipSpaces(text, destination.next, end);
    }
    out.push({
      url: decodeMarkdownString(text, destination.start, destination.end),
      label: normalizeLabel(text.slice(pos + 1, labelEnd)),
      line: lineNo,
    });
    for (let k = pos; k < next; k++) if (text.charCodeAt(k) === 10) lineNo++;
    pos = next < end ? next + 1 : end;
    if (next < end) lineNo++;
  }
  if (pos >= end) return undefined;
  return { text: pos === 0 ? text : text.slice(pos), line: lineNo };
}
