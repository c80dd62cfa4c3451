/** Line boundaries as the parser counts them (LF, CRLF and a lone CR each end a line), and the blanks in a line. */
import { CR, LF, skipSpaceOrTab } from '../markdown/chars.js';

/** The end of the line starting at `from` (the index of its line break, or `text.length`). */
export function lineEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
    i++;
  }
  return i;
}

/** The index after the line break at `end` (CRLF, LF or CR). */
export function nextLine(text: string, end: number): number {
  if (end >= text.length) return end;
  return text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
}

/** The first index from `from` (before `end`) that is not a space or a tab, or `end`: the grammar's. */
export { skipSpaceOrTab as skipBlanks };
