/**
 * The leaf blocks that hold inline text: paragraphs, setext and ATX headings, read with
 * `BlockScanner` over a whole text. What the link scanner and page summaries read; code, raw HTML
 * and thematic breaks hold no inline text and are left out. Internal.
 */
import { BlockScanner } from './blockScanner.js';
import { atxText } from './leafStarts.js';
import { ATX_HEADING, PARAGRAPH_LINE, PARAGRAPH_START, SETEXT_UNDERLINE } from './lineKinds.js';
import { LineReader } from './lines.js';

/** A paragraph or a heading, its text with the container prefixes stripped. */
export interface TextBlock {
  /**
   * `paragraph` (which may begin with link reference definitions), `setext` (a paragraph underlined
   * with `=` or `-`, which may too) or `atx` (`# Title`).
   */
  readonly kind: 'paragraph' | 'setext' | 'atx';
  /**
   * The block's lines joined by `\n`, each from its first character after the container prefixes
   * and the indentation; an ATX heading's text without its `#` sequences.
   */
  readonly text: string;
  /** Source line (1-based) of the text's first line; the rest follow one per `\n`. */
  readonly line: number;
}

/**
 * Read `text` into its paragraphs and headings, in source order. Linear in `text.length`, whatever
 * the nesting depth.
 *
 * @param text - CommonMark text; LF, CRLF and CR line endings.
 * @returns the text blocks; a setext heading is its paragraph with `kind: 'setext'`.
 * @example
 * ```ts
 * scanTextBlocks('# Title\n\n> a\nlazy\n');
 * // [{ kind: 'atx', text: 'Title', line: 1 }, { kind: 'paragraph', text: 'a\nlazy', line: 3 }]
 * ```
 */
export function scanTextBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  const scanner = new BlockScanner(text);
  let parts: string[] = [];
  let firstLine = 0;
  const flush = (kind: 'paragraph' | 'setext'): void => {
    if (parts.length === 0) return;
    blocks.push({ kind, text: parts.join('\n'), line: firstLine });
    parts = [];
  };

  const lines = new LineReader(text);
  let lineNo = 0;
  while (lines.read()) {
    lineNo++;
    const end = lines.end;
    scanner.contentAt = -1;
    const kind = scanner.line(lines.start, end, lines.first, lines.code);
    const at = scanner.contentAt < 0 ? lines.first : scanner.contentAt;
    if (kind === PARAGRAPH_LINE) {
      if (parts.length === 0) firstLine = lineNo;
      parts.push(text.slice(at, end));
    } else {
      flush(kind === SETEXT_UNDERLINE ? 'setext' : 'paragraph');
      if (kind === PARAGRAPH_START) {
        firstLine = lineNo;
        parts.push(text.slice(at, end));
      } else if (kind === ATX_HEADING) {
        const [from, to] = atxText(text, at, end);
        blocks.push({ kind: 'atx', text: text.slice(from, to), line: lineNo });
      }
    }
  }
  flush('paragraph');
  return blocks;
}
