/**
 * The key that makes cursors tamper-evident: every cursor carries an HMAC-SHA256 tag over its payload
 * (`@noble/hashes`, synchronous, no Node built-in), so a cursor decoded, changed and encoded again is
 * refused. The key is random per process by default (every source of the process shares it, so a
 * source rebuilt by `--watch` still knows its predecessor's cursors, which are then stale, not forged);
 * replicas that must accept each other's cursors are given the same `cursorKey`.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';

/** Bytes of the tag a cursor carries: HMAC-SHA256 truncated to 128 bits (RFC 2104, section 5). */
export const CURSOR_TAG_BYTES = 16;

/** The smallest `cursorKey`, in bytes (UTF-8 for a string). */
export const MIN_CURSOR_KEY_BYTES = 16;

/** Signs cursor payloads with one key. */
export interface CursorSigner {
  /** The tag of `payload` (`CURSOR_TAG_BYTES` bytes). */
  tag(payload: Uint8Array): Uint8Array;
}

/** The `cursorKey` option's check: `undefined` when valid, else what it must be. */
export function cursorKeyProblem(value: unknown): string | undefined {
  const bytes =
    typeof value === 'string'
      ? new TextEncoder().encode(value)
      : value instanceof Uint8Array
        ? value
        : undefined;
  return bytes !== undefined && bytes.length >= MIN_CURSOR_KEY_BYTES
    ? undefined
    : `a secret string or Uint8Array of at least ${MIN_CURSOR_KEY_BYTES} bytes`;
}

function signerOf(key: Uint8Array): CursorSigner {
  // The keyed state is prepared once; each tag clones it (two compressions saved per cursor).
  const keyed = hmac.create(sha256, key);
  // One working copy and one output buffer, reused: each tag copies the keyed state into them
  // rather than allocating a new HMAC (two hash states and their buffers) per cursor.
  const work = keyed.clone();
  const digest = new Uint8Array(keyed.outputLen);
  return {
    tag: (payload) => {
      keyed._cloneInto(work);
      work.update(payload).digestInto(digest);
      return digest.slice(0, CURSOR_TAG_BYTES);
    },
  };
}

let processSigner: CursorSigner | undefined;

/**
 * The signer of a source: of `key` (a checked `cursorKey` option, copied), else the process's own,
 * made from 32 random bytes on first use.
 */
export function cursorSigner(key?: string | Uint8Array): CursorSigner {
  if (key === undefined) return (processSigner ??= signerOf(randomBytes(32)));
  return signerOf(typeof key === 'string' ? new TextEncoder().encode(key) : Uint8Array.from(key));
}
