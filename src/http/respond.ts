/**
 * What every response of the handler is built from: the request ID, the error body, the `ETag`, and
 * content negotiation. Headers are built only from validated or encoded values.
 *
 * @module
 */
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorBody,
  type KnowledgeToolErrorCode,
} from '../agent/index.js';
import { newRequestId } from '../shared/requestId.js';
import { digest64 } from '../shared/digest.js';
import { COLON, DASH, PERIOD, UNDERSCORE, isAlnum } from '../markdown/chars.js';

/** `Cache-Control` of every answer: the body depends on who asks. */
export const CACHE_CONTROL = 'private, no-cache';

/** The methods every route allows. */
export const ALLOW = 'GET, HEAD, OPTIONS';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Longest `Retry-After`: 2³¹ − 1 seconds, which every client can hold. */
const MAX_RETRY_AFTER = 2_147_483_647;

/**
 * The request's `X-Request-Id` when it is 1–128 characters of `A-Za-z0-9._:-`, else a fresh `req-<uuid>`.
 *
 * @param header - the header's value, if any.
 */
export function requestIdFrom(header: string | null): string {
  if (header === null || header.length === 0 || header.length > 128) return newRequestId();
  for (let i = 0; i < header.length; i++) {
    const c = header.charCodeAt(i);
    const ok = isAlnum(c) || c === PERIOD || c === UNDERSCORE || c === COLON || c === DASH;
    if (!ok) return newRequestId();
  }
  return header;
}

/** Response headers as a plain record: Node's adapter writes a record straight out, a `Headers` it must copy. */
export type HeaderRecord = Record<string, string>;

/** Headers every answer carries. */
export function baseHeaders(requestId: string): HeaderRecord {
  return { 'X-Request-Id': requestId, 'Cache-Control': CACHE_CONTROL };
}

/** A JSON body with the given headers. */
export function jsonResponse(status: number, body: string, headers: HeaderRecord): Response {
  headers['Content-Type'] = JSON_TYPE;
  return wholeResponse(body, status, headers);
}

/** The answers made by `wholeResponse`: their body is a string or nothing, never an event stream. */
const WHOLE_ANSWERS = new WeakSet<Response>();

/**
 * An answer whose whole body is `body` (a string, or nothing), marked so that `isWholeAnswer` knows
 * it is no event stream without reading its headers.
 */
export function wholeResponse(
  body: string | null,
  status: number,
  headers: HeaderRecord,
): Response {
  const response = new Response(body, { status, headers });
  WHOLE_ANSWERS.add(response);
  return response;
}

/**
 * Whether `response` came from `wholeResponse`, so its body is no stream. Node's adapter asks this
 * before `response.headers`: reading them turns the adapter's plain header record into a `Headers`
 * object, which it must then copy back: about a tenth of the CPU a small read spends in the handler and
 * the adapter.
 *
 * @param response - an answer of the handler.
 * @returns `true` when its whole body was given at once.
 */
export function isWholeAnswer(response: Response): boolean {
  return WHOLE_ANSWERS.has(response);
}

/** Options of an error answer. */
export interface ErrorAnswer {
  readonly code: KnowledgeToolErrorCode;
  readonly message: string;
  readonly requestId: string;
  /** Default the code's status (414 is `INVALID_ARGUMENT` with its own status). */
  readonly status?: number | undefined;
  readonly retryAfterSeconds?: number | undefined;
  /** Extra headers (`Allow`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** An answer in the seed's error shape, with `Retry-After` when it says when to retry. */
export function errorResponse(answer: ErrorAnswer): Response {
  const status = answer.status ?? KNOWLEDGE_TOOL_ERROR_STATUS[answer.code];
  // Whole seconds in decimal digits, as `Retry-After` requires (a huge wait would print as `1e+30`).
  const wait = answer.retryAfterSeconds;
  const retryAfterSeconds =
    wait === undefined || Number.isNaN(wait)
      ? undefined
      : Math.min(MAX_RETRY_AFTER, Math.max(0, Math.ceil(wait)));
  const body: KnowledgeToolErrorBody = {
    error: {
      code: answer.code,
      message: answer.message,
      httpStatus: status,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    },
    requestId: answer.requestId,
  };
  const headers = baseHeaders(answer.requestId);
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
  if (answer.headers !== undefined) Object.assign(headers, answer.headers);
  return jsonResponse(status, JSON.stringify(body), headers);
}

/**
 * The `ETag` of a 200: the knowledge base's revision, the request's path and query, the
 * representation its `Accept` chose, and for a part of a long read its range (which the server's read
 * limit decides, not the URL).
 */
export function entityTag(
  revision: string,
  pathAndQuery: string,
  representation: 'json' | 'markdown',
  part?: string,
): string {
  const parts = [revision, pathAndQuery, representation, ...(part === undefined ? [] : [part])];
  return `"${digest64(JSON.stringify(parts))}"`;
}

/** Whether `If-None-Match` names `etag` (weak comparison, `*` matches any). */
export function notModified(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  for (const part of ifNoneMatch.split(',')) {
    let tag = part.trim();
    if (tag === '*') return true;
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === etag) return true;
  }
  return false;
}

/**
 * Whether a content route answers with Markdown: `Accept` names `text/markdown` with a higher `q` than
 * any `application/json` it names. Wildcards do not choose Markdown: `curl`'s default `* /*` gets JSON.
 */
export function prefersMarkdown(accept: string | null): boolean {
  if (accept === null) return false;
  let markdown = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [rawType = '', ...params] = part.split(';');
    const type = rawType.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value?.trim());
    }
    if (!(q > 0)) continue;
    if (type === 'text/markdown') markdown = Math.max(markdown, q);
    else if (type === 'application/json') json = Math.max(json, q);
  }
  return markdown > 0 && markdown > json;
}

/** A header value from any string: percent-encoded, so no control character or newline gets through. */
export function headerValue(value: string): string {
  return encodeURIComponent(value);
}
