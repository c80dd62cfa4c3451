/**
 * Link reference definitions as far as the block structure needs them (CommonMark 4.7, micromark's
 * `definition` with its label, destination and title factories): read line by line, whether a
 * paragraph still holds only definitions, and whether its last one is complete. A setext underline
 * after complete definitions is no underline but paragraph text. Internal to `src/markdown`; the
 * link scanner reads the definitions' labels and destinations from the paragraph's text with the
 * same readers (`linkSyntax.ts`).
 */
import { COLON, OPEN_BRACKET, onlySpaceOrTab, skipSpaceOrTab } from './chars.js';
import { FAIL, MORE, destinationEnd, labelEnd, titleClose, titleEnd } from './linkSyntax.js';

// Where the last definition is at the end of a line. The first two are complete (the content would
// end as definitions only); the others are pending.
/** A definition ended; a new one may start on the next line. */
const DEF_DONE = 0;
/** A definition's destination ended the line: complete, but a title may follow on the next line. */
const DEF_DEST_DONE = 1;
/** Inside the label, which goes on on the next line. */
const DEF_LABEL = 2;
/** After `]:`, the destination is on the next line. */
const DEF_DEST = 3;
/** Inside a title, which goes on on the next line. */
const DEF_TITLE = 4;

/** The paragraph holds only definitions so far. */
export const DEFINITIONS = 5;
/** The paragraph holds something else (definitions only come first). */
export const TEXT = 1;

/** One paragraph's definitions, line by line; reused for every paragraph of a text. */
export class DefinitionReader {
  private state = DEF_DONE;
  /** In a label: its characters so far (at most 999), and whether one is not blank. */
  private size = 0;
  private seen = false;
  /** In a title: the character that closes it. */
  private marker = 0;

  constructor(private readonly text: string) {}

  /** Whether the last definition is complete (a setext underline after it is paragraph text). */
  get complete(): boolean {
    return this.state < DEF_LABEL;
  }

  /**
   * A paragraph starts at `p`, a `[`.
   *
   * @returns `DEFINITIONS` while it reads as definitions, else `TEXT`.
   */
  start(p: number, end: number): number {
    this.state = DEF_DONE;
    return this.line(p, p, end);
  }

  /**
   * The next line `[from, end)` of a paragraph that held only definitions (its first non-blank
   * character at `p`). Reads each character once, with the label, destination and title readers of
   * `linkSyntax.ts`.
   *
   * @returns `DEFINITIONS` while the content is still only definitions, else `TEXT`.
   */
  line(from: number, p: number, end: number): number {
    const text = this.text;
    let i = p;
    let state = this.state;
    if (state === DEF_DEST_DONE) {
      // A title may follow the destination on the next line; else a new definition may start.
      const close = titleClose(text.charCodeAt(i));
      if (close !== 0) {
        this.marker = close;
        i++;
        state = DEF_TITLE;
      } else state = DEF_DONE;
    }
    if (state === DEF_DONE) {
      if (text.charCodeAt(i) !== OPEN_BRACKET) return TEXT;
      i++;
      this.size = 0;
      this.seen = false;
      state = DEF_LABEL;
    } else if (state === DEF_LABEL) {
      i = from; // the line's indentation is part of the label
    }
    if (state === DEF_LABEL) {
      // The label: up to 999 characters, not all blank, no unescaped `[`.
      const close = labelEnd(text, i, end, this.size, this.seen);
      if (close === MORE) {
        this.size += end - i;
        this.seen ||= !onlySpaceOrTab(text, i, end);
        this.state = DEF_LABEL;
        return DEFINITIONS;
      }
      if (close === FAIL || text.charCodeAt(close + 1) !== COLON) return TEXT;
      i = skipSpaceOrTab(text, close + 2, end);
      if (i === end) {
        this.state = DEF_DEST;
        return DEFINITIONS;
      }
      state = DEF_DEST;
    }
    if (state === DEF_DEST) {
      const destEnd = destinationEnd(text, i, end);
      if (destEnd === FAIL) return TEXT;
      // After the destination: the end of the line, or blanks and a title.
      i = skipSpaceOrTab(text, destEnd, end);
      if (i === end) {
        this.state = DEF_DEST_DONE;
        return DEFINITIONS;
      }
      if (i === destEnd) return TEXT;
      const close = titleClose(text.charCodeAt(i));
      if (close === 0) return TEXT;
      this.marker = close;
      i++;
      state = DEF_TITLE;
    }
    // DEF_TITLE: up to the closing marker, then only blanks.
    const after = titleEnd(text, i, end, this.marker);
    if (after === FAIL) {
      this.state = DEF_TITLE;
      return DEFINITIONS;
    }
    if (!onlySpaceOrTab(text, after, end)) return TEXT;
    this.state = DEF_DONE;
    return DEFINITIONS;
  }
}
