/**
 * Where a part of a long text ends: at the last block boundary (the end of a blank line outside fenced
 * code, as `BlockScanner` reads the text's block structure) within a window, else at the last line
 * end, else at the window's end. What `read_file` parts are cut at. Internal.
 */
import { BlockScanner } from './blockScanner.js';
import { FENCE_BODY } from './lineKinds.js';

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
  const scanner = new BlockScanner(text);
  let block = -1;
  let line = -1;
  let start = 0;
  let lf = -2;
  let cr = -2;
  const total = text.length;
  while (start < to) {
    if (lf < start && lf !== -1) lf = text.indexOf('\n', start);
    if (cr < start && cr !== -1) cr = text.indexOf('\r', start);
    const end = lf === -1 ? (cr === -1 ? total : cr) : cr === -1 ? lf : Math.min(lf, cr);
    let p = start;
    let c = p < end ? text.charCodeAt(p) : 0;
    while ((c === 32 || c === 9) && ++p < end) c = text.charCodeAt(p);
    const kind = scanner.line(start, end, p, c);
    if (end >= total) break;
    const next = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    if (next > to) break;
    if (next > from) {
      line = next;
      if (p === end && kind !== FENCE_BODY) block = next;
    }
    start = next;
  }
  return block > from ? block : line > from ? line : to;
}
