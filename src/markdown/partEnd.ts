/**
 * Where a part of a long text ends: at the last block boundary (the end of a blank line outside fenced
 * code, as `BlockScanner` reads the text's block structure) within a window, else at the last line
 * end, else at the window's end. What `read_file` parts are cut at. Internal.
 */
import { firstAtLeast } from '../shared/sortedSearch.js';
import { BlockScanner } from './blockScanner.js';
import { FENCE_BODY } from './lineKinds.js';
import { LineReader } from './lines.js';

/** Where lines and blocks of a text end: the places a part may be cut at, in increasing order. */
export interface PartBoundaries {
  /** Every line end (after its `\n`, `\r\n` or `\r`) before the text's end. */
  readonly lines: readonly number[];
  /** The line ends of blank lines outside fenced code. */
  readonly blocks: readonly number[];
}

/**
 * The places a part of `text` may end at, read once from the text's start (the block structure at a
 * place depends on every line before it). Linear in the text; compute it once and cut every part of
 * the text with `partEndIn`.
 *
 * @param text - the whole text the parts are cut from.
 * @param upTo - read only the boundaries at or before this index (default the whole text).
 * @returns its line and block boundaries.
 */
export function partBoundaries(text: string, upTo: number = text.length): PartBoundaries {
  const scanner = new BlockScanner(text);
  const reader = new LineReader(text);
  const lines: number[] = [];
  const blocks: number[] = [];
  while (reader.next < upTo && reader.read()) {
    const kind = scanner.line(reader.start, reader.end, reader.first, reader.code);
    const next = reader.next;
    if (reader.end >= text.length || next > upTo) break;
    lines.push(next);
    if (reader.first === reader.end && kind !== FENCE_BODY) blocks.push(next);
  }
  return { lines, blocks };
}

/** The largest value of the increasing `list` (of integers) in `(from, to]`, or `-1`. */
function lastIn(list: readonly number[], from: number, to: number): number {
  const after = firstAtLeast(list, to + 1);
  const found = after > 0 ? list[after - 1]! : -1;
  return found > from ? found : -1;
}

/**
 * `partEnd` over boundaries computed once (`partBoundaries`): logarithmic in the text's lines.
 *
 * @param boundaries - `partBoundaries(text)`.
 * @param length - `text.length`.
 * @param from - where the part starts (UTF-16 index).
 * @param to - the furthest end the limit allows (UTF-16 index), `from < to`.
 * @returns the part's end, as `partEnd(text, from, to)`.
 */
export function partEndIn(
  boundaries: PartBoundaries,
  length: number,
  from: number,
  to: number,
): number {
  if (to >= length) return length;
  const block = lastIn(boundaries.blocks, from, to);
  if (block !== -1) return block;
  const line = lastIn(boundaries.lines, from, to);
  return line !== -1 ? line : to;
}

/**
 * The end of the part of `text` that starts at `from` and may reach `to` (exclusive, a code point
 * boundary): the largest `end` in `(from, to]` that ends a blank line outside fenced code, else the
 * largest that ends a line (after its `\n`, `\r\n` or `\r`), else `to`. `to === text.length` is the
 * rest of the text. Reads the lines from the text's start to `to` once (the block structure at `from`
 * depends on every line before it), so it is linear in `to`.
 *
 * @param text - the whole text the parts are cut from.
 * @param from - where the part starts (UTF-16 index), `0` or the end of the previous part.
 * @param to - the furthest end the limit allows (UTF-16 index), `from < to <= text.length`.
 * @returns the part's end.
 * @example
 * ```ts
 * partEnd('a\n\n```\nb\n\nc\n```\nd', 0, 14); // 3: the blank line inside the fence is no boundary
 * ```
 */
export function partEnd(text: string, from: number, to: number): number {
  if (to >= text.length) return text.length;
  return partEndIn(partBoundaries(text, to), text.length, from, to);
}
