/** Where the top-level keys of a front matter block are, for messages: a scan of its lines. */
import type { KnowledgePosition } from '../errors/codes.js';
import { lineEnd, nextLine, skipBlanks } from './lines.js';

/** Where a value on the lines after its key starts: the first character of the next line, if indented or a list item. */
function nestedStart(raw: string, from: number, line: number): KnowledgePosition | undefined {
  const end = lineEnd(raw, from);
  const at = skipBlanks(raw, from, end);
  if (at === end || (at === from && raw.charCodeAt(at) !== 45) /* - */) return undefined;
  return { line, column: at - from + 1 };
}

/**
 * Where each top-level key's value starts, by a scan of the block's lines (keys at column 1, plain or
 * quoted). Messages use it, and so does the check for complex keys: a line that starts with YAML's
 * explicit key indicator (`?` and a blank) is recorded under `?`. A key it cannot place (in a flow mapping, say) is left out; callers place it at
 * the block's first line.
 */
export function keyPlaces(raw: string): Map<string, KnowledgePosition> {
  const places = new Map<string, KnowledgePosition>();
  let line = 2;
  for (let from = 0; from < raw.length; line++) {
    const end = lineEnd(raw, from);
    const first = raw.charCodeAt(from);
    let keyEnd = -1;
    let key: string | undefined;
    // YAML's explicit key indicator: `?` then a space, a tab or the line's end.
    if (
      first === 63 /* ? */ &&
      (from + 1 === end || raw.charCodeAt(from + 1) === 32 || raw.charCodeAt(from + 1) === 9)
    ) {
      const at = skipBlanks(raw, from + 1, end);
      if (!places.has('?')) places.set('?', { line, column: at - from + 1 });
    } else if (first === 34 /* " */ || first === 39 /* ' */) {
      const closeAt = raw.indexOf(String.fromCharCode(first), from + 1);
      if (closeAt > from && closeAt < end && raw.charCodeAt(closeAt + 1) === 58 /* : */) {
        key = raw.slice(from + 1, closeAt);
        keyEnd = closeAt + 1;
      }
    } else if (
      first !== 32 &&
      first !== 9 &&
      first !== 35 /* # */ &&
      first !== 45 /* - */ &&
      from < end
    ) {
      for (let i = from; i < end; i++) {
        if (raw.charCodeAt(i) !== 58) continue;
        const after = raw.charCodeAt(i + 1);
        if (i + 1 === end || after === 32 || after === 9) {
          key = raw.slice(from, i).trimEnd();
          keyEnd = i;
          break;
        }
      }
    }
    const next = nextLine(raw, end);
    if (key !== undefined && !places.has(key)) {
      const value = skipBlanks(raw, keyEnd + 1, end);
      places.set(
        key,
        value < end || next >= raw.length
          ? { line, column: value - from + 1 }
          : (nestedStart(raw, next, line + 1) ?? { line, column: value - from + 1 }),
      );
    }
    from = next;
  }
  return places;
}
