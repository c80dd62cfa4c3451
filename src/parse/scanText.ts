/**
 * The line scanner: one linear pass over anchored Markdown that finds anchor lines, near misses and
 * code fences. It allocates only for the lines that matter; body lines cost a few character reads.
 * Internal: `parseKnowledgeDocument` builds the tree as the anchors come, `formatKnowledgeDocument` uses it
 * to refuse string parts that would not survive a round trip.
 */
import type { KnowledgePosition } from '../errors/codes.js';
import { BlockScanner } from '../markdown/blockScanner.js';
import {
  BANG,
  BOM,
  COLON,
  CR,
  DASH,
  EM_DASH,
  EN_DASH,
  LF,
  LOWER_A,
  LT,
  OPEN_BRACE,
  SLASH,
  SPACE,
  TAB,
  UPPER_A,
  UPPER_Z,
  isAlpha,
  UNDERSCORE,
} from '../markdown/chars.js';
import { FENCE_BODY, FENCE_OPEN, INDENTED_CODE } from '../markdown/lineKinds.js';
import { LineReader, lineAfter } from '../markdown/lines.js';

/** An exact open anchor. */
export const OPEN = 1;
/** An exact close anchor. */
export const CLOSE = 2;
/**
 * A near miss: a line that starts with `<!--` and mentions `agent-section` but is not an exact anchor,
 * or an HTML-comment-like line whose keyword or opener is a typo of an anchor's (`isKeywordNearMiss`).
 */
export const MALFORMED = 3;

export type AnchorKind = typeof OPEN | typeof CLOSE | typeof MALFORMED;

/**
 * Called for each anchor or near-miss line, in text order, with the body run that came before it.
 * Positional arguments rather than an event object: a text with 100,000 sections would otherwise
 * allocate 200,000 objects only to take them apart again (docs/performance.md).
 *
 * @param kind - `OPEN`, `CLOSE` or `MALFORMED`.
 * @param id - the anchor's ID; empty for a near miss.
 * @param column - column of `<!--` (1 for exact anchors).
 * @param lineEnd - end of the line, before its line ending.
 * @param body - the body text between the previous anchor line and this one, from its first to its
 *   last non-blank line, line endings normalized to LF; `undefined` when there is none.
 */
export type AnchorHandler = (
  kind: AnchorKind,
  id: string,
  line: number,
  column: number,
  lineStart: number,
  lineEnd: number,
  body: string | undefined,
) => void;

/**
 * Called for each exact anchor line inside a fenced code block (body text, not an anchor), with the
 * line of the fence's opener. For the parser's error path only: it explains an unmatched anchor whose
 * pair is inside a fence.
 */
export type CodeAnchorHandler = (
  kind: typeof OPEN | typeof CLOSE,
  id: string,
  line: number,
  fenceLine: number,
) => void;

/** A fence still open at the end of the text. */
export interface OpenFence extends KnowledgePosition {
  /** The fence's character (`` ` `` or `~`) repeated to the opener's length. */
  readonly marker: string;
  /** The first anchor-shaped or near-miss line inside it, if any. */
  readonly swallowed: KnowledgePosition | undefined;
}

export interface ScanResult {
  /** The body text after the last anchor line, like the handler's `body`. */
  readonly tail: string | undefined;
  readonly openFence: OpenFence | undefined;
  /** Whether a raw HTML block of kind 1-5 is still open at top level at the end (see `BlockScanner.rawHtmlOpen`). */
  readonly rawHtmlOpen: boolean;
}

/** `A-Z a-z 0-9 _ . : -`, by char code. */
const ID_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-')
  ID_CHAR[c.charCodeAt(0)] = 1;

/** Whether `c` (a char code) may appear in a section ID written as a text anchor. */
export function isIdCharCode(c: number): boolean {
  return c < 128 && ID_CHAR[c] === 1;
}

/**
 * Scan `text` (a leading BOM is skipped), calling `onAnchor` per anchor line. Linear in `text.length`.
 * Lines come from the one line iterator (`LineReader`: `indexOf`) and are read with `charCodeAt`. Three fixed regular expressions run,
 * none of which can backtrack: two sticky ones read a line that starts with `<!--` as far as an
 * anchor's prefix and ID go (`exactAnchor`), and `/\r\n?/g` normalizes the body text of texts that
 * have CR line endings.
 *
 * With `mdx`, an anchor may also be written as an MDX comment, `{/* agent-section:ID *\/}` and
 * `{/* /agent-section:ID *\/}`, with the same spacing and ID rules (HTML comments are a syntax
 * error in MDX), and a line that starts with `{/*` and is an anchor's near miss is `MALFORMED`.
 */
export function scanText(
  text: string,
  onAnchor: AnchorHandler,
  onCode?: (line: number) => void,
  onCodeAnchor?: CodeAnchorHandler,
  mdx = false,
): ScanResult {
  const len = text.length;
  let pos = len > 0 && text.charCodeAt(0) === BOM ? 1 : 0;
  // The line iterator, asked only for line ends: this loop keeps its cursor in locals.
  const lines = new LineReader(text);
  let line = 0;
  let runStart = -1;
  let runEnd = -1;
  let fenceLine = 0;
  let fenceColumn = 0;
  let swallowed: KnowledgePosition | undefined;
  const blocks = new BlockScanner(text);

  while (pos < len) {
    line++;
    const start = pos;
    // The line's first character; below, its first after leading spaces and tabs.
    let c = text.charCodeAt(start);
    // An anchor line, the most common line after text in a knowledge base: read by `anchorEnd`
    // alone, its end found without `indexOf`, and handed to `blocks` as what it is, a one-line HTML
    // comment in column 1, unless the blocks open need the full line rule.
    if (c === LT && blocks.takesCommentLine) {
      const q = anchorEnd(text, pos);
      if (q >= 0) {
        blocks.commentLine();
        const kind = text.charCodeAt(pos + 5) === SLASH ? CLOSE : OPEN;
        onAnchor(
          kind,
          text.slice(pos + (kind === OPEN ? 19 : 20), q - 4),
          line,
          1,
          pos,
          q,
          runStart < 0 ? undefined : body(text, runStart, runEnd, lines.sawCarriageReturn),
        );
        runStart = -1;
        runEnd = -1;
        pos = lineAfter(text, q);
        continue;
      }
    }
    if (c === OPEN_BRACE && mdx && blocks.takesCommentLine) {
      const end = lines.lineEnd(start);
      const anchor = exactMdxAnchor(text, start, end);
      if (anchor !== 0) {
        blocks.commentLine();
        onAnchor(
          anchor,
          text.slice(start + (anchor === OPEN ? 18 : 19), end - 4),
          line,
          1,
          start,
          end,
          runStart < 0 ? undefined : body(text, runStart, runEnd, lines.sawCarriageReturn),
        );
        runStart = -1;
        runEnd = -1;
        pos = lineAfter(text, end);
        continue;
      }
    }
    // An empty line (a third of the lines in the bench's corpora): no `indexOf`.
    const end = c === LF ? start : lines.lineEnd(start);
    pos = c === LF ? start + 1 : lineAfter(text, end);
    let p = start;
    while ((c === SPACE || c === TAB) && ++p < end) c = text.charCodeAt(p);
    const kind = blocks.line(start, end, p, c);
    if (p === end) continue; // blank line
    if (kind >= INDENTED_CODE) {
      if (onCode !== undefined) onCode(line);
      if (kind === FENCE_OPEN) {
        fenceLine = line;
        fenceColumn = blocks.fenceAt - start + 1;
        swallowed = undefined;
      } else if (kind === FENCE_BODY && c === LT) {
        if (swallowed === undefined && isNearMiss(text, p, end))
          swallowed = { line, column: p - start + 1 };
        if (onCodeAnchor !== undefined && p === start) {
          const anchor = exactAnchor(text, start, end);
          if (anchor !== 0)
            onCodeAnchor(
              anchor,
              text.slice(start + (anchor === OPEN ? 19 : 20), end - 4),
              line,
              fenceLine,
            );
        }
      }
    } else if (c === LT || (c === OPEN_BRACE && mdx)) {
      const anchor =
        p !== start
          ? 0
          : c === LT
            ? exactAnchor(text, start, end)
            : exactMdxAnchor(text, start, end);
      if (anchor !== 0 || (c === LT ? isNearMiss(text, p, end) : isMdxNearMiss(text, p, end))) {
        onAnchor(
          anchor === 0 ? MALFORMED : anchor,
          anchor === 0
            ? ''
            : text.slice(start + (anchor === OPEN ? 19 : 20) - (c === LT ? 0 : 1), end - 4),
          line,
          p - start + 1,
          start,
          end,
          runStart < 0 ? undefined : body(text, runStart, runEnd, lines.sawCarriageReturn),
        );
        runStart = -1;
        runEnd = -1;
        continue;
      }
    }
    if (runStart < 0) runStart = start;
    runEnd = end;
  }

  return {
    tail: runStart < 0 ? undefined : body(text, runStart, runEnd, lines.sawCarriageReturn),
    openFence: blocks.fenceOpen
      ? { line: fenceLine, column: fenceColumn, marker: blocks.fenceMarker, swallowed }
      : undefined,
    rawHtmlOpen: blocks.rawHtmlOpen,
  };
}

const LINE_BREAK = /\r\n?/g;

/** `text[start, end)` with its line endings normalized to LF (a slice, unless the text has a CR). */
function body(text: string, start: number, end: number, hasCarriageReturn: boolean): string {
  return hasCarriageReturn
    ? text.slice(start, end).replace(LINE_BREAK, '\n')
    : text.slice(start, end);
}

/**
 * Where the line from `start` ends (its line ending, or the end of the text) when it is exactly an
 * anchor, else -1.
 */
function anchorEnd(text: string, start: number): number {
  if (start + 24 > text.length) return -1;
  const anchor = text.charCodeAt(start + 5) === SLASH ? CLOSE_ANCHOR : OPEN_ANCHOR;
  anchor.lastIndex = start;
  if (!anchor.test(text)) return -1;
  const q = anchor.lastIndex;
  if (q === start + (anchor === OPEN_ANCHOR ? 19 : 20) || !hasAt(text, q, CLOSE_SUFFIX)) return -1;
  if (q + 4 === text.length) return q + 4;
  const c = text.charCodeAt(q + 4);
  return c === LF || c === CR ? q + 4 : -1;
}

/** `OPEN` or `CLOSE` when `[start, end)` is exactly an anchor, else 0. */
function exactAnchor(text: string, start: number, end: number): 0 | typeof OPEN | typeof CLOSE {
  if (end - start < 24) return 0;
  const kind = text.charCodeAt(start + 5) === SLASH ? CLOSE : OPEN;
  const anchor = kind === OPEN ? OPEN_ANCHOR : CLOSE_ANCHOR;
  anchor.lastIndex = start;
  if (!anchor.test(text)) return 0;
  const q = anchor.lastIndex;
  if (q === start + (kind === OPEN ? 19 : 20) || q + 4 !== end || !hasAt(text, q, CLOSE_SUFFIX))
    return 0;
  return kind;
}

/**
 * An anchor's prefix and the ID characters after it, as far as they go: sticky, so it reads from
 * `lastIndex` only, and with its one quantifier last, so it never backtracks. One `test` of it costs
 * a third of the same comparisons written with `charCodeAt`, which V8 compiles to a dispatch on the
 * string's representation for every character (docs/performance.md).
 */
const OPEN_ANCHOR = /<!-- agent-section:[A-Za-z0-9_.:-]*/y;
const CLOSE_ANCHOR = /<!-- \/agent-section:[A-Za-z0-9_.:-]*/y;
/** The MDX comment form's prefix and ID (`.mdx` pages), read as `OPEN_ANCHOR` is. */
const MDX_OPEN_ANCHOR = /\{\/\* agent-section:[A-Za-z0-9_.:-]*/y;
const MDX_CLOSE_ANCHOR = /\{\/\* \/agent-section:[A-Za-z0-9_.:-]*/y;

/** `OPEN` or `CLOSE` when `[start, end)` is exactly an MDX comment anchor, else 0. */
export function exactMdxAnchor(
  text: string,
  start: number,
  end: number,
): 0 | typeof OPEN | typeof CLOSE {
  if (end - start < 23) return 0;
  const kind = text.charCodeAt(start + 4) === SLASH ? CLOSE : OPEN;
  const anchor = kind === OPEN ? MDX_OPEN_ANCHOR : MDX_CLOSE_ANCHOR;
  anchor.lastIndex = start;
  if (!anchor.test(text)) return 0;
  const q = anchor.lastIndex;
  if (q === start + (kind === OPEN ? 18 : 19) || q + 4 !== end || !hasAt(text, q, MDX_CLOSE_SUFFIX))
    return 0;
  return kind;
}

/**
 * A line (from `p`, its `{`) that starts with `{/*` and is an MDX anchor's near miss: it mentions
 * `agent-section` in any case, or its keyword (after blanks and an optional `/`) is within two edits
 * of it and followed by `:`.
 */
function isMdxNearMiss(text: string, p: number, end: number): boolean {
  if (end - p < 7 || !hasAt(text, p, MDX_COMMENT_START)) return false;
  return mentionsKeyword(text, p + 3, end) || keywordAt(text, p + 3, end);
}

// The fixed parts of an anchor line, as char codes: compared by `charCodeAt`, which TurboFan inlines,
// where `startsWith` is a call into the runtime's string builtins.
const codes = (s: string): readonly number[] => Array.from(s, (c) => c.charCodeAt(0));
const CLOSE_SUFFIX = codes(' -->');
const MDX_CLOSE_SUFFIX = codes(' */}');
const MDX_COMMENT_START = codes('{/*');
const COMMENT_START = codes('<!--');
const NEAR_MISS = codes('agent-section');

/** Whether `text` holds `expected` (char codes) at `at`. */
function hasAt(text: string, at: number, expected: readonly number[]): boolean {
  if (at + expected.length > text.length) return false;
  for (let i = 0; i < expected.length; i++)
    if (text.charCodeAt(at + i) !== expected[i]) return false;
  return true;
}

/**
 * A line (from `p`, its first non-blank character) that starts with `<!--` and mentions `agent-section`
 * in any case. Compared without allocating: the same answer as `toLowerCase().includes(...)` on the
 * rest of the line, because the only characters outside ASCII whose lower case holds an ASCII letter
 * are U+212A KELVIN SIGN (`k`, not in the word) and U+0130 (`i` followed by U+0307, which cannot be
 * followed by the word's `o`).
 */
function isAnchorLike(text: string, p: number, end: number): boolean {
  if (end - p < 17 || !hasAt(text, p, COMMENT_START)) return false;
  return mentionsKeyword(text, p + 4, end);
}

/** Whether `[from, end)` holds `agent-section` in any case (see `isAnchorLike`). */
function mentionsKeyword(text: string, from: number, end: number): boolean {
  const n = NEAR_MISS.length;
  for (let i = from; i + n <= end; i++) {
    let j = 0;
    while (j < n) {
      let c = text.charCodeAt(i + j);
      if (c >= UPPER_A && c <= UPPER_Z) c += LOWER_A - UPPER_A;
      if (c !== NEAR_MISS[j]) break;
      j++;
    }
    if (j === n) return true;
  }
  return false;
}

/** A line (from `p`, its first non-blank character `<`) that is an anchor's near miss of either kind. */
function isNearMiss(text: string, p: number, end: number): boolean {
  return isAnchorLike(text, p, end) || isKeywordNearMiss(text, p, end);
}

/** Whether `c` may be part of a comment opener's run after `<`: `!`, `-`, EN DASH, EM DASH. */
export const isOpenerCode = (c: number): boolean =>
  c === BANG || c === DASH || c === EN_DASH || c === EM_DASH;

/** Whether `c` may be part of a near miss's keyword: ASCII letters, `-`, `_`, space. */
export const isKeywordCode = (c: number): boolean =>
  isAlpha(c) || c === DASH || c === UNDERSCORE || c === SPACE;

/** The longest run of opener characters after `<`, and the longest keyword, that a near miss may have. */
const MAX_OPENER = 5;
const MAX_KEYWORD = 24;

/**
 * A line that looks like an anchor with a typo in its keyword or its comment opener: `<!-- agent-secton:x -->`,
 * `<!-- agent_section:x -->`, `<!-- agent-sections:x -->`, `<-- agent-section:x -->` (no `!`). From
 * `p` (its `<`) the line reads `<`, 1 to `MAX_OPENER` of `!` `-` (or a typographic dash), blanks, an
 * optional `/` and blanks, then a keyword of ASCII letters, `-`, `_` and spaces (at most `MAX_KEYWORD`)
 * and `:`; the keyword is within two edits of `agent-section` (`keywordDistance`). Reads a bounded
 * number of characters beyond blanks, and an HTML tag fails at its second character.
 */
export function isKeywordNearMiss(text: string, p: number, end: number): boolean {
  if (end - p < 10 || !isOpenerCode(text.charCodeAt(p + 1))) return false;
  let i = p + 2;
  while (i < end && isOpenerCode(text.charCodeAt(i))) {
    if (++i - p > MAX_OPENER + 1) return false;
  }
  return keywordAt(text, i, end);
}

/**
 * From `i` (after a comment's opener): blanks, an optional `/` and blanks, then a keyword within two
 * edits of `agent-section` followed by `:`. Reads at most `MAX_KEYWORD` characters beyond blanks.
 */
function keywordAt(text: string, i: number, end: number): boolean {
  while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  if (i < end && text.charCodeAt(i) === SLASH) {
    i++;
    while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  }
  const from = i;
  while (i < end && isKeywordCode(text.charCodeAt(i))) {
    if (++i - from > MAX_KEYWORD) return false;
  }
  if (i === from || i >= end || text.charCodeAt(i) !== COLON) return false;
  while (i > from && text.charCodeAt(i - 1) === SPACE) i--;
  return keywordDistance(text, from, i) <= 2;
}

const KEYWORD = 'agent-section';

/**
 * The optimal string alignment distance (insertions, deletions, substitutions, adjacent
 * transpositions) between `text[from, to)`, lower-cased, and `agent-section`, or 3 when it is more
 * than 2. At most `MAX_KEYWORD` × 13 steps.
 */
export function keywordDistance(text: string, from: number, to: number): number {
  const n = to - from;
  const m = KEYWORD.length;
  if (n - m > 2 || m - n > 2) return 3;
  // Three rows of the table: two back (for transpositions), the previous and the current one.
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let row = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    let c = text.charCodeAt(from + i - 1);
    if (c >= UPPER_A && c <= UPPER_Z) c += LOWER_A - UPPER_A;
    row[0] = i;
    let best = i;
    for (let j = 1; j <= m; j++) {
      const k = KEYWORD.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (c === k ? 0 : 1));
      if (i > 1 && j > 1) {
        let before = text.charCodeAt(from + i - 2);
        if (before >= UPPER_A && before <= UPPER_Z) before += LOWER_A - UPPER_A;
        if (c === KEYWORD.charCodeAt(j - 2) && before === k) d = Math.min(d, prev2[j - 2]! + 1);
      }
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > 2) return 3;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return Math.min(prev[m]!, 3);
}
