/**
 * A term row's postings as stored in `search_terms.postings` (`bytea`, schema version 3): unsigned
 * LEB128 varints, page numbers as the gap from the entry before in the same list: the number of file
 * fields, the content list (its entry count, then page gap, chunk place, count, length per entry),
 * then each file field's list in `FILE_FIELDS` order (its entry count, then page gap, count, length).
 * About 5 bytes per content entry where `integer[]` takes 16, and decoded in one linear pass. Plain
 * JavaScript (no Node built-in): the entry runs where PGlite does.
 */
import { CONTENT_STRIDE, FIELD_STRIDE, type TermRow } from '../agent/internals.js';

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Appends varints as hex (what `decode(…, 'hex')` reads back into `bytea`). */
class HexWriter {
  #parts: string[] = [];

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`postings: ${value} is not a non-negative integer`);
    let v = value;
    while (v >= 0x80) {
      this.#parts.push(HEX[(v % 0x80) + 0x80]!);
      v = Math.floor(v / 0x80);
    }
    this.#parts.push(HEX[v]!);
  }

  /** Entries of `stride` numbers, the first of each a page number, ascending. */
  list(values: readonly number[], stride: number): void {
    this.varint(values.length / stride);
    let page = 0;
    for (let i = 0; i < values.length; i += stride) {
      const next = values[i]!;
      if (next < page)
        throw new Error(`postings: page ${next} after page ${page}; entries must ascend by page`);
      this.varint(next - page);
      page = next;
      for (let k = 1; k < stride; k++) this.varint(values[i + k]!);
    }
  }

  text(): string {
    return this.#parts.join('');
  }
}

/**
 * The postings of a row, hex-encoded for `decode($n, 'hex')`.
 *
 * @param row - a term row.
 * @returns its content and field postings as hex.
 * @throws {Error} when a list does not ascend by page (a bug of the row's builder).
 */
export function encodePostings(row: TermRow): string {
  const out = new HexWriter();
  out.varint(row.fields.length);
  out.list(row.content, CONTENT_STRIDE);
  for (const list of row.fields) out.list(list, FIELD_STRIDE);
  return out.text();
}

/**
 * Read back what `encodePostings` wrote.
 *
 * @param bytes - the stored `bytea` (a `Uint8Array`, from `pg` and from PGlite alike).
 * @returns the content postings and the file-field postings, as `TermRow` holds them.
 * @throws {Error} when the bytes end early (a corrupt row).
 */
export function decodePostings(bytes: Uint8Array): { content: number[]; fields: number[][] } {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('postings: the stored row ends early');
      const b = bytes[at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  };
  const list = (stride: number): number[] => {
    const n = varint();
    const out = new Array<number>(n * stride);
    let page = 0;
    for (let e = 0, i = 0; e < n; e++) {
      page += varint();
      out[i++] = page;
      for (let k = 1; k < stride; k++) out[i++] = varint();
    }
    return out;
  };
  const fieldCount = varint();
  const content = list(CONTENT_STRIDE);
  const fields: number[][] = [];
  for (let f = 0; f < fieldCount; f++) fields.push(list(FIELD_STRIDE));
  return { content, fields };
}
