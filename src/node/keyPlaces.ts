/** Where the top-level keys of a front matter block are, for messages: a scan of its lines. */
import type { KnowledgePosition } from '../errors/codes.js';
import { lineEnd, nextLine, skipBlanks } from './lines.js';
import {
  APOSTROPHE,
  COLON,
  DASH,
  HASH,
  QUESTION,
  QUOTATION_MARK,
  isSpaceOrTab,
} from '../markdown/chars.js';

/** Where a value on the lines after its key starts: the first character of the next line, if indented or a list item. */
function nestedStart(raw: string, from: number, line: number): KnowledgePosition | undefined {
  const end = lineEnd(raw, from);
  const at = skipBlanks(raw, from, end);
  if (at === end || (at === from && raw.charCodeAt(at) !== DASH)) return undefined;
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
    if (first === QUESTION && (from + 1 === end || isSpaceOrTab(raw.charCodeAt(from + 1)))) {
      const at = skipBlanks(raw, from + 1, end);
      if (!places.has('?')) places.set('?', { line, column: at - from + 1 });
    } else if (first === QUOTATION_MARK || first === APOSTROPHE) {
      const closeAt = raw.indexOf(String.fromCharCode(first), from + 1);
      if (closeAt > from && closeAt < end && raw.charCodeAt(closeAt + 1) === COLON) {
        key = raw.slice(from + 1, closeAt);
        keyEnd = closeAt + 1;
      }
    } else if (!isSpaceOrTab(first) && first !== HASH && first !== DASH && from < end) {
      for (let i = from; i < end; i++) {
        if (raw.charCodeAt(i) !== COLON) continue;
        const after = raw.charCodeAt(i + 1);
        if (i + 1 === end || isSpaceOrTab(after)) {
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
