/**
 * Link reference definitions as far as the block structure needs them (CommonMark 4.7, micromark's
 * `definition` with its label, destination and title factories): read line by line, whether a
 * paragraph still holds only definitions, and whether its last one is complete. A setext underline
 * after complete definitions is no underline but paragraph text. Internal to `src/markdown`; the
 * link scanner decodes the definitions' labels and destinations from the paragraph's text.
 */
import {
  BACKSLASH,
  CLOSE_BRACKET,
  COLON,
  GT,
  LT,
  OPEN_BRACKET,
  SPACE,
  TAB,
  isSpaceOrTab,
} from './chars.js';

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
   * character at `p`). Reads each character once.
   *
   * @returns `DEFINITIONS` while the content is still only definitions, else `TEXT`.
   */
  line(from: number, p: number, end: number): number {
    const text = this.text;
    let i = p;
    let state = this.state;
    if (state === DEF_DEST_DONE) {
      // A title may follow the destination on the next line; else a new definition may start.
      const c = text.charCodeAt(i);
      if (c === 34 || c === 39 || c === 40) {
        this.marker = c === 40 ? 41 : c;
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
      this.size += p - from; // the line's indentation is part of the label
    }
    if (state === DEF_LABEL) {
      // The label: up to 999 characters, not all blank, no unescaped `[`; `\[`, `\]` and `\\` escape.
      let size = this.size;
      let seen = this.seen;
      for (;;) {
        if (i === end) {
          if (size > 999) return TEXT;
          this.size = size;
          this.seen = seen;
          this.state = DEF_LABEL;
          return DEFINITIONS;
        }
        const c = text.charCodeAt(i);
        if (c === OPEN_BRACKET) return TEXT;
        if (c === CLOSE_BRACKET) {
          if (!seen || size > 999) return TEXT;
          i++;
          break;
        }
        if (c !== SPACE && c !== TAB) seen = true;
        size++;
        i++;
        if (c === BACKSLASH && i < end) {
          const d = text.charCodeAt(i);
          if (d === OPEN_BRACKET || d === BACKSLASH || d === CLOSE_BRACKET) {
            size++;
            i++;
          }
        }
      }
      if (text.charCodeAt(i) !== COLON) return TEXT;
      i++;
      while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
      if (i === end) {
        this.state = DEF_DEST;
        return DEFINITIONS;
      }
      state = DEF_DEST;
    }
    if (state === DEF_DEST) {
      if (text.charCodeAt(i) === LT) {
        // `<…>`: no line ending, no unescaped `<` or `>` inside.
        i++;
        for (;;) {
          if (i === end) return TEXT;
          const c = text.charCodeAt(i++);
          if (c === GT) break;
          if (c === LT) return TEXT;
          if (c === BACKSLASH && i < end) {
            const d = text.charCodeAt(i);
            if (d === LT || d === GT || d === BACKSLASH) i++;
          }
        }
      } else {
        // Raw: no space or control character, parentheses balanced; ends at a space, a tab, the end
        // of the line or an unbalanced `)`.
        const destStart = i;
        let balance = 0;
        for (;;) {
          if (i === end) {
            if (balance !== 0) return TEXT;
            break;
          }
          const c = text.charCodeAt(i);
          if (balance === 0 && (c === 41 || c === SPACE || c === TAB)) break;
          if (c === 40) balance++;
          else if (c === 41) balance--;
          else if (c <= SPACE || c === 127) return TEXT;
          i++;
          if (c === BACKSLASH && i < end) {
            const d = text.charCodeAt(i);
            if (d === 40 || d === 41 || d === BACKSLASH) i++;
          }
        }
        if (i === destStart) return TEXT; // a `)` cannot start one
      }
      // After the destination: the end of the line, or blanks and a title.
      const destEnd = i;
      while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
      if (i === end) {
        this.state = DEF_DEST_DONE;
        return DEFINITIONS;
      }
      if (i === destEnd) return TEXT;
      const c = text.charCodeAt(i);
      if (c !== 34 && c !== 39 && c !== 40) return TEXT;
      this.marker = c === 40 ? 41 : c;
      i++;
      state = DEF_TITLE;
    }
    // DEF_TITLE: up to the closing marker (`\` escapes it and itself), then only blanks.
    const marker = this.marker;
    while (i < end) {
      const c = text.charCodeAt(i++);
      if (c === marker) {
        while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
        if (i !== end) return TEXT;
        this.state = DEF_DONE;
        return DEFINITIONS;
      }
      if (c === BACKSLASH && i < end) {
        const d = text.charCodeAt(i);
        if (d === marker || d === BACKSLASH) i++;
      }
    }
    this.state = DEF_TITLE;
    return DEFINITIONS;
  }
}
