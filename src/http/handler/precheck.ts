/**
 * The first stage: the URL's length and the method, before anything is parsed or `access` runs; and
 * CORS, whose middleware answers preflights and adds its headers to every answer.
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { ALLOW, baseHeaders, errorResponse } from '../respond.js';
import type { HandlerConfig, HandlerEnv } from './context.js';

/** The methods of `{KB}/mcp`: the SDK takes POST (and answers others `405` with `Allow: POST`). */
export const MCP_ALLOW = 'OPTIONS, POST';

/** A request's verdict: a `Response` when it stops here, else `undefined`. */
export type Precheck = (request: Request, requestId: string) => Response | undefined;

/** Whether a path is some knowledge base's MCP endpoint, whose methods the SDK answers. */
export function mcpPathOf(config: HandlerConfig): (pathname: string) => boolean {
  const prefix = `${config.basePath}/knowledge-bases/`;
  return (pathname) => {
    if (!config.mcp || !pathname.startsWith(prefix)) return false;
    const slash = pathname.indexOf('/', prefix.length);
    return slash > prefix.length && pathname.length === slash + 4 && pathname.endsWith('/mcp');
  };
}

/** The URL limit and the methods (`OPTIONS` answered `204`, any other but GET and HEAD `405`). */
export function precheck(config: HandlerConfig): Precheck {
  const isMcpPath = mcpPathOf(config);
  const { maxUrlLength } = config;
  return (request, requestId) => {
    if (request.url.length > maxUrlLength) {
      return errorResponse({
        code: 'INVALID_ARGUMENT',
        status: 414,
        message: `The request URL is longer than ${maxUrlLength} characters. Shorten the query or the cursor.`,
        requestId,
      });
    }
    const method = request.method;
    // The MCP endpoint takes POST too; the SDK answers its methods but OPTIONS, answered here as on
    // every route. (GET and HEAD go on below, and reach it through the router; only other methods
    // pay for parsing the URL here.)
    const mcpPath =
      method !== 'GET' && method !== 'HEAD' && isMcpPath(new URL(request.url).pathname);
    if (method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: { ...baseHeaders(requestId), Allow: mcpPath ? MCP_ALLOW : ALLOW },
      });
    if (mcpPath) return undefined;
    if (method !== 'GET' && method !== 'HEAD') {
      return errorResponse({
        code: 'METHOD_NOT_ALLOWED',
        message: `${method} is not allowed: this endpoint only reads. Use GET.`,
        requestId,
        headers: { Allow: ALLOW },
      });
    }
    return undefined;
  };
}

/** `precheck` as a middleware: after CORS, so that a browser can read its answers too. */
export function precheckMiddleware(check: Precheck): MiddlewareHandler<HandlerEnv> {
  return async (c, next) => {
    const stop = check(c.req.raw, c.env.requestId);
    if (stop !== undefined) return stop;
    await next();
    return undefined;
  };
}

/** Hono's CORS middleware for `options.cors` (which must be set). */
export function corsMiddleware(config: HandlerConfig): MiddlewareHandler<HandlerEnv> {
  const options = config.options.cors!;
  return cors({
    origin: typeof options.origin === 'string' ? options.origin : [...options.origin],
    allowMethods: config.mcp
      ? ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE']
      : ['GET', 'HEAD', 'OPTIONS'],
    exposeHeaders: [
      'X-Request-Id',
      'ETag',
      'Retry-After',
      'WWW-Authenticate',
      'Allow',
      'X-Knowledge-Snapshot-Id',
      'X-Knowledge-File-Id',
      'X-Knowledge-Path',
      'X-Knowledge-Revision',
      'X-Knowledge-Content-Range',
      'X-Knowledge-Next-Cursor',
      ...(config.mcp ? ['Mcp-Session-Id', 'Mcp-Protocol-Version'] : []),
    ],
    maxAge: options.maxAgeSeconds ?? 600,
    credentials: options.credentials ?? false,
  });
}
