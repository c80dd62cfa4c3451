/**
 * The text of a cursor's payload: a list of JSON values written with few tokens and safe to paste
 * anywhere a cursor goes (a URL query, a shell word in double quotes, a JSON string), unlike base64,
 * which costs a model about one token per one and a half characters. Values are separated by `,`:
 *
 * - a string as it is (a space written `_`), after `~s` when that would start with a digit, `-` or
 *   `~`; `~s` alone is `""`. Letters, digits, `-`, `.`, `/`, `:`, `@`, `=` and most
 *   non-ASCII letters are written as they are; any other character as `~_` (an underscore), `~hh`,
 *   `~uhhhh` or `~vhhhhhh` (lower-case hexadecimal code point);
 * - a number as JavaScript writes it (without `+`); `~n`, `~t`, `~f` for `null`, `true`, `false`;
 * - an array as `~a` and its length, then its items; an object as `~o` and its size, then its keys
 *   and values.
 *
 * `["read_file", { "path": "pages/http.md" }, [197, 197]]` is `read~_file,~o1,path,pages/http.md,~a2,197,197`.
 *
 * @module
 */
import type { JsonValue } from '../types.js';
import {
  AT,
  BOM,
  COLON,
  DASH,
  EQUALS,
  PERIOD,
  SLASH,
  SPACE,
  TILDE,
  UNDERSCORE,
  ZERO,
  isAlpha,
  isDigit,
} from '../../markdown/chars.js';

/** Deepest nesting read back: a payload nests two or three levels. */
const MAX_DEPTH = 8;

/** Whether code unit `c` (ASCII) is written as it is inside a string. */
function isPlainAscii(c: number): boolean {
  return (
    isAlpha(c) ||
    (c >= ZERO && c <= COLON) || // 0-9 :
    c === DASH ||
    c === PERIOD ||
    c === SLASH ||
    c === EQUALS ||
    c === AT
  );
}

/**
 * Whether code point `p` (non-ASCII) is written as it is: letters and signs of scripts, not the
 * invisible, spacing or line-breaking ones a copy could lose or change.
 */
function isPlainWide(p: number): boolean {
  return (
    p >= 0xa1 &&
    p !== 0xad &&
    !(p >= 0x2000 && p <= 0x206f) &&
    p !== 0x3000 &&
    !(p >= 0xd800 && p <= 0xdfff) &&
    p !== BOM &&
    !(p >= 0xfff0 && p <= 0xffff)
  );
}

function hex(p: number, digits: number): string {
  return p.toString(16).padStart(digits, '0');
}

function writeString(text: string): string {
  let out = '';
  // The plain characters are copied a run at a time (`plain` starts the current run).
  let plain = 0;
  for (let i = 0; i < text.length; i++) {
    const p = text.codePointAt(i)!;
    if (p < 0x80 ? isPlainAscii(p) : isPlainWide(p)) {
      if (p > 0xffff) i++;
      continue;
    }
    out += text.slice(plain, i);
    plain = i + (p > 0xffff ? 2 : 1);
    if (p > 0xffff) i++;
    if (p === SPACE) out += '_';
    else if (p === UNDERSCORE) out += '~_';
    else if (p < 0x100) out += `~${hex(p, 2)}`;
    else if (p <= 0xffff) out += `~u${hex(p, 4)}`;
    else out += `~v${hex(p, 6)}`;
  }
  out += text.slice(plain);
  // A word starting with a digit, `-` or `~` would read as a number or a marker.
  const first = out.charCodeAt(0);
  return out === '' || isDigit(first) || first === DASH || first === TILDE ? `~s${out}` : out;
}

function writeValue(value: JsonValue, out: string[]): void {
  if (value === null) out.push('~n');
  else if (value === true) out.push('~t');
  else if (value === false) out.push('~f');
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('A cursor holds finite numbers only.');
    out.push(String(value).replace('+', ''));
  } else if (typeof value === 'string') out.push(writeString(value));
  else if (Array.isArray(value)) {
    out.push(`~a${value.length}`);
    for (const item of value) writeValue(item, out);
  } else {
    const record = value as { readonly [key: string]: JsonValue };
    const keys = Object.keys(record);
    out.push(`~o${keys.length}`);
    for (const key of keys) {
      out.push(writeString(key));
      writeValue(record[key]!, out);
    }
  }
}

/**
 * The text of `values`.
 *
 * @param values - JSON values (finite numbers).
 * @returns their text, as the module describes it.
 * @throws {TypeError} for a number that is not finite.
 */
export function writeCursorText(values: readonly JsonValue[]): string {
  const out: string[] = [];
  for (const value of values) writeValue(value, out);
  return out.join(',');
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:e-?\d+)?$/;

/** Reads the words of a text one by one. */
class Reader {
  readonly #words: string[];
  #at = 0;
  constructor(text: string) {
    this.#words = text.split(',');
  }
  get left(): number {
    return this.#words.length - this.#at;
  }
  next(): string | undefined {
    return this.#words[this.#at++];
  }
}

/** The string a word writes, or `undefined` when it is not one. */
function readString(word: string): string | undefined {
  let i = word.startsWith('~s') ? 2 : 0;
  if (i === 0 && word.charCodeAt(0) === TILDE) return undefined;
  let out = '';
  while (i < word.length) {
    const c = word.charCodeAt(i);
    if (c === UNDERSCORE) {
      out += ' ';
      i++;
    } else if (c !== TILDE) {
      const p = word.codePointAt(i)!;
      if (p < 0x80 ? !isPlainAscii(p) : !isPlainWide(p)) return undefined;
      out += String.fromCodePoint(p);
      i += p > 0xffff ? 2 : 1;
    } else {
      const kind = word.charCodeAt(i + 1);
      const digits = kind === 0x75 /* u */ ? 4 : kind === 0x76 /* v */ ? 6 : 2;
      if (kind === UNDERSCORE) {
        out += '_';
        i += 2;
        continue;
      }
      const start = digits === 2 ? i + 1 : i + 2;
      const code = word.slice(start, start + digits);
      if (code.length !== digits || !/^[0-9a-f]+$/.test(code)) return undefined;
      const p = Number.parseInt(code, 16);
      if (p > 0x10ffff) return undefined;
      out += String.fromCodePoint(p);
      i = start + digits;
    }
  }
  return out;
}

function readValue(reader: Reader, depth: number): JsonValue | undefined {
  const word = reader.next();
  if (word === undefined) return undefined;
  if (word === '~n') return null;
  if (word === '~t') return true;
  if (word === '~f') return false;
  const first = word.charCodeAt(0);
  if (isDigit(first) || first === DASH) {
    if (!NUMBER.test(word)) return undefined;
    const value = Number(word);
    return Number.isFinite(value) ? value : undefined;
  }
  if (word.startsWith('~a') || word.startsWith('~o')) {
    const size = word.slice(2);
    if (depth >= MAX_DEPTH || !/^\d{1,6}$/.test(size)) return undefined;
    const count = Number(size);
    const object = word.charCodeAt(1) === 0x6f;
    // Each value takes a word at least: a size past the words left is not one we wrote.
    if ((object ? 2 * count : count) > reader.left) return undefined;
    if (!object) {
      const items: JsonValue[] = [];
      for (let i = 0; i < count; i++) {
        const item = readValue(reader, depth + 1);
        if (item === undefined) return undefined;
        items.push(item);
      }
      return items;
    }
    const record: Record<string, JsonValue> = {};
    for (let i = 0; i < count; i++) {
      const key = readString(reader.next() ?? '~');
      const value = key === undefined ? undefined : readValue(reader, depth + 1);
      if (key === undefined || value === undefined || Object.hasOwn(record, key)) return undefined;
      // Defined, not assigned: a key `__proto__` is a field like any other, as in `JSON.parse`.
      Object.defineProperty(record, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return record;
  }
  return readString(word);
}

/**
 * The values a text writes, or `undefined` when it is not a text `writeCursorText` writes.
 *
 * @param text - a payload's text.
 * @returns its values.
 */
export function readCursorText(text: string): JsonValue[] | undefined {
  const reader = new Reader(text);
  const values: JsonValue[] = [];
  while (reader.left > 0) {
    const value = readValue(reader, 0);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}
