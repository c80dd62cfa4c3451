/**
 * The block structure of CommonMark, as far as links and page summaries need it: the paragraphs and
 * headings (whose inline text may hold links) and the link reference definitions that begin
 * paragraphs. The blocks come from the project's one block scanner (`src/markdown`), which the
 * anchor parser reads too; this file only takes the definitions out of the paragraphs' text.
 * remark-parse is its test oracle.
 */
import { LF, OPEN_BRACKET, COLON, skipSpaceOrTab } from '../../markdown/chars.js';
import { scanTextBlocks } from '../../markdown/leafBlocks.js';
import {
  FAIL,
  destinationEnd,
  destinationText,
  labelEnd,
  normalizeLabel,
  titleClose,
  titleEnd,
} from '../../markdown/linkSyntax.js';
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

/**
 * Scan `text` into its paragraphs, headings and link reference definitions. Linear in the text's
 * length, whatever the nesting depth.
 *
 * @param text - CommonMark text; LF, CRLF and CR line endings.
 * @returns the paragraphs and headings in source order (without the definitions that begin them),
 *   and the definitions.
 * @example
 * ```ts
 * scanBlocks('# T\n\n[a]: /x\ntext');
 * // leaves: heading 'T' (atx), paragraph 'text' (line 4); definitions: [{ url: '/x', label: 'A', line: 3 }]
 * ```
 */
export function scanBlocks(text: string): BlockScan {
  const leaves: LeafBlock[] = [];
  const definitions: Definition[] = [];
  for (const block of scanTextBlocks(text)) {
    if (block.kind === 'atx') {
      leaves.push({ kind: 'heading', atx: true, text: block.text, line: block.line });
      continue;
    }
    const rest = takeDefinitions(block.text, block.line, definitions);
    if (rest === undefined) continue;
    leaves.push({
      kind: block.kind === 'setext' ? 'heading' : 'paragraph',
      atx: false,
      text: rest.text,
      line: rest.line,
    });
  }
  return { leaves, definitions };
}

/**
 * Take the link reference definitions at the start of a paragraph's text, adding them to `out`; return
 * what is left of the paragraph (and the line it starts on), or `undefined` when nothing is. Reads
 * with the block scanner's readers (`src/markdown/linkSyntax.ts`), over the paragraph's lines joined.
 */
function takeDefinitions(
  text: string,
  line: number,
  out: Definition[],
): { text: string; line: number } | undefined {
  let pos = 0;
  let lineNo = line;
  const end = text.length;
  while (pos < end && text.charCodeAt(pos) === OPEN_BRACKET) {
    const labelClose = labelEnd(text, pos + 1, end);
    if (labelClose < 0 || text.charCodeAt(labelClose + 1) !== COLON) break;
    let i = skipSpaceOrTab(text, labelClose + 2, end);
    if (text.charCodeAt(i) === LF) i = skipSpaceOrTab(text, i + 1, end);
    const destEnd = destinationEnd(text, i, end);
    if (destEnd === FAIL) break;
    let next = -1;
    // A title, after whitespace (at most one line ending), then nothing but spaces on its last line.
    let j = skipSpaceOrTab(text, destEnd, end);
    const lineEndAfterDestination = j >= end || text.charCodeAt(j) === LF;
    if (text.charCodeAt(j) === LF) j = skipSpaceOrTab(text, j + 1, end);
    const close = j > destEnd ? titleClose(text.charCodeAt(j)) : 0;
    if (close !== 0) {
      const after = titleEnd(text, j + 1, end, close);
      if (after !== FAIL) {
        const k = skipSpaceOrTab(text, after, end);
        if (k >= end || text.charCodeAt(k) === LF) next = k;
      }
    }
    if (next < 0) {
      if (!lineEndAfterDestination) break;
      next = skipSpaceOrTab(text, destEnd, end);
    }
    const [urlStart, urlEnd] = destinationText(text, i, destEnd);
    out.push({
      url: decodeMarkdownString(text, urlStart, urlEnd),
      label: normalizeLabel(text.slice(pos + 1, labelClose)),
      line: lineNo,
    });
    for (let k = pos; k < next; k++) if (text.charCodeAt(k) === LF) lineNo++;
    pos = next < end ? next + 1 : end;
    if (next < end) lineNo++;
  }
  if (pos >= end) return undefined;
  return { text: pos === 0 ? text : text.slice(pos), line: lineNo };
}
