/**
 * The one line iterator of the package: the lines of a text, as the block scanner wants them fed
 * (`BlockScanner.line`). A line ends at LF, CRLF or CR; each is found with `indexOf`, each line
 * ending searched for once, so reading every line reads the text once. Internal to the package.
 *
 * @example
 * ```ts
 * const lines = new LineReader(text);
 * const blocks = new BlockScanner(text);
 * while (lines.read()) {
 *   const kind = blocks.line(lines.start, lines.end, lines.first, lines.code);
 * }
 * ```
 */
import { CR, LF, SPACE, TAB } from './chars.js';

/** A cursor over the lines of one text: `read` moves it to the next line. */
export class LineReader {
  /**
   * One instance that lives as long as the module, so that V8 keeps the hidden class every instance
   * ends up with between two parses (see `BlockScanner.keepShape`).
   */
  static readonly keepShape = new LineReader('');

  /** Where the current line starts. */
  start = 0;
  /** Where it ends, before its line ending (the text's length for a last line without one). */
  end = 0;
  /** Where the next line starts: after the current line's ending. Past the text after its last line. */
  next = 0;
  /** The current line's first character that is not a space or a tab; `end` when the line is blank. */
  first = 0;
  /** The code of the character at `first` (for a blank line: of its first character, or line ending). */
  code = 0;
  /**
   * Whether `lineEnd` found a CR: some line read so far, or one ahead, ends with CR or CRLF. Every
   * line but an empty one that ends with LF takes `lineEnd`, so a text with a CR line ending says so
   * by the line that ends with it.
   */
  sawCarriageReturn = false;
  // The next LF and CR at or after `next` (or the text's length when there is none): each is
  // searched for again only once passed.
  private lf = -1;
  private cr = -1;

  /**
   * @param text - the whole text.
   * @param from - where its first line starts (1 after a byte order mark).
   */
  constructor(
    readonly text: string,
    from = 0,
  ) {
    this.next = from;
  }

  /**
   * Move to the next line.
   *
   * @returns `false`, and no line, when the text ends at `next`: a text ending with a line ending has
   *   no empty last line.
   */
  read(): boolean {
    const text = this.text;
    const start = this.next;
    if (start >= text.length) return false;
    this.start = start;
    let c = text.charCodeAt(start);
    // An empty line (a third of the lines in the bench's corpora): no `indexOf`, whose call costs
    // more than its search on a short line.
    const end = c === LF ? start : this.lineEnd(start);
    this.end = end;
    this.next = lineAfter(text, end);
    let p = start;
    while ((c === SPACE || c === TAB) && ++p < end) c = text.charCodeAt(p);
    this.first = p;
    this.code = c;
    return true;
  }

  /**
   * The end of the line that starts at `start`: its first LF or CR, or the text's end. For a hot loop
   * that keeps its cursor in locals (the anchor scanner); every `start` at or after the last one asked.
   */
  lineEnd(start: number): number {
    const text = this.text;
    let lf = this.lf;
    let cr = this.cr;
    if (lf < start) {
      lf = text.indexOf('\n', start);
      if (lf < 0) lf = text.length;
      this.lf = lf;
    }
    if (cr < start) {
      cr = text.indexOf('\r', start);
      if (cr < 0) cr = text.length;
      else this.sawCarriageReturn = true;
      this.cr = cr;
    }
    return lf < cr ? lf : cr;
  }
}

/**
 * Where the line after the one that ends at `end` (a line ending, or the text's end) starts: after its
 * LF, CR or CRLF.
 */
export function lineAfter(text: string, end: number): number {
  // Every read inside the text: a read past its end deoptimizes the hot loop that inlines this.
  return end + 1 < text.length && text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF
    ? end + 2
    : end + 1;
}
