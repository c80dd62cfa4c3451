/**
 * CommonMark's block structure, line by line, as remark-parse (micromark) reads it where that
 * differs from the reference implementation: which lines are code (fenced, indented), raw HTML,
 * paragraph text (with lazy continuation) or headings, with the container prefixes stripped. The one
 * block scanner of the project: the anchor scanner (`src/parse/scanText.ts`) asks it which lines are
 * code, the link scanner (`src/agent/relations`) and page summaries read its leaf blocks
 * (`scanTextBlocks`), `read_file` parts end at its block boundaries (`partEnd.ts`). Fed by the one
 * line iterator (`lines.ts`). Internal.
 *
 * The constructs live beside it, one a file, as micromark-core-commonmark splits them: containers
 * (`containers.ts`), fenced code, raw HTML blocks, link reference definitions, one-line leaf blocks
 * (`leafStarts.ts`); the syntax they share with inline text is in `linkSyntax.ts` (labels,
 * destinations, titles), `htmlSyntax.ts` (tags) and `chars.ts` (character classes). Fed one line at a time, in order; an explicit stack of open containers, so
 * nesting depth costs no recursion, and no per-line work beyond the line's own length
 * (`containers.ts`). A line costs a few character reads, plus its container prefixes.
 */
import {
  BACKTICK,
  CLOSE_PAREN,
  DASH,
  EQUALS,
  GT,
  HASH,
  LT,
  NINE,
  ONE,
  OPEN_BRACKET,
  PERIOD,
  PLUS,
  SPACE,
  STAR,
  TAB,
  TILDE,
  UNDERSCORE,
  ZERO,
  isDigit,
  noTab,
  onlySpaceOrTab,
} from './chars.js';
import { Containers, QUOTE } from './containers.js';
import { DEFINITIONS, DefinitionReader, TEXT } from './definition.js';
import { fenceCloses, fenceOpenLength } from './fencedCode.js';
import { commentEnds, htmlEnds, htmlStart, isCommentStart } from './htmlBlock.js';
import {
  ATX_HEADING,
  FENCE_BODY,
  FENCE_OPEN,
  HTML_LINE,
  INDENTED_CODE,
  OTHER,
  PARAGRAPH_LINE,
  PARAGRAPH_START,
  SETEXT_UNDERLINE,
  type LineKind,
} from './lineKinds.js';
import {
  SPECIAL,
  STARTS,
  interruptsParagraph,
  isAtxHeading,
  isBulletWithText,
  isSetextUnderline,
  thematicBreakMiss,
} from './leafStarts.js';

// The open leaf block of the innermost container.
const NONE = 0;
/** A paragraph: `TEXT` of `definition.ts`, so that its answers are leaf values. */
const PARAGRAPH = TEXT;
const FENCE = 2;
const INDENTED = 3;
const HTML = 4;
/**
 * A paragraph (micromark's "content") that holds so far only link reference definitions, maybe the
 * last one unfinished (`DefinitionReader`). It is a paragraph in all but one respect: a setext
 * underline (`=` or `-` alone) after complete definitions is no underline, but the text of a new
 * paragraph (micromark's `setextUnderline` wants a paragraph before it). Never set by the fast
 * paths, so every line that continues it takes the slow path.
 */
const DEFINITION = DEFINITIONS;

/** `topLevelBlock`'s answer for a line that it leaves to the slow path. */
const SLOW = -1;

/**
 * The block structure of one text, fed its lines in order (`line`).
 *
 * @example
 * ```ts
 * const blocks = new BlockScanner(text);
 * const kind = blocks.line(start, end, first, text.charCodeAt(first)); // per line
 * if (kind >= INDENTED_CODE) ...; // the line is code
 * ```
 */
export class BlockScanner {
  /**
   * One instance that lives as long as the module. V8 holds the hidden class that every instance
   * ends up with only weakly, through the class's chain of field transitions. With no instance
   * alive, a full GC (between two parses) frees it, and every optimized method that checks for it is
   * thrown away and compiled again, slowly, on the next parse (docs/performance.md).
   */
  static readonly keepShape = new BlockScanner('');

  // Declared, not defined: a class field would hold `undefined` until the constructor sets it, and
  // V8 would then track no map for it, checking the object's map on every read in the fast paths.
  declare private readonly stack: Containers;
  /** The stack's `need`, read by the fast paths. */
  declare private readonly need: number[];
  declare private readonly definition: DefinitionReader;
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
  private htmlKind = 0;
  private fenceChar = 0;
  private fenceLength = 0;
  /** Where the open fence's first fence character is. */
  fenceAt = 0;
  /**
   * After a `PARAGRAPH_START`, `PARAGRAPH_LINE` or `ATX_HEADING` line: where its text starts, after
   * the container prefixes and the blanks (the heading's first `#`), unless it starts at the line's
   * `first` character. Set only then, so that the anchor scanner's fast paths store nothing: a
   * reader sets it to -1 before `line` and reads -1 as `first` (`scanTextBlocks`).
   */
  contentAt = -1;

  constructor(private readonly text: string) {
    this.stack = new Containers(text);
    this.need = this.stack.need;
    this.definition = new DefinitionReader(text);
  }

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
   * Read the line `[start, end)` (without its line ending).
   *
   * The common lines take fast paths that do exactly what `slowLineKind` does for them, without its
   * cursor; the rest take the slow path. None of the fast paths starts indented code, the only block
   * that reads `closedLast`, so each may clear it on a line that is not blank (a blank line that
   * continues every open container keeps it).
   *
   * @param first - the line's first character that is not a space or tab (`end` when blank).
   * @param c - that character's code (read once, by the caller).
   * @returns what the line is (`lineKinds.ts`).
   */
  line(start: number, end: number, first: number, c: number): LineKind {
    // The most common lines, text or a blank line outside any block but a paragraph, here; the rest
    // in a method too large to be inlined, so that this one stays small enough to be inlined into the
    // scanner's loop.
    const leaf = this.leaf;
    if (this.need.length === 0 && (leaf === NONE || leaf === PARAGRAPH)) {
      if (first === end) {
        this.leaf = NONE;
        return OTHER;
      }
      if (first - start < 4) {
        if ((c >= 128 || STARTS[c] === 0) && (first === start || noTab(this.text, start, first))) {
          this.closedLast = false;
          this.leaf = PARAGRAPH;
          // PARAGRAPH_START after no leaf, PARAGRAPH_LINE after a paragraph.
          return (PARAGRAPH_START + leaf) as LineKind;
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
   * on its line, so nothing is open after it (an `HTML_LINE`).
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
        if (this.stack.stopsOpen) return this.slowLine(start, end);
      } else {
        const c = text.charCodeAt(first);
        if (this.leaf === PARAGRAPH && (c >= 128 || SPECIAL[c] === 0)) {
          this.closedLast = false;
          return PARAGRAPH_LINE;
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
      return OTHER;
    }
    if (first - start < 4 && noTab(text, start, first)) {
      const c = text.charCodeAt(first);
      if (leaf === NONE || leaf === PARAGRAPH) {
        if (c >= 128 || STARTS[c] === 0) {
          this.closedLast = false;
          this.leaf = PARAGRAPH;
          return (PARAGRAPH_START + leaf) as LineKind;
        }
        const kind = this.topLevelBlock(start, first, end, c);
        if (kind !== SLOW) return kind;
      } else if (leaf === FENCE) {
        this.closedLast = false;
        if (c === this.fenceChar && fenceCloses(text, first, end, c, this.fenceLength))
          this.leaf = NONE;
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
    const leaf = this.leaf;
    if (c === OPEN_BRACKET) {
      this.closedLast = false;
      if (leaf === PARAGRAPH) return PARAGRAPH_LINE;
      this.leaf = this.definition.start(first, end);
      return PARAGRAPH_START;
    }
    if (c === HASH) {
      this.closedLast = false;
      if (isAtxHeading(text, first, end)) {
        this.leaf = NONE;
        return ATX_HEADING;
      }
      this.leaf = PARAGRAPH;
      return (PARAGRAPH_START + leaf) as LineKind;
    }
    if (c === LT) {
      if (!isCommentStart(text, first)) return SLOW;
      this.closedLast = false;
      if (commentEnds(text, first, end)) this.leaf = NONE;
      else {
        this.leaf = HTML;
        this.htmlKind = 2;
      }
      return HTML_LINE;
    }
    if (c === DASH || c === STAR || c === PLUS) {
      if (!isBulletWithText(text, first, end)) return SLOW;
      // One space of padding: the content starts two columns after the marker's.
      this.closedLast = false;
      this.closedNow = false;
      this.stack.push(first - start + 2, 0);
      this.contentAt = first + 2;
      this.leaf =
        text.charCodeAt(first + 2) === OPEN_BRACKET
          ? this.definition.start(first + 2, end)
          : PARAGRAPH;
      return PARAGRAPH_START;
    }
    if (c === BACKTICK || c === TILDE) {
      const length = fenceOpenLength(text, first, end, c);
      if (length === 0) return SLOW;
      this.closedLast = false;
      this.leaf = FENCE;
      this.fenceChar = c;
      this.fenceLength = length;
      this.fenceAt = first;
      return FENCE_OPEN;
    }
    return SLOW;
  }

  private slowLine(start: number, end: number): LineKind {
    this.closedNow = false;
    const kind = this.slowLineKind(start, end);
    // A blank line (or one of only container markers) that closed nothing keeps `closedLast`.
    const stack = this.stack;
    this.closedLast = stack.emptyClosed || (this.closedLast && stack.blank && !this.closedNow);
    return kind;
  }

  private slowLineKind(start: number, end: number): LineKind {
    const text = this.text;
    const cur = this.stack;
    cur.reset(start, end);

    // 1. Which open containers does the line continue?
    let matched = cur.match();
    const allMatched = matched === this.need.length;

    // 2. Does the line continue the open leaf block?
    const leaf = this.leaf;
    if (allMatched) {
      if (leaf === FENCE) {
        if (
          cur.indent <= 3 &&
          !cur.blank &&
          fenceCloses(text, cur.nextOffset, end, this.fenceChar, this.fenceLength)
        )
          this.leaf = NONE;
        return FENCE_BODY;
      }
      if (leaf === INDENTED && (cur.indent >= 4 || cur.blank)) {
        if (!cur.blank) this.codeInterrupts = true;
        return INDENTED_CODE;
      }
      if (leaf === HTML) {
        if (cur.blank && this.htmlKind >= 6) this.leaf = NONE;
        else if (this.htmlKind <= 5 && htmlEnds(text, cur.offset, end, this.htmlKind))
          this.leaf = NONE;
        return HTML_LINE;
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
    // Where the last thematic break test of `missChar` on this line stopped (`thematicBreakMiss`).
    let missChar = 0;
    let missAt = 0;
    while (!cur.blank) {
      const p = cur.nextOffset;
      const c = text.charCodeAt(p);
      if (cur.indent >= 4) {
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
        cur.toNext();
        cur.offset++;
        cur.column++;
        const d = text.charCodeAt(cur.offset);
        if (d === SPACE || d === TAB) cur.advance(1);
        cur.findNext();
        closed = true;
        continue;
      }
      if (c === HASH) {
        if (isAtxHeading(text, p, end)) {
          this.open(matched);
          this.contentAt = p;
          return ATX_HEADING;
        }
      } else if (c === BACKTICK || c === TILDE) {
        const length = fenceOpenLength(text, p, end, c);
        if (length !== 0) {
          this.open(matched);
          this.leaf = FENCE;
          this.fenceChar = c;
          this.fenceLength = length;
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
          return HTML_LINE;
        }
      }
      if (
        (c === EQUALS || c === DASH) &&
        allMatched &&
        (this.leaf === PARAGRAPH || (this.leaf === DEFINITION && !this.definition.complete)) &&
        isSetextUnderline(text, p, end, c)
      ) {
        // The paragraph becomes a heading. After complete definitions only, the line is paragraph
        // text (or a thematic break, or, below, a list item).
        this.leaf = NONE;
        return SETEXT_UNDERLINE;
      }
      if ((c === STAR || c === DASH || c === UNDERSCORE) && (c !== missChar || p >= missAt)) {
        // A line of list markers (`- - - x`) asks at each one: the scan stops where it did before.
        const miss = thematicBreakMiss(text, p, end, c);
        if (miss < 0) {
          this.open(matched);
          return OTHER;
        }
        missChar = c;
        missAt = miss;
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
          (d !== PERIOD && d !== CLOSE_PAREN) ||
          (interrupt && (q - p !== 1 || c !== ONE))
        )
          break;
        q++;
      } else break;
      const after = q < end ? text.charCodeAt(q) : SPACE;
      if (after !== SPACE && after !== TAB) break;
      const blankItem = onlySpaceOrTab(text, q, end);
      if (interrupt && blankItem) break;
      const markerOffset = cur.indent;
      cur.toNext();
      const markerColumn = cur.column + (q - p);
      cur.offset = q;
      cur.column = markerColumn;
      // Spaces after the marker: 1-4 columns are padding; 5 or more (or none, at the end of the
      // line) mean padding 1 and the rest belongs to the content (an indented code block).
      cur.findNext();
      let padding = cur.nextColumn - markerColumn;
      if (padding >= 5 || blankItem) {
        padding = 1;
        if (!blankItem) cur.advance(1);
      } else cur.toNext();
      this.open(matched);
      this.push(markerOffset + (q - p) + padding, blankItem ? 1 : 0);
      matched++;
      cur.findNext();
      closed = true;
    }

    // 4. What is left is paragraph text, a lazy continuation line, or a blank line.
    if (!closed && !cur.blank) {
      if (this.leaf === PARAGRAPH) {
        this.contentAt = cur.nextOffset;
        return PARAGRAPH_LINE;
      }
      if (this.leaf === DEFINITION) {
        this.leaf = this.definition.line(cur.offset, cur.nextOffset, end);
        this.contentAt = cur.nextOffset;
        return PARAGRAPH_LINE;
      }
    }
    if (matched < this.need.length) this.close(matched);
    if (cur.blank) {
      if (this.leaf !== INDENTED) this.leaf = NONE;
      return OTHER;
    }
    this.contentAt = cur.nextOffset;
    if (this.leaf === DEFINITION) {
      this.leaf = this.definition.line(cur.offset, cur.nextOffset, end);
      return PARAGRAPH_LINE;
    }
    if (this.leaf === PARAGRAPH) return PARAGRAPH_LINE;
    this.leaf =
      text.charCodeAt(cur.nextOffset) === OPEN_BRACKET
        ? this.definition.start(cur.nextOffset, end)
        : PARAGRAPH;
    this.stack.markFilled();
    return PARAGRAPH_START;
  }

  /** A block starts after the `matched` containers: close the rest and the open leaf. */
  private open(matched: number): void {
    if (matched < this.need.length) this.close(matched);
    this.leaf = NONE;
    this.stack.markFilled();
  }

  private close(keep: number): void {
    this.closedNow = true;
    this.stack.close(keep);
    this.leaf = NONE;
  }

  private push(need: number, empty: number): void {
    // A line that opens a container starts a fresh flow in micromark: it is not lazy, whatever the
    // line before closed.
    this.closedNow = false;
    this.closedLast = false;
    this.stack.push(need, empty);
  }
}
