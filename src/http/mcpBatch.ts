/**
 * Caps on an MCP batch (a JSON-RPC array, 2025 protocol): at most `maxBatchMembers` members, and an
 * answer of at most `maxBatchAnswerBytes`. Without them a 4.8 KB batch of 100 `tools/list` drew a
 * 3 MB answer: a cheap request, an expensive answer, multiplied by every client.
 *
 * @module
 */
import { readCapped } from '../shared/readCapped.js';
import { BOM, OPEN_BRACKET, SPACE } from '../markdown/chars.js';

/** Default `limits.maxBatchMembers`. */
export const DEFAULT_MAX_BATCH_MEMBERS = 32;
/** Default `limits.maxBatchAnswerBytes`: 512 KiB. */
export const DEFAULT_MAX_BATCH_ANSWER_BYTES = 512 * 1024;

/** The batch caps of a handler. */
export interface BatchLimits {
  readonly maxMembers: number;
  readonly maxAnswerBytes: number;
}

/**
 * The number of members of the batch `request` carries, or `undefined` when its body is not a JSON
 * array (one message, or not JSON: the SDK answers those). Reads a clone of the body.
 */
export async function batchSize(request: Request): Promise<number | undefined> {
  if (request.method !== 'POST' || request.body === null) return undefined;
  let text: string;
  try {
    text = await request.clone().text();
  } catch {
    return undefined;
  }
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) <= SPACE || text.charCodeAt(i) === BOM)) i++;
  if (text.charCodeAt(i) !== OPEN_BRACKET) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.length : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC `Invalid Request` answer (HTTP 400) saying what to do instead. */
export function batchRefused(message: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } }),
    { status: 400, headers: { 'content-type': 'application/json' } },
  );
}

/**
 * `response` read whole if it holds at most `maxBytes`, else a refusal naming the cap: reading stops
 * (and the SDK's stream is cancelled) at the first byte over it.
 */
export async function cappedAnswer(response: Response, maxBytes: number): Promise<Response> {
  if (response.body === null) return response;
  const chunks = await readCapped(response.body, maxBytes);
  if (chunks === undefined)
    return batchRefused(
      `Invalid Request: the answer to this batch is over ${maxBytes} bytes, the most a batch may get. Send its requests in smaller batches or one by one.`,
    );
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.byteLength;
  const body = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
