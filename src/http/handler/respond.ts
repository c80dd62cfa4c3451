/**
 * The `respond` stage: a tool's output as the answer, 200 with its `ETag` (or 304), in JSON or, for
 * a content route that prefers it, Markdown with the file's headers; and the request ID on answers
 * Hono made itself.
 *
 * @module
 */
import type { Context } from 'hono';
import type { ContentRange } from '../../agent/index.js';
import { digest64 } from '../../shared/digest.js';
import {
  ALLOW,
  baseHeaders,
  CACHE_CONTROL,
  entityTag,
  headerValue,
  jsonResponse,
  notModified,
  prefersMarkdown,
  wholeResponse,
} from '../respond.js';
import type { HandlerEnv } from './context.js';

/** A 200 (or 304) with the `ETag` of this request's representation. */
export function ok(c: Context<HandlerEnv>, output: object, content: boolean): Response {
  const { requestId } = c.env;
  const request = c.req.raw;
  const markdown = content && prefersMarkdown(request.headers.get('accept'));
  const body = markdown ? undefined : JSON.stringify(output);
  const url = c.env.url;
  // A part's bytes depend on the server's read limit, not only on the URL: its range is in the tag.
  const partRange = (output as { readonly file?: { readonly contentRange?: ContentRange } }).file
    ?.contentRange;
  const etag = entityTag(
    revisionOf(output) ?? digest64(body ?? ''),
    url.pathname + url.search,
    markdown ? 'markdown' : 'json',
    partRange === undefined ? undefined : `${partRange.start}-${partRange.end}/${partRange.total}`,
  );
  const headers = baseHeaders(requestId);
  headers['ETag'] = etag;
  if (content) headers['Vary'] = 'Accept';
  if (notModified(request.headers.get('if-none-match'), etag))
    return wholeResponse(null, 304, headers);
  if (!markdown) return jsonResponse(200, body!, headers);
  const {
    file,
    content: text,
    nextCursor,
  } = output as {
    file: {
      snapshotId: string | null;
      fileId: string;
      path: string;
      revision: string | number;
      contentRange?: { start: number; end: number; total: number };
    };
    content: string;
    nextCursor?: string | null;
  };
  headers['Content-Type'] = 'text/markdown; charset=utf-8';
  if (file.snapshotId !== null) headers['X-Knowledge-Snapshot-Id'] = headerValue(file.snapshotId);
  headers['X-Knowledge-File-Id'] = headerValue(file.fileId);
  headers['X-Knowledge-Path'] = headerValue(file.path);
  headers['X-Knowledge-Revision'] = headerValue(String(file.revision));
  // A part: which code points of the selection it holds, and the cursor of the next (base64url).
  const range = file.contentRange;
  if (range !== undefined)
    headers['X-Knowledge-Content-Range'] = `${range.start}-${range.end}/${range.total}`;
  if (typeof nextCursor === 'string') headers['X-Knowledge-Next-Cursor'] = headerValue(nextCursor);
  return wholeResponse(text, 200, headers);
}

/** The knowledge base's revision as an output states it (`read_related` states none). */
function revisionOf(output: object): string | undefined {
  const o = output as {
    activeContentRevision?: unknown;
    file?: { activeContentRevision?: unknown };
  };
  const revision = o.activeContentRevision ?? o.file?.activeContentRevision;
  return typeof revision === 'string' || typeof revision === 'number'
    ? String(revision)
    : undefined;
}

/** Hono answers some requests itself (a CORS preflight): give them the request ID and `Allow` too. */
export function withRequestId(response: Response, requestId: string, options: boolean): Response {
  if (response.headers.get('X-Request-Id') === requestId && !options) return response;
  const headers = new Headers(response.headers);
  headers.set('X-Request-Id', requestId);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', CACHE_CONTROL);
  if (options) headers.set('Allow', ALLOW);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
