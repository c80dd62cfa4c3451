/**
 * How one value is written in the compact text of a tool result: as it is when it reads unambiguously
 * on one line, else as JSON.
 *
 * @module
 */
import {
  COMMA,
  DEL,
  EQUALS,
  LINE_SEPARATOR,
  PARAGRAPH_SEPARATOR,
  QUOTATION_MARK,
  SPACE,
} from '../markdown/chars.js';

/**
 * `text` as it is, or as a JSON string when it is empty, has a control character (a line break would
 * start a fake line), starts or ends with a space, or starts with `"` (so a quoted value always means
 * JSON). One pass with `charCodeAt`.
 *
 * @param text - a field's value, such as a path or a title.
 * @returns the text to write.
 * @example
 * ```ts
 * plain('pages/guide.md'); // 'pages/guide.md'
 * plain('two\nlines'); // '"two\\nlines"'
 * ```
 */
export function plain(text: string): string {
  const last = text.length - 1;
  if (last < 0 || text.charCodeAt(0) === SPACE || text.charCodeAt(0) === QUOTATION_MARK)
    return JSON.stringify(text);
  if (text.charCodeAt(last) === SPACE) return JSON.stringify(text);
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c < SPACE || c === DEL || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR)
      return JSON.stringify(text);
  }
  return text;
}

/**
 * `text` as one word of a `key=value` line: as `plain` writes it, and as JSON also when it holds a
 * space, a comma or `=` (a path such as `pages/my notes.md`).
 *
 * @param text - an ID or a path.
 * @returns the text to write.
 */
export function word(text: string): string {
  const written = plain(text);
  if (written !== text) return written;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === COMMA || c === EQUALS) return JSON.stringify(text);
  }
  return text;
}

/**
 * A JSON value on one line: a string through `plain`, anything else as compact JSON.
 *
 * @param value - any JSON value.
 * @returns the text to write.
 */
export function inline(value: unknown): string {
  return typeof value === 'string' ? plain(value) : JSON.stringify(value);
}

/**
 * A number with three significant digits: the order and gaps of scores show, the digits past them cost
 * tokens (the exact number stays in `structuredContent`).
 *
 * @param score - a positive number.
 */
export function shortNumber(score: number): string {
  return Number.isInteger(score) ? String(score) : String(Number(score.toPrecision(3)));
}

/**
 * Lines `key: value` for the keys of `record` not in `known` (a field a newer source or the
 * exploration tools add), so the text never drops what it does not know.
 *
 * @param record - an output object.
 * @param known - the keys already written.
 * @param indent - put before each line.
 */
export function extraLines(
  record: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  indent = '',
): string[] {
  const lines: string[] = [];
  for (const key of Object.keys(record))
    if (!known.has(key) && record[key] !== undefined)
      lines.push(`${indent}${key}: ${inline(record[key])}`);
  return lines;
}
