/**
 * CommonMark's block structure, as far as it decides which lines are code: block quotes and list
 * items (with their content indentation and lazy continuation), paragraphs (what may interrupt
 * them) and link reference definitions (which a setext underline cannot follow), the seven kinds of
 * raw HTML block with their end conditions, fenced and indented code.
 * It follows remark-parse (micromark) where that differs from the reference implementation.
 *
 * Fed one line at a time, in order; it keeps an explicit stack of open containers, so nesting depth
 * costs no recursion. A line costs a few character reads, plus its container prefixes. Internal:
 * `scanText` asks it, line by line, whether a line is code.
 */

/** The line is not code. */
export const NOT_CODE = 0;
/** The line is in an indented code block. */
export const INDENTED_CODE = 1;
/** The line opens a fenced code block. */
export const FENCE_OPEN = 2;
/** The line is inside a fenced code block, or closes it. */
export const FENCE_BODY = 3;

export type LineKind =
  typeof NOT_CODE | typeof INDENTED_CODE | typeof FENCE_OPEN | typeof FENCE_BODY;

// The open leaf block of the innermost container.
const NONE = 0;
const PARAGRAPH = 1;
const FENCE = 2;
const INDENTED = 3;
const HTML = 4;
/**
 * A paragraph (micromark's "content") that holds so far only link reference definitions, maybe the
 * last one unfinished (`defState`). It is a paragraph in all but one respect: a setext underline
 * (`=` or `-` alone) after complete definitions is no underline, but the text of a new paragraph
 * (micromark's `setextUnderline` wants a paragraph before it). Never set by the fast paths, so
 * every line that continues it takes the slow path.
 */
const DEFINITION = 5;

// Where the last link reference definition of a `DEFINITION` leaf is, at the end of a line. The
// first two are complete (the content would end as definitions only); the others are pending.
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

/** A block quote on the container stack; a list item holds its content indentation (> 0) instead. */
const QUOTE = -1;

/** `topLevelBlock`'s answer for a line that it leaves to the slow path. */
const SLOW = -1;

const TAB = 9;
const SPACE = 32;
const BANG = 33;
const HASH = 35;
const STAR = 42;
const PLUS = 43;
const DASH = 45;
const SLASH = 47;
const ZERO = 48;
const NINE = 57;
const LT = 60;
const EQUALS = 61;
const GT = 62;
const QUESTION = 63;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const UNDERSCORE = 95;
const BACKTICK = 96;
const TILDE = 126;

/** Characters that can start a block other than a paragraph (after 0-3 columns of indentation). */
const SPECIAL = new Uint8Array(128);
for (const c of '>#`~<=-*_+0123456789') SPECIAL[c.charCodeAt(0)] = 1;
/** `SPECIAL`, and `[`, which may start a link reference definition (but cannot interrupt a paragraph). */
const STARTS = SPECIAL.slice();
STARTS[OPEN_BRACKET] = 1;

/** Kind 1 HTML blocks (raw text, ended by their closing tag). */
const RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);
/** Kind 6 HTML blocks (ended by a blank line). */
const BLOCK_NAMES = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

export class CommonMarkBlocks {
  /**
   * One instance that lives as long as the module. V8 holds the hidden class that every instance
   * ends up with only weakly, through the class's chain of field transitions. With no instance
   * alive, a full GC (between two parses) frees it, and every optimized method that checks for it is
   * thrown away and compiled again, slowly, on the next parse (docs/performance.md).
   */
  static readonly keepShape = new CommonMarkBlocks('');

  /** Per open container, outermost first: `QUOTE`, or a list item's content indentation. */
  private readonly need: number[] = [];
  /** Per open container: 1 for a list item that began with a blank line and holds nothing yet. */
  private readonly empty: number[] = [];
  private leaf = NONE;
  /**
   * Whether the open indented code block stops an empty or non-1 list item from starting, as a
   * paragraph does. micromark does so, except for a block that began on a lazy line (one that closed
   * containers and opened none) and has not gone on to a second non-blank line.
   */
  private codeInterrupts = false;
  /** Whether this line closed containers and opened none. */
  private closedNow = false;
  /**
   * Whether a blank line closed an empty list item and only blank lines that continued all open
   * containers followed: micromark keeps the item open through them and closes it on the next line
   * that is not blank, which is therefore lazy.
   */
  private closedLast = false;
  private emptyClosedNow = false;
  private htmlKind = 0;
  /** With a `DEFINITION` leaf: where its last definition is (`DEF_*`). */
  private defState = DEF_DONE;
  /** In a definition's label: its characters so far (at most 999), and whether one is not blank. */
  private defSize = 0;
  private defSeen = false;
  /** In a definition's title: the character that closes it. */
  private defMarker = 0;
  private fenceChar = 0;
  private fenceLength = 0;
  /** Where the open fence's first fence character is. */
  fenceAt = 0;

  // The cursor in the current line: an offset, its column (tabs stop every 4), and whether the tab
  // at `offset` is partly consumed. `next*` describe the first non-blank character from the cursor.
  private end = 0;
  private offset = 0;
  private column = 0;
  private nextOffset = 0;
  private nextColumn = 0;
  private indent = 0;
  private blank = false;

  constructor(private readonly text: string) {}

  /** Whether a fenced code block is still open after the last line. */
  get fenceOpen(): boolean {
    return this.leaf === FENCE;
  }

  /**
   * Whether a raw HTML block that a blank line does not end (kinds 1-5: `<pre>`, `<!--`, `<?`, `<!X`,
   * `<![CDATA[`) is still open at top level after the last line: what follows it, even after a blank
   * line, is read inside it (no fence opens there).
   */
  get rawHtmlOpen(): boolean {
    return this.leaf === HTML && this.htmlKind <= 5 && this.need.length === 0;
  }

  /** The fence character and length of the open fence, as a string. */
  get fenceMarker(): string {
    return String.fromCharCode(this.fenceChar).repeat(this.fenceLength);
  }

  /**
   * Read the line `[start, end)` (without its line ending); `first` is its first character that is
   * not a space or tab (`end` when the line is blank), and `c` that character's code (read once, by
   * the caller). Returns what the line is, as code goes.
   *
   * The common lines take fast paths that do exactly what `slowLineKind` does for them, without its
   * cursor; the rest take the slow path. None of the fast paths starts indented code, the only block
   * that reads `closedLast`, so each may clear it on a line that is not blank (a blank line that
   * continues every open container keeps it).
   */
  line(start: number, end: number, first: number, c: number): LineKind {
    // The most common lines, text or a blank line outside any block but a paragraph, here; the rest
    // in a method too large to be inlined, so that this one stays small enough to be inlined into the
    // scanner's loop.
    const leaf = this.leaf;
    if (this.need.length === 0 && (leaf === NONE || leaf === PARAGRAPH)) {
      if (first === end) {
        this.leaf = NONE;
        return NOT_CODE;
      }
      if (first - start < 4) {
        if ((c >= 128 || STARTS[c] === 0) && (first === start || noTab(this.text, start, first))) {
          this.closedLast = false;
          this.leaf = PARAGRAPH;
          return NOT_CODE;
        }
      }
    }
    return this.otherLine(start, end, first);
  }

  /**
   * Whether `commentLine` may take the next line when it is a one-line HTML comment that starts in
   * column 1, such as an anchor line: not in a block quote, nor at top level in a block other than a
   * paragraph (those take `line`).
   */
  get takesCommentLine(): boolean {
    const need = this.need;
    return need.length === 0 ? this.leaf === NONE || this.leaf === PARAGRAPH : need[0] !== QUOTE;
  }

  /**
   * What `line` does for a one-line HTML comment that starts in column 1, when `takesCommentLine`:
   * not indented, it closes every list item and the block in it; it is a kind 2 HTML block that ends
   * on its line, so nothing is open after it.
   */
  commentLine(): void {
    if (this.need.length !== 0) this.close(0);
    this.closedLast = false;
    this.leaf = NONE;
  }

  /**
   * Every other line. With containers open: a blank line inside list items that hold something goes
   * on as at top level; text that starts no block continues an open paragraph (lazily or not); a line
   * indented less than the outermost list item's content continues no container and, unless it is a
   * lazy paragraph line, closes them all and is read as at top level. Then the top-level fast paths
   * (`topLevelBlock`), else the slow path.
   */
  private otherLine(start: number, end: number, first: number): LineKind {
    const text = this.text;
    const need = this.need;
    if (need.length !== 0) {
      if (first === end) {
        // Every list item that holds something goes on through a blank line; a block quote or an
        // item that began with a blank line does not.
        for (let i = 0; i < need.length; i++)
          if (need[i] === QUOTE || this.empty[i] === 1) return this.slowLine(start, end);
      } else {
        const c = text.charCodeAt(first);
        if (this.leaf === PARAGRAPH && (c >= 128 || SPECIAL[c] === 0)) {
          this.closedLast = false;
          return NOT_CODE;
        }
        const indent = first - start;
        if (
          indent < 4 &&
          indent < need[0]! &&
          noTab(text, start, first) &&
          ((this.leaf !== PARAGRAPH && this.leaf !== DEFINITION) ||
            interruptsParagraph(text, first, end, c))
        ) {
          this.close(0);
        } else return this.slowLine(start, end);
      }
    }
    const leaf = this.leaf;
    if (first === end) {
      if (leaf === FENCE) return FENCE_BODY;
      if (leaf === INDENTED) return INDENTED_CODE;
      if (leaf !== NONE && (leaf !== HTML || this.htmlKind >= 6)) this.leaf = NONE;
      return NOT_CODE;
    }
    if (first - start < 4 && noTab(text, start, first)) {
      const c = text.charCodeAt(first);
      if (leaf === NONE || leaf === PARAGRAPH) {
        if (c >= 128 || STARTS[c] === 0) {
          this.closedLast = false;
          this.leaf = PARAGRAPH;
          return NOT_CODE;
        }
        const kind = this.topLevelBlock(start, first, end, c);
        if (kind !== SLOW) return kind;
      } else if (leaf === FENCE) {
        this.closedLast = false;
        if (c === this.fenceChar) {
          let q = first + 1;
          while (q < end && text.charCodeAt(q) === c) q++;
          if (q - first >= this.fenceLength && onlySpaceOrTab(text, q, end)) this.leaf = NONE;
        }
        return FENCE_BODY;
      }
    }
    return this.slowLine(start, end);
  }

  /**
   * What `slowLineKind` does, with no container open and no leaf but a paragraph, for an ATX heading
   * (or a line of `#`s that is not one: paragraph text), an HTML comment (a kind 2 HTML block, which
   * may interrupt a paragraph) such as an anchor line, a bullet list item that starts with text, a
   * fence, and a line that starts with `[` (a link reference definition, or paragraph text); `SLOW`
   * for any other line. A method of its own so that `line` stays small enough to be inlined into the
   * scanner's loop.
   */
  private topLevelBlock(
    start: number,
    first: number,
    end: number,
    c: number,
  ): LineKind | typeof SLOW {
    const text = this.text;
    if (c === OPEN_BRACKET) {
      this.closedLast = false;
      if (this.leaf !== PARAGRAPH) this.leaf = this.definitionStart(first, end);
      return NOT_CODE;
    }
    if (c === HASH) {
      this.closedLast = false;
      this.leaf = isAtxHeading(text, first, end) ? NONE : PARAGRAPH;
      return NOT_CODE;
    }
    if (c === LT) {
      if (!isCommentStart(text, first)) return SLOW;
      this.closedLast = false;
      if (commentEnds(text, first, end)) this.leaf = NONE;
      else {
        this.leaf = HTML;
        this.htmlKind = 2;
      }
      return NOT_CODE;
    }
    if (c === DASH || c === STAR || c === PLUS) {
      if (!isBulletWithText(text, first, end)) return SLOW;
      // One space of padding: the content starts two columns after the marker's.
      this.closedLast = false;
      this.closedNow = false;
      this.need.push(first - start + 2);
      this.empty.push(0);
      this.leaf =
        text.charCodeAt(first + 2) === OPEN_BRACKET
          ? this.definitionStart(first + 2, end)
          : PARAGRAPH;
      return NOT_CODE;
    }
    if (c === BACKTICK || c === TILDE) {
      let q = first + 1;
      while (q < end && text.charCodeAt(q) === c) q++;
      if (q - first < 3 || (c === BACKTICK && contains(text, q, end, BACKTICK))) return SLOW;
      this.closedLast = false;
      this.leaf = FENCE;
      this.fenceChar = c;
      this.fenceLength = q - first;
      this.fenceAt = first;
      return FENCE_OPEN;
    }
    return SLOW;
  }

  private slowLine(start: number, end: number): LineKind {
    const text = this.text;
    const need = this.need;
    const depth = need.length;
    this.closedNow = false;
    this.emptyClosedNow = false;
    const kind = this.slowLineKind(start, end, text, need, depth);
    // A blank line (or one of only container markers) that closed nothing keeps `closedLast`.
    this.closedLast = this.emptyClosedNow || (this.closedLast && this.blank && !this.closedNow);
    return kind;
  }

  private slowLineKind(
    start: number,
    end: number,
    text: string,
    need: number[],
    depth: number,
  ): LineKind {
    this.end = end;
    this.offset = start;
    this.column = 0;

    // 1. Which open containers does the line continue?
    let matched = 0;
    for (; matched < depth; matched++) {
      this.findNext();
      const n = need[matched]!;
      if (n === QUOTE) {
        if (this.indent > 3 || this.blank || text.charCodeAt(this.nextOffset) !== GT) break;
        this.toNext();
        this.offset++;
        this.column++;
        const c = text.charCodeAt(this.offset);
        if (c === SPACE || c === TAB) this.advance(1);
      } else if (this.blank) {
        if (this.empty[matched] === 1) {
          this.emptyClosedNow = true; // a list item can begin with at most one blank line
          break;
        }
        this.toNext();
      } else if (this.indent >= n) this.advance(n);
      else break;
    }
    const allMatched = matched === depth;
    this.findNext();

    // 2. Does the line continue the open leaf block?
    const leaf = this.leaf;
    if (allMatched) {
      if (leaf === FENCE) {
        if (
          this.indent <= 3 &&
          !this.blank &&
          text.charCodeAt(this.nextOffset) === this.fenceChar
        ) {
          let q = this.nextOffset;
          while (q < end && text.charCodeAt(q) === this.fenceChar) q++;
          if (q - this.nextOffset >= this.fenceLength && onlySpaceOrTab(text, q, end))
            this.leaf = NONE;
        }
        return FENCE_BODY;
      }
      if (leaf === INDENTED && (this.indent >= 4 || this.blank)) {
        if (!this.blank) this.codeInterrupts = true;
        return INDENTED_CODE;
      }
      if (leaf === HTML) {
        if (this.blank && this.htmlKind >= 6) this.leaf = NONE;
        else if (this.htmlKind <= 5 && htmlEnds(text, this.offset, end, this.htmlKind))
          this.leaf = NONE;
        return NOT_CODE;
      }
    }

    // 3. New block starts, after the containers the line continued.
    // A new list item may not interrupt a paragraph or (in micromark) indented code when empty or
    // ordered from a number other than 1, and in micromark that holds for every container the line
    // opens; a kind 7 HTML block may not interrupt a paragraph.
    const interrupt =
      allMatched &&
      (leaf === PARAGRAPH || leaf === DEFINITION || (leaf === INDENTED && this.codeInterrupts));
    let closed = allMatched;
    while (!this.blank) {
      const p = this.nextOffset;
      const c = text.charCodeAt(p);
      if (this.indent >= 4) {
        if (this.leaf === PARAGRAPH || this.leaf === DEFINITION) break; // indented code cannot interrupt a paragraph
        const closedBefore = this.closedLast;
        this.open(matched);
        this.leaf = INDENTED;
        this.codeInterrupts = !(this.closedNow || closedBefore);
        return INDENTED_CODE;
      }
      if (c === GT) {
        this.open(matched);
        this.push(QUOTE, 0);
        matched++;
        this.toNext();
        this.offset++;
        this.column++;
        const d = text.charCodeAt(this.offset);
        if (d === SPACE || d === TAB) this.advance(1);
        this.findNext();
        closed = true;
        continue;
      }
      if (c === HASH) {
        let q = p;
        while (q < end && q - p < 7 && text.charCodeAt(q) === HASH) q++;
        const d = q < end ? text.charCodeAt(q) : SPACE;
        if (q - p <= 6 && (d === SPACE || d === TAB)) {
          this.open(matched);
          return NOT_CODE;
        }
      } else if (c === BACKTICK || c === TILDE) {
        let q = p;
        while (q < end && text.charCodeAt(q) === c) q++;
        if (q - p >= 3 && (c === TILDE || !contains(text, q, end, BACKTICK))) {
          this.open(matched);
          this.leaf = FENCE;
          this.fenceChar = c;
          this.fenceLength = q - p;
          this.fenceAt = p;
          return FENCE_OPEN;
        }
      } else if (c === LT) {
        let kind = htmlStart(text, p, end);
        // micromark lets a kind 7 block start on a lazy line, inside the lazy containers.
        const paragraph = this.leaf === PARAGRAPH || this.leaf === DEFINITION;
        const lazy = !closed && paragraph;
        if (kind === 7 && paragraph && !lazy) kind = 0;
        if (kind !== 0) {
          if (kind !== 7 || !lazy) this.open(matched);
          this.leaf = HTML;
          this.htmlKind = kind;
          if (kind <= 5 && htmlEnds(text, p, end, kind)) this.leaf = NONE;
          return NOT_CODE;
        }
      }
      if (
        (c === EQUALS || c === DASH) &&
        allMatched &&
        (this.leaf === PARAGRAPH || (this.leaf === DEFINITION && this.defState >= DEF_LABEL)) &&
        isSetextUnderline(text, p, end, c)
      ) {
        // The paragraph becomes a heading. After complete definitions only, the line is paragraph
        // text (or a thematic break, or, below, a list item).
        this.leaf = NONE;
        return NOT_CODE;
      }
      if ((c === STAR || c === DASH || c === UNDERSCORE) && isThematicBreak(text, p, end, c)) {
        this.open(matched);
        return NOT_CODE;
      }
      // A list item.
      let q = p;
      if (c === DASH || c === PLUS || c === STAR) q++;
      else if (c >= ZERO && c <= NINE) {
        while (q < end && q - p < 10 && isDigit(text.charCodeAt(q))) q++;
        const d = text.charCodeAt(q);
        if (
          q - p > 9 ||
          q >= end ||
          (d !== 46 && d !== 41) ||
          (interrupt && (q - p !== 1 || c !== 49))
        )
          break;
        q++;
      } else break;
      const after = q < end ? text.charCodeAt(q) : SPACE;
      if (after !== SPACE && after !== TAB) break;
      const blankItem = onlySpaceOrTab(text, q, end);
      if (interrupt && blankItem) break;
      const markerOffset = this.indent;
      this.toNext();
      const markerColumn = this.column + (q - p);
      this.offset = q;
      this.column = markerColumn;
      // Spaces after the marker: 1-4 columns are padding; 5 or more (or none, at the end of the
      // line) mean padding 1 and the rest belongs to the content (an indented code block).
      this.findNext();
      let padding = this.nextColumn - markerColumn;
      if (padding >= 5 || blankItem) {
        padding = 1;
        if (!blankItem) this.advance(1);
      } else this.toNext();
      this.open(matched);
      this.push(markerOffset + (q - p) + padding, blankItem ? 1 : 0);
      matched++;
      this.findNext();
      closed = true;
    }

    // 4. What is left is paragraph text, a lazy continuation line, or a blank line.
    if (!closed && !this.blank) {
      if (this.leaf === PARAGRAPH) return NOT_CODE;
      if (this.leaf === DEFINITION) {
        this.leaf = this.definitionLine(this.offset, this.nextOffset, end);
        return NOT_CODE;
      }
    }
    if (matched < need.length) this.close(matched);
    if (this.blank) {
      if (this.leaf !== INDENTED) this.leaf = NONE;
      return NOT_CODE;
    }
    if (this.leaf === DEFINITION)
      this.leaf = this.definitionLine(this.offset, this.nextOffset, end);
    else if (this.leaf !== PARAGRAPH) {
      this.leaf =
        text.charCodeAt(this.nextOffset) === OPEN_BRACKET
          ? this.definitionStart(this.nextOffset, end)
          : PARAGRAPH;
      this.markFilled();
    }
    return NOT_CODE;
  }

  /** A paragraph starts at `p`, a `[`: `DEFINITION` while it reads as link reference definitions. */
  private definitionStart(p: number, end: number): number {
    this.defState = DEF_DONE;
    return this.definitionLine(p, p, end);
  }

  /**
   * The next line `[from, end)` of a `DEFINITION` leaf (its first non-blank character at `p`), read
   * as micromark reads link reference definitions (micromark-core-commonmark's `definition` with
   * the label, destination and title factories): `DEFINITION` while the content is still only
   * definitions, else `PARAGRAPH` (for the rest of the paragraph: definitions only come first).
   * Reads each character once.
   */
  private definitionLine(from: number, p: number, end: number): number {
    const text = this.text;
    let i = p;
    let state = this.defState;
    if (state === DEF_DEST_DONE) {
      // A title may follow the destination on the next line; else a new definition may start.
      const c = text.charCodeAt(i);
      if (c === 34 || c === 39 || c === 40) {
        this.defMarker = c === 40 ? 41 : c;
        i++;
        state = DEF_TITLE;
      } else state = DEF_DONE;
    }
    if (state === DEF_DONE) {
      if (text.charCodeAt(i) !== OPEN_BRACKET) return PARAGRAPH;
      i++;
      this.defSize = 0;
      this.defSeen = false;
      state = DEF_LABEL;
    } else if (state === DEF_LABEL) {
      this.defSize += p - from; // the line's indentation is part of the label
    }
    if (state === DEF_LABEL) {
      // The label: up to 999 characters, not all blank, no unescaped `[`; `\[`, `\]` and `\\` escape.
      let size = this.defSize;
      let seen = this.defSeen;
      for (;;) {
        if (i === end) {
          if (size > 999) return PARAGRAPH;
          this.defSize = size;
          this.defSeen = seen;
          this.defState = DEF_LABEL;
          return DEFINITION;
        }
        const c = text.charCodeAt(i);
        if (c === OPEN_BRACKET) return PARAGRAPH;
        if (c === CLOSE_BRACKET) {
          if (!seen || size > 999) return PARAGRAPH;
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
      if (text.charCodeAt(i) !== 58) return PARAGRAPH; // `:`
      i++;
      while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
      if (i === end) {
        this.defState = DEF_DEST;
        return DEFINITION;
      }
      state = DEF_DEST;
    }
    if (state === DEF_DEST) {
      if (text.charCodeAt(i) === LT) {
        // `<…>`: no line ending, no unescaped `<` or `>` inside.
        i++;
        for (;;) {
          if (i === end) return PARAGRAPH;
          const c = text.charCodeAt(i++);
          if (c === GT) break;
          if (c === LT) return PARAGRAPH;
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
            if (balance !== 0) return PARAGRAPH;
            break;
          }
          const c = text.charCodeAt(i);
          if (balance === 0 && (c === 41 || c === SPACE || c === TAB)) break;
          if (c === 40) balance++;
          else if (c === 41) balance--;
          else if (c <= SPACE || c === 127) return PARAGRAPH;
          i++;
          if (c === BACKSLASH && i < end) {
            const d = text.charCodeAt(i);
            if (d === 40 || d === 41 || d === BACKSLASH) i++;
          }
        }
        if (i === destStart) return PARAGRAPH; // a `)` cannot start one
      }
      // After the destination: the end of the line, or blanks and a title.
      const destEnd = i;
      while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
      if (i === end) {
        this.defState = DEF_DEST_DONE;
        return DEFINITION;
      }
      if (i === destEnd) return PARAGRAPH;
      const c = text.charCodeAt(i);
      if (c !== 34 && c !== 39 && c !== 40) return PARAGRAPH;
      this.defMarker = c === 40 ? 41 : c;
      i++;
      state = DEF_TITLE;
    }
    // DEF_TITLE: up to the closing marker (`\` escapes it and itself), then only blanks.
    const marker = this.defMarker;
    while (i < end) {
      const c = text.charCodeAt(i++);
      if (c === marker) {
        while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
        if (i !== end) return PARAGRAPH;
        this.defState = DEF_DONE;
        return DEFINITION;
      }
      if (c === BACKSLASH && i < end) {
        const d = text.charCodeAt(i);
        if (d === marker || d === BACKSLASH) i++;
      }
    }
    this.defState = DEF_TITLE;
    return DEFINITION;
  }

  /** A block starts after the `matched` containers: close the rest and the open leaf. */
  private open(matched: number): void {
    if (matched < this.need.length) this.close(matched);
    this.leaf = NONE;
    this.markFilled();
  }

  private close(keep: number): void {
    this.closedNow = true;
    // Popped rather than cut by setting `length`, which is a runtime call that also frees the arrays'
    // storage, only for the next `push` to allocate it again.
    const need = this.need;
    const empty = this.empty;
    while (need.length > keep) {
      need.pop();
      empty.pop();
    }
    this.leaf = NONE;
  }

  private push(need: number, empty: number): void {
    // A line that opens a container starts a fresh flow in micromark: it is not lazy, whatever the
    // line before closed.
    this.closedNow = false;
    this.closedLast = false;
    this.need.push(need);
    this.empty.push(empty);
  }

  /** The innermost container now holds a block. */
  private markFilled(): void {
    const last = this.empty.length - 1;
    if (last >= 0) this.empty[last] = 0;
  }

  /** Find the first non-blank character from the cursor. */
  private findNext(): void {
    const text = this.text;
    const end = this.end;
    let i = this.offset;
    let col = this.column;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SPACE) col++;
      else if (c === TAB) col += 4 - (col & 3);
      else break;
      i++;
    }
    this.nextOffset = i;
    this.nextColumn = col;
    this.indent = col - this.column;
    this.blank = i === end;
  }

  private toNext(): void {
    this.offset = this.nextOffset;
    this.column = this.nextColumn;
  }

  /** Move the cursor `count` columns on, consuming part of a tab where needed. */
  private advance(count: number): void {
    const text = this.text;
    while (count > 0 && this.offset < this.end) {
      if (text.charCodeAt(this.offset) === TAB) {
        const toTab = 4 - (this.column & 3);
        if (toTab > count) {
          this.column += count;
          return;
        }
        this.column += toTab;
        this.offset++;
        count -= toTab;
      } else {
        this.offset++;
        this.column++;
        count--;
      }
    }
  }
}

/** `#` to `######` at `p`, then a space, a tab or the end of the line. */
function isAtxHeading(text: string, p: number, end: number): boolean {
  let q = p + 1;
  while (q < end && q - p < 7 && text.charCodeAt(q) === HASH) q++;
  const d = q < end ? text.charCodeAt(q) : SPACE;
  return q - p <= 6 && (d === SPACE || d === TAB);
}

function isCommentStart(text: string, p: number): boolean {
  return (
    text.charCodeAt(p + 1) === BANG &&
    text.charCodeAt(p + 2) === DASH &&
    text.charCodeAt(p + 3) === DASH
  );
}

/**
 * `-`, `*` or `+` at `p`, one space, then a character that starts no block: a list item whose first
 * line is paragraph text (never a thematic break or a setext underline).
 */
function isBulletWithText(text: string, p: number, end: number): boolean {
  if (p + 2 >= end || text.charCodeAt(p + 1) !== SPACE) return false;
  const d = text.charCodeAt(p + 2);
  return d >= 128 || (SPECIAL[d] === 0 && d !== SPACE && d !== TAB);
}

/**
 * Whether the line from `p` (its first character `c`, indented 0-3 columns) starts a block that
 * closes the open containers even where the line could be a lazy paragraph line: an ATX heading, an
 * HTML comment, a bullet list item that starts with text.
 */
function interruptsParagraph(text: string, p: number, end: number, c: number): boolean {
  if (c === HASH) return isAtxHeading(text, p, end);
  if (c === LT) return isCommentStart(text, p);
  return (c === DASH || c === STAR || c === PLUS) && isBulletWithText(text, p, end);
}

function noTab(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === TAB) return false;
  return true;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function onlySpaceOrTab(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

function contains(text: string, from: number, end: number, code: number): boolean {
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === code) return true;
  return false;
}

/** `===` or `---` alone (after 0-3 spaces), trailing spaces or tabs allowed. */
function isSetextUnderline(text: string, p: number, end: number, c: number): boolean {
  let q = p;
  while (q < end && text.charCodeAt(q) === c) q++;
  return onlySpaceOrTab(text, q, end);
}

/** Three or more `*`, `-` or `_`, the same one, with only spaces or tabs between. */
function isThematicBreak(text: string, p: number, end: number, c: number): boolean {
  let count = 0;
  for (let q = p; q < end; q++) {
    const d = text.charCodeAt(q);
    if (d === c) count++;
    else if (d !== SPACE && d !== TAB) return false;
  }
  return count >= 3;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isSpaceOrTab(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** The kind (1-7) of the raw HTML block that the line from `p` (a `<`) starts, or 0. */
function htmlStart(text: string, p: number, end: number): number {
  const c = text.charCodeAt(p + 1);
  if (c === BANG) {
    if (text.startsWith('<!--', p)) return 2;
    if (text.startsWith('<![CDATA[', p)) return 5;
    return isAlpha(text.charCodeAt(p + 2)) ? 4 : 0;
  }
  if (c === QUESTION) return 3;
  let q = p + 1;
  const closing = c === SLASH;
  if (closing) q++;
  const nameStart = q;
  if (q >= end || !isAlpha(text.charCodeAt(q))) return 0;
  while (q < end) {
    const d = text.charCodeAt(q);
    if (isAlpha(d) || isDigit(d) || d === DASH) q++;
    else break;
  }
  const d = q < end ? text.charCodeAt(q) : SPACE;
  const ends = d === SPACE || d === TAB || d === GT;
  if (!ends && d !== SLASH) return 0;
  const name = q - nameStart <= 10 ? text.slice(nameStart, q).toLowerCase() : '';
  if (!closing && d !== SLASH && RAW_NAMES.has(name)) return 1;
  if (BLOCK_NAMES.has(name)) {
    if (ends) return 6;
    return text.charCodeAt(q + 1) === GT ? 6 : 0;
  }
  return completeTag(text, q, end, closing) ? 7 : 0;
}

/** From `q` (just after a tag name), the rest of a complete open or closing tag, then only blanks. */
function completeTag(text: string, q: number, end: number, closing: boolean): boolean {
  if (!closing) {
    for (;;) {
      const from = q;
      while (q < end && isSpaceOrTab(text.charCodeAt(q))) q++;
      const c = q < end ? text.charCodeAt(q) : -1;
      if (c === SLASH || c === GT) break;
      if (q === from || !(isAlpha(c) || c === UNDERSCORE || c === 58)) return false;
      q++;
      while (q < end) {
        const d = text.charCodeAt(q);
        if (isAlpha(d) || isDigit(d) || d === UNDERSCORE || d === 46 || d === 58 || d === DASH) q++;
        else break;
      }
      let r = q;
      while (r < end && isSpaceOrTab(text.charCodeAt(r))) r++;
      if (r < end && text.charCodeAt(r) === EQUALS) {
        r++;
        while (r < end && isSpaceOrTab(text.charCodeAt(r))) r++;
        const quote = r < end ? text.charCodeAt(r) : -1;
        if (quote === 34 || quote === 39) {
          r++;
          while (r < end && text.charCodeAt(r) !== quote) r++;
          if (r >= end) return false;
          r++;
        } else {
          const valueStart = r;
          while (r < end) {
            const d = text.charCodeAt(r);
            if (
              d <= SPACE ||
              d === 34 ||
              d === 39 ||
              d === EQUALS ||
              d === LT ||
              d === GT ||
              d === BACKTICK
            )
              break;
            r++;
          }
          if (r === valueStart) return false;
        }
        q = r;
      }
    }
    if (text.charCodeAt(q) === SLASH) q++;
  } else {
    while (q < end && isSpaceOrTab(text.charCodeAt(q))) q++;
  }
  if (q >= end || text.charCodeAt(q) !== GT) return false;
  return onlySpaceOrTab(text, q + 1, end);
}

/** Whether the line `[from, end)` holds the end condition of an HTML block of kind 1-5. */
function htmlEnds(text: string, from: number, end: number, kind: number): boolean {
  switch (kind) {
    case 1:
      for (let i = from; i + 1 < end; i++) {
        if (text.charCodeAt(i) !== LT || text.charCodeAt(i + 1) !== SLASH) continue;
        let q = i + 2;
        while (q < end && isAlpha(text.charCodeAt(q))) q++;
        if (
          q < end &&
          text.charCodeAt(q) === GT &&
          q - i - 2 <= 8 &&
          RAW_NAMES.has(text.slice(i + 2, q).toLowerCase())
        )
          return true;
      }
      return false;
    case 2:
      return commentEnds(text, from, end);
    case 3:
      return has(text, from, end, '?>');
    case 4:
      return contains(text, from, end, GT);
    default:
      return has(text, from, end, ']]>');
  }
}

/**
 * Whether `[from, end)` contains `-->`. From the end back, looking for the `>`: a comment line most
 * often ends with it, so an anchor line costs three reads.
 */
function commentEnds(text: string, from: number, end: number): boolean {
  for (let i = end - 1; i >= from + 2; i--) {
    if (
      text.charCodeAt(i) === GT &&
      text.charCodeAt(i - 1) === DASH &&
      text.charCodeAt(i - 2) === DASH
    )
      return true;
  }
  return false;
}

/** Whether `[from, end)` contains `pattern`, reading no further than `end`. */
function has(text: string, from: number, end: number, pattern: string): boolean {
  const first = pattern.charCodeAt(0);
  for (let i = from; i + pattern.length <= end; i++) {
    if (text.charCodeAt(i) === first && text.startsWith(pattern, i)) return true;
  }
  return false;
}
