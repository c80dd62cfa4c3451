/**
 * Request IDs of the agent and HTTP layers.
 *
 * @module
 */

/** A fresh `req-<uuid>` (Web Crypto, available in Node 20, browsers, Deno, Bun and workers). */
export function newRequestId(): string {
  return `req-${globalThis.crypto.randomUUID()}`;
}
