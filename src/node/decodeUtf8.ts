/**
 * Strict UTF-8 decoding that says where the bytes go wrong. Node's `isUtf8` answers the common case;
 * only a file that fails it is walked byte by byte to find the offset.
 */
import { isUtf8 } from 'node:buffer';
import { BOM } from '../markdown/chars.js';

/** The decoded text (without a leading BOM), or the byte offset of the first invalid sequence. */
export type Utf8Result = { readonly text: string } | { readonly invalidAt: number };

/**
 * Decodes `bytes` as UTF-8, refusing invalid sequences instead of replacing them with U+FFFD.
 *
 * @param bytes - a file's bytes.
 * @returns `{ text }` without a leading BOM, or `{ invalidAt }`, the 0-based offset of the first bad byte.
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Result {
  if (!isUtf8(bytes)) return { invalidAt: firstInvalidByte(bytes) };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return { text: text.charCodeAt(0) === BOM ? text.slice(1) : text };
}

/** The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlongs, no surrogates). */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b === 0xe0) [need, min] = [2, 0xa0];
    else if (b === 0xed) [need, min, max] = [2, 0x80, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) [need, min] = [2, 0x80];
    else if (b === 0xf0) [need, min] = [3, 0x90];
    else if (b === 0xf4) [need, min, max] = [3, 0x80, 0x8f];
    else if (b >= 0xf1 && b <= 0xf3) [need, min] = [3, 0x80];
    else return i;
    const second = bytes[i + 1];
    if (second === undefined || second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}
