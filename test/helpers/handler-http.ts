/**
 * What the handler tests share: requests by path, the checks every answer must pass (the seed's error
 * shape with the request ID of `X-Request-Id`, the headers of a 200), and a promise that never settles
 * (a source that records its calls is the kit's `recordingSource`, catalog sources with chosen file IDs
 * its `sourceWithIds`).
 */
import { expect } from 'vitest';
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorBody,
  type KnowledgeToolErrorCode,
} from '../../src/agent/errors/codes.js';
import type { KnowledgeHandler } from '../../src/http/types.js';
import { ORIGIN, READER } from './exampleHandler.js';

/** The JSON content type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';
/** What `Allow` says on every route. */
export const ALLOW = 'GET, HEAD, OPTIONS';
/** A fresh request ID the handler made. */
export const FRESH_ID = /^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `handler(new Request(ORIGIN + path))` with the reader's credentials unless `init.headers` says otherwise. */
export function call(
  handler: KnowledgeHandler,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const url = path.startsWith('http') ? path : `${ORIGIN}${path}`;
  return handler(new Request(url, { headers: READER, ...init }));
}

/** A GET with the reader's credentials and extra headers. */
export function get(
  handler: KnowledgeHandler,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(handler, path, { headers: { ...READER, ...headers } });
}

/** What an error answer is expected to be. */
export interface ExpectedError {
  readonly code: KnowledgeToolErrorCode;
  /** Default the code's status. */
  readonly status?: number;
  readonly message?: RegExp;
  readonly retryAfterSeconds?: number;
}

/**
 * Check an error answer: status, `Content-Type`, `Cache-Control`, `X-Request-Id`, and the seed's body
 * `{ error: { code, message, httpStatus, retryAfterSeconds? }, requestId }` with `requestId` equal to
 * the header. Returns the body.
 */
export async function expectError(
  response: Response,
  expected: ExpectedError,
): Promise<KnowledgeToolErrorBody> {
  const status = expected.status ?? KNOWLEDGE_TOOL_ERROR_STATUS[expected.code];
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe(JSON_TYPE);
  expect(response.headers.get('cache-control')).toBe('private, no-cache');
  expect(response.headers.get('etag')).toBeNull();
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toEqual(expect.any(String));
  const body = JSON.parse(text) as KnowledgeToolErrorBody;
  expect(Object.keys(body).sort()).toEqual(['error', 'requestId']);
  expect(body.requestId).toBe(requestId);
  expect(body.error).toEqual({
    code: expected.code,
    message: expect.any(String),
    httpStatus: status,
    ...(expected.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: expected.retryAfterSeconds }),
  });
  expect(body.error.message.length).toBeGreaterThan(0);
  if (expected.message !== undefined) expect(body.error.message).toMatch(expected.message);
  if (expected.retryAfterSeconds === undefined)
    expect(response.headers.get('retry-after')).toBeNull();
  else expect(response.headers.get('retry-after')).toBe(String(expected.retryAfterSeconds));
  return body;
}

/** Check a JSON 200: the headers every 200 carries; returns the parsed body. */
export async function expectJson(response: Response): Promise<unknown> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expectOkHeaders(response, JSON_TYPE);
  return JSON.parse(text) as unknown;
}

/** The headers of every 200: `Content-Type`, `ETag`, `Cache-Control: private, no-cache`, `X-Request-Id`. */
export function expectOkHeaders(response: Response, contentType: string): void {
  expect(response.headers.get('content-type')).toBe(contentType);
  expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
  expect(response.headers.get('cache-control')).toBe('private, no-cache');
  expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
}

/** A response's headers as `[name, value]` pairs, in Headers' (sorted) order. */
export function headerEntries(response: Response): [string, string][] {
  const out: [string, string][] = [];
  response.headers.forEach((value, name) => out.push([name, value]));
  return out;
}

/** A promise that never settles: a hanging dependency. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}
