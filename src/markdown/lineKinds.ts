/**
 * What `BlockScanner.line` says a line is: the line kinds every consumer of the block structure
 * reads. Internal to `src/markdown`.
 */

/** A blank line, a thematic break, a line of container markers only: no inline text, no code. */
export const OTHER = 0;
/** The first line of a paragraph (its text from `BlockScanner.contentAt`). */
export const PARAGRAPH_START = 1;
/** A further line of the open paragraph, lazy or not (its text from `contentAt`). */
export const PARAGRAPH_LINE = 2;
/** An ATX heading (its `#` at `contentAt`; see `atxText`). */
export const ATX_HEADING = 3;
/** A setext underline: the open paragraph is a heading. */
export const SETEXT_UNDERLINE = 4;
/** A line of a raw HTML block. */
export const HTML_LINE = 5;
/** The line is in an indented code block. */
export const INDENTED_CODE = 6;
/** The line opens a fenced code block. */
export const FENCE_OPEN = 7;
/** The line is inside a fenced code block, or closes it. */
export const FENCE_BODY = 8;

/** One of the line kinds; code is `kind >= INDENTED_CODE`. */
export type LineKind =
  | typeof OTHER
  | typeof PARAGRAPH_START
  | typeof PARAGRAPH_LINE
  | typeof ATX_HEADING
  | typeof SETEXT_UNDERLINE
  | typeof HTML_LINE
  | typeof INDENTED_CODE
  | typeof FENCE_OPEN
  | typeof FENCE_BODY;
