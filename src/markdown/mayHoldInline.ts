/**
 * The quick test that spares most `.md` pages the page-text scan: whether a page may hold inline
 * markup that is not text (an HTML tag or comment, a character reference) outside code. Candidates
 * are found with `indexOf`; each is looked at where it is: on a line of a fenced code block, or in a
 * code span of its line, it is code (a Rust page's `Vec<T>`). Fences are read approximately (a line
 * of three or more backticks or tildes after at most three spaces, closed by the same character at
 * least as long, as at the top level): the test only decides whether the exact scan runs. Linear:
 * the lines are walked forward once, up to the last candidate. Internal to `src/markdown`.
 */
import {
  BACKTICK,
  BANG,
  CR,
  DASH,
  GT,
  LF,
  NINE,
  SLASH,
  SPACE,
  TAB,
  TILDE,
  ZERO,
  isAlpha,
  isLinePrefixChar,
} from './chars.js';
import { characterReference } from './characterReference.js';

/**
 * Whether `text` may hold an HTML tag or comment, or (when `decode`) a character reference, outside
 * fenced code and code spans.
 *
 * @param text - a page's Markdown.
 * @param decode - whether character references count.
 * @returns `false` when the page-text scan would find no such markup to change.
 * @example
 * ```ts
 * mayHoldInline('```rust\nlet v: Vec<T>;\n```\n', true); // false
 * mayHoldInline('Press <kbd>K</kbd>\n', true); // true
 * ```
 */
export function mayHoldInline(text: string, decode: boolean): boolean {
  let lt = text.indexOf('<');
  let amp = decode ? text.indexOf('&') : -1;
  if (lt < 0 && amp < 0) return false;
  const code = new CodeCursor(text);
  while (lt >= 0 || amp >= 0) {
    let at: number;
    let candidate: boolean;
    if (amp < 0 || (lt >= 0 && lt < amp)) {
      at = lt;
      candidate = mayOpenTag(text, at);
      lt = text.indexOf('<', at + 1);
    } else {
      at = amp;
      candidate = characterReference(text, at) !== undefined;
      amp = text.indexOf('&', at + 1);
    }
    if (candidate && !code.holds(at)) return true;
  }
  return false;
}

/**
 * Whether the `<` at `at` may open a tag (a name, then a blank, `>`, `/` or the line's end; not an
 * autolink's `<https:` or `<a@b.c>`), a closing tag or a comment (`<!--`).
 */
function mayOpenTag(text: string, at: number): boolean {
  let p = at + 1;
  const c = text.charCodeAt(p);
  if (c === BANG) return text.startsWith('--', p + 1);
  if (c === SLASH) p++;
  if (!isAlpha(text.charCodeAt(p))) return false;
  p++;
  while (p < text.length) {
    const d = text.charCodeAt(p);
    if (!isAlpha(d) && !(d >= ZERO && d <= NINE) && d !== DASH) break;
    p++;
  }
  const d = text.charCodeAt(p);
  return (
    p >= text.length || d === SPACE || d === TAB || d === LF || d === CR || d === GT || d === SLASH
  );
}

/** Walks a text's lines forward, knowing which are in fenced code and where code spans are. */
class CodeCursor {
  /** The current line: `[start, end)`, `end` at its `\n` or the text's end. */
  private start = 0;
  private end: number;
  /** Whether the current line is a fence's line (its opening, body or closing). */
  private fenced: boolean;
  /** The open fence's character and length (`0`: none). */
  private fence = 0;
  private fenceLength = 0;
  private fenceIndent = 0;
  /** Whether the fences read may differ from CommonMark's: from there on, nothing is code. */
  private unsure = false;
  /** Code spans of the current line: backtick runs counted up to `ticksTo`, odd when one is open. */
  private ticksTo = 0;
  private open = false;

  constructor(private readonly text: string) {
    this.end = this.lineEnd(0);
    this.fenced = this.fenceLine();
  }

  /** Whether `at` (at or after the last place asked about) is in fenced code or a code span. */
  holds(at: number): boolean {
    while (at > this.end && this.end < this.text.length) {
      this.start = this.end + 1;
      this.end = this.lineEnd(this.start);
      this.fenced = this.fenceLine();
      this.ticksTo = this.start;
      this.open = false;
    }
    if (this.fenced) return true;
    const text = this.text;
    for (let i = this.ticksTo; i < at; i++)
      if (
        text.charCodeAt(i) === BACKTICK &&
        (i === this.start || text.charCodeAt(i - 1) !== BACKTICK)
      )
        this.open = !this.open;
    this.ticksTo = at;
    return this.open;
  }

  private lineEnd(from: number): number {
    const end = this.text.indexOf('\n', from);
    return end < 0 ? this.text.length : end;
  }

  /**
   * Reads the current line as a fence line or not, updating the open fence. Where the approximation
   * may be wrong (a fence after a list or quote marker, a fence body line indented less than its
   * opening, so perhaps past the end of its list item), it gives up: `unsure`, and nothing after
   * counts as code.
   */
  private fenceLine(): boolean {
    if (this.unsure) return false;
    const text = this.text;
    let p = this.start;
    while (p < this.end && p - this.start < 3 && text.charCodeAt(p) === SPACE) p++;
    const indent = p - this.start;
    const c = text.charCodeAt(p);
    let run = p;
    if (c === BACKTICK || c === TILDE) while (run < this.end && text.charCodeAt(run) === c) run++;
    const length = run - p;
    if (this.fence !== 0) {
      if (c === this.fence && length >= this.fenceLength && blankFrom(text, run, this.end))
        this.fence = 0;
      else if (indent < this.fenceIndent && !blankFrom(text, this.start, this.end)) {
        this.unsure = true;
        return false;
      }
      return true;
    }
    if (length < 3) {
      if (afterMarker(text, p, this.end)) this.unsure = true;
      return false;
    }
    // A backtick fence's info string holds no backtick.
    const tick = c === BACKTICK ? text.indexOf('`', run) : -1;
    if (tick >= 0 && tick < this.end) return false;
    this.fence = c;
    this.fenceLength = length;
    this.fenceIndent = indent;
    return true;
  }
}

/**
 * Whether the line from `p` is list or quote markers (`-`, `*`, `+`, `1.`, `1)`, `>`, with blanks)
 * and then three or more backticks or tildes: perhaps a fence inside a container.
 */
function afterMarker(text: string, p: number, end: number): boolean {
  let q = p;
  for (; q < end; q++) {
    const c = text.charCodeAt(q);
    if (!isLinePrefixChar(c)) break;
  }
  if (q === p || q + 3 > end) return false;
  const c = text.charCodeAt(q);
  return (
    (c === BACKTICK || c === TILDE) && text.charCodeAt(q + 1) === c && text.charCodeAt(q + 2) === c
  );
}

/** Whether `[from, end)` holds only spaces, tabs and a carriage return. */
function blankFrom(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}
