/**
 * `createKnowledgeHandler`: the read-only Fetch endpoint of `shared/spec/http.md`, routed by Hono.
 * Every route is a `GET` over the caller's `KnowledgeSource`; `access` is the control point.
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  nonNegativeInteger,
  positiveInteger,
  timeoutMs as timeoutCheck,
  type OptionCheck,
} from '../internal/checkOptions.js';
import { guardInput } from '../internal/guard.js';
import { snapshotOptions } from '../internal/snapshotOptions.js';
import { isPlainObject } from '../internal/values.js';
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  isKnowledgeToolError,
  type KnowledgeToolErrorCode,
  type ContentRange,
  type KnowledgeCallContext,
  type KnowledgeSource,
} from '../agent/index.js';
import { digest64 } from '../internal/digest.js';
import {
  missingSourceMethod,
  type ToolDefinition,
  type ToolRouteSpec,
  KNOWLEDGE_TOOLS,
  type KnowledgeToolRegistry,
  MAX_QUERY_CODE_POINTS,
} from '../agent/internals.js';
import { show } from '../internal/show.js';
import { Deadline, DeadlineClock, DeadlineError } from './deadline.js';
import { McpEndpoints } from './mcpEndpoint.js';
import {
  ParamError,
  pathArgs,
  readParams,
  ROUTE_PARAMS,
  routeRules,
  type ParamRules,
} from './params.js';
import {
  ALLOW,
  baseHeaders,
  CACHE_CONTROL,
  entityTag,
  errorResponse,
  headerValue,
  jsonResponse,
  notModified,
  prefersMarkdown,
  requestIdFrom,
} from './respond.js';
import type {
  KnowledgeAccess,
  KnowledgeBaseEntry,
  KnowledgeHandler,
  KnowledgeHandlerOptions,
  KnowledgeOperation,
  RateLimitDecision,
} from './types.js';

const API = 'createKnowledgeHandler';
const DEFAULT_MAX_URL = 32_768;
const DEFAULT_MAX_QUERY = MAX_QUERY_CODE_POINTS;
const DEFAULT_TIMEOUT_MS = 30_000;
/** The methods of `{KB}/mcp`: the SDK takes POST (and answers others `405` with `Allow: POST`). */
const MCP_ALLOW = 'OPTIONS, POST';

const CHECKS: Readonly<Record<keyof KnowledgeHandlerOptions, OptionCheck>> = {
  access: func,
  basePath: (v) =>
    typeof v === 'string' &&
    (v === '' || (v.startsWith('/') && !v.endsWith('/') && !/[?#\s\\]/.test(v)))
      ? undefined
      : "'' or a path that starts with '/' and does not end with '/' (such as '/openapi/v2')",
  // Visible ASCII, spaces and tabs only, trimmed: what every runtime accepts in a header (RFC 9110).
  authenticateHeader: (v) =>
    typeof v === 'string' && /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/.test(v)
      ? undefined
      : 'a header value of visible ASCII characters, spaces and tabs, with none at either end',
  rateLimit: func,
  cors: (v) =>
    isPlainObject(v) &&
    (typeof v['origin'] === 'string' ||
      (Array.isArray(v['origin']) && v['origin'].every((o) => typeof o === 'string')))
      ? undefined
      : "an object { origin } with one origin, a list of origins, or '*'",
  limits: (v) => (isPlainObject(v) ? undefined : 'an object { maxUrlLength?, maxQueryChars? }'),
  timeoutMs: timeoutCheck,
  onError: func,
  mcp: (v) =>
    typeof v === 'boolean' ||
    (isPlainObject(v) &&
      Object.keys(v).every((key) => key === 'version') &&
      (v['version'] === undefined || (typeof v['version'] === 'string' && v['version'] !== '')))
      ? undefined
      : 'true, false, or { version } with a non-empty version string',
};

const LIMIT_CHECKS: Readonly<Record<string, OptionCheck>> = {
  maxUrlLength: positiveInteger,
  maxQueryChars: positiveInteger,
};
const CORS_CHECKS: Readonly<Record<string, OptionCheck>> = {
  origin: () => undefined,
  maxAgeSeconds: nonNegativeInteger,
  credentials: (v) => (typeof v === 'boolean' ? undefined : 'a boolean'),
};

/** What Hono's context carries for one request. */
interface HandlerEnv {
  readonly Bindings: { readonly requestId: string; readonly deadline: Deadline; readonly url: URL };
}

/** One route of the table: its tool, its pattern, its query rules and the arguments of its path. */
interface RouteEntry {
  readonly tool: ToolDefinition;
  readonly route: ToolRouteSpec;
  readonly rules: ParamRules;
  readonly inPath: readonly string[];
}

/**
 * The route table of a registry: every route of every tool, those with fewer path arguments first so
 * that `/files/content` is not read as the file ID `content`.
 */
function routeTable(registry: KnowledgeToolRegistry): readonly RouteEntry[] {
  const table = registry.flatMap((tool) =>
    tool.http.routes.map((route) => ({
      tool,
      route,
      rules: routeRules(tool, route),
      inPath: pathArgs(route),
    })),
  );
  return table.sort((a, b) => a.inPath.length - b.inPath.length);
}

/**
 * For a path under `files/` that no route takes, because the file ID in it holds an unencoded `/`: the
 * URL to use, with the ID percent-encoded (`…/files/guides%2Fintro/content`); else `''`.
 */
function encodedHint(url: URL, basePath: string): string {
  const prefix = `${basePath}/knowledge-bases/`;
  const path = url.pathname;
  if (!path.startsWith(prefix)) return '';
  const kbEnd = path.indexOf('/', prefix.length);
  if (kbEnd < 0 || !path.startsWith('/files/', kbEnd)) return '';
  const rest = path.slice(kbEnd + '/files/'.length).split('/');
  const last = rest[rest.length - 1];
  const tail = last === 'content' || last === 'related' ? `/${last}` : '';
  const segments = tail === '' ? rest : rest.slice(0, -1);
  if (segments.length < 2 || segments.some((s) => s === '')) return '';
  let fileId: string;
  try {
    fileId = segments.map((s) => decodeURIComponent(s)).join('/');
  } catch {
    return '';
  }
  const fixed = `${path.slice(0, kbEnd)}/files/${encodeURIComponent(fileId)}${tail}${url.search}`;
  return ` A file ID that holds \`/\` must be percent-encoded in the path: if the file ID is ${JSON.stringify(fileId)}, request ${fixed}.`;
}

/** The routes as the 404 answer lists them: the spec's order, `{name}` for path arguments. */
function routeList(registry: KnowledgeToolRegistry): string {
  const routes = registry.flatMap((tool) => tool.http.routes);
  const place = (route: ToolRouteSpec) => route.listed ?? Number.MAX_SAFE_INTEGER;
  return [...routes]
    .sort((a, b) => place(a) - place(b))
    .map((route) => {
      const path = route.path
        .split('/')
        .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
        .join('/');
      const first = route.required?.[0];
      return first === undefined ? path : `${path}?${first}=`;
    })
    .join(', ');
}

/**
 * A read-only Fetch handler serving knowledge bases to agents that can only make HTTP requests: the
 * routes of `shared/spec/http.md` (`/knowledge-bases`, and under each knowledge base `/tree`,
 * `/files/{fileId}`, `/files/{fileId}/content`, `/files/content`, `/files/{fileId}/related`,
 * `/graph/expand`, `/search`), with `access` deciding, per request, which knowledge bases the caller may
 * read. It never throws, never writes, and keeps no state beyond what `rateLimit` keeps.
 *
 * @param options - `access` (required), `basePath`, `authenticateHeader`, `rateLimit`, `cors`,
 * `limits`, `timeoutMs`, `onError`.
 * @returns `(request: Request) => Promise<Response>`, for any Fetch runtime (`toNodeListener` for `node:http`).
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options`.
 * @example
 * ```ts
 * const handler = createKnowledgeHandler({
 *   basePath: '/openapi/v2',
 *   access: async (request) => {
 *     const user = await users.fromBearer(request.headers.get('authorization'));
 *     return user ? { knowledgeBases: { handbook: { source, title: 'Handbook' } } } : null;
 *   },
 * });
 * // Bun.serve({ fetch: handler }), Deno.serve(handler), export default { fetch: handler }, …
 * ```
 */
export function createKnowledgeHandler(options: KnowledgeHandlerOptions): KnowledgeHandler {
  return registryHandler(KNOWLEDGE_TOOLS, options);
}

/**
 * `createKnowledgeHandler` over any registry (internal: the six tools' registry is the default).
 *
 * @param registry - the tools whose routes are served.
 * @param options - as `createKnowledgeHandler` takes them.
 * @returns the handler.
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options`.
 */
export function registryHandler(
  registry: KnowledgeToolRegistry,
  options: KnowledgeHandlerOptions,
): KnowledgeHandler {
  const opts = readHandlerOptions(options);
  const table = routeTable(registry);
  const listing = routeList(registry);
  const basePath = opts.basePath ?? '';
  const maxUrlLength = opts.limits?.maxUrlLength ?? DEFAULT_MAX_URL;
  const maxQueryChars = opts.limits?.maxQueryChars ?? DEFAULT_MAX_QUERY;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = new DeadlineClock(timeoutMs);
  const mcp =
    opts.mcp === false
      ? undefined
      : new McpEndpoints(
          registry,
          opts.mcp === true || opts.mcp === undefined ? {} : opts.mcp,
          (error) => reportError(error, ''),
        );
  const mcpPrefix = `${basePath}/knowledge-bases/`;
  /** Whether a path is some knowledge base's MCP endpoint, whose methods the SDK answers. */
  const isMcpPath = (pathname: string): boolean => {
    if (mcp === undefined || !pathname.startsWith(mcpPrefix)) return false;
    const slash = pathname.indexOf('/', mcpPrefix.length);
    return slash > mcpPrefix.length && pathname.length === slash + 4 && pathname.endsWith('/mcp');
  };
  const app = new Hono<HandlerEnv>({ strict: true });
  const routes = basePath === '' ? app : app.basePath(basePath);

  if (opts.cors !== undefined) {
    routes.use(
      '*',
      cors({
        origin: typeof opts.cors.origin === 'string' ? opts.cors.origin : [...opts.cors.origin],
        allowMethods:
          mcp === undefined
            ? ['GET', 'HEAD', 'OPTIONS']
            : ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'],
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
          ...(mcp === undefined ? [] : ['Mcp-Session-Id', 'Mcp-Protocol-Version']),
        ],
        maxAge: opts.cors.maxAgeSeconds ?? 600,
        credentials: opts.cors.credentials ?? false,
      }),
    );
  }

  /** The URL limit and the methods: a `Response` when the request stops here. */
  const precheck = (request: Request, requestId: string): Response | undefined => {
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
    // every route. (GET and HEAD go on below, and reach it through the router; only other methods pay
    // for parsing the URL here.)
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
  if (opts.cors !== undefined) {
    // After CORS, so a browser can read these answers too; a preflight is answered by CORS itself.
    routes.use('*', async (c, next) => {
      const stop = precheck(c.req.raw, c.env.requestId);
      if (stop !== undefined) return stop;
      await next();
      return undefined;
    });
  }

  /** The app's `onError` hears `error`; its own failure, thrown or rejected, is ignored. */
  function reportError(error: unknown, requestId: string): void {
    try {
      const logged: unknown = opts.onError?.(error, { requestId });
      // An async logger that fails must not become an unhandled rejection either.
      if (
        typeof logged === 'object' &&
        logged !== null &&
        typeof (logged as { then?: unknown }).then === 'function'
      ) {
        (logged as PromiseLike<unknown>).then(undefined, () => undefined);
      }
    } catch {
      // The app's logger failing must not change the answer.
    }
  }

  /** Whatever failed unexpectedly: `onError` hears it, the caller gets `INTERNAL` and nothing more. */
  const internal = (error: unknown, requestId: string): Response => {
    reportError(error, requestId);
    return errorResponse({
      code: 'INTERNAL',
      message: `The request failed unexpectedly. Try again; if it persists, report request ${requestId}.`,
      requestId,
    });
  };

  /**
   * Rate limit, then access, in that order; a `Response` when the request stops there. The limit comes
   * first so that floods of requests with wrong credentials are limited too, before `access` runs.
   */
  const admit = async (
    c: Context<HandlerEnv>,
    operation: KnowledgeOperation,
    knowledgeBaseId: string | null,
  ): Promise<Response | KnowledgeAccess> => {
    const { requestId, deadline } = c.env;
    if (opts.rateLimit !== undefined) {
      const decision = await settle(
        deadline,
        opts.rateLimit(c.req.raw, { knowledgeBaseId, operation }),
      );
      if (!isDecision(decision))
        throw new TypeError(
          `${API}: rateLimit() must return { ok: true } or { ok: false, retryAfterSeconds }.`,
        );
      if (!decision.ok) {
        return errorResponse({
          code: 'RATE_LIMITED',
          message: `Too many requests. Wait ${Math.ceil(decision.retryAfterSeconds)} s (Retry-After), then repeat this request.`,
          requestId,
          retryAfterSeconds: decision.retryAfterSeconds,
        });
      }
    }
    const access = await settle(deadline, opts.access(c.req.raw));
    if (access === null || access === undefined) {
      return errorResponse({
        code: 'UNAUTHENTICATED',
        message:
          'This request has no valid credentials. Send the credentials this knowledge endpoint was given to you with.',
        requestId,
        headers:
          opts.authenticateHeader === undefined
            ? undefined
            : { 'WWW-Authenticate': opts.authenticateHeader },
      });
    }
    if (
      !isPlainObject(access) ||
      !(isPlainObject(access.knowledgeBases) || access.knowledgeBases instanceof Map)
    ) {
      throw new TypeError(`${API}: access() must return { knowledgeBases } or null.`);
    }
    return access;
  };

  /** Not readable and not there answer alike: nothing tells which knowledge bases exist. */
  const notReadable = (knowledgeBaseId: string, requestId: string): Response =>
    errorResponse({
      code: 'NOT_FOUND',
      message: `No knowledge base ${JSON.stringify(knowledgeBaseId)} is readable here. Call GET ${basePath}/knowledge-bases for the ones you may read.`,
      requestId,
    });

  routes.get('/knowledge-bases', (c) =>
    run(c, 'list_knowledge_bases', undefined, async () => {
      const { requestId, deadline } = c.env;
      const admitted = await admit(c, 'list_knowledge_bases', null);
      if (admitted instanceof Response) return admitted;
      readParams(c.env.url.searchParams, ROUTE_PARAMS.list, maxQueryChars);
      const grants = entries(admitted);
      // Each call raced on its own: one that fails ends the request, and the deadline then knows the
      // others are still running and aborts their signal.
      const items = await Promise.all(
        grants.map(async ([knowledgeBaseId, value]) => {
          const entry = toEntry(value, knowledgeBaseId, registry);
          const url = `${basePath}/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}`;
          const context = { signal: deadline.signal, requestId, actionBase: url, knowledgeBaseId };
          const tree = await deadline.race(entry.source.listTree({ limit: 1 }, context));
          return {
            knowledgeBaseId,
            title: entry.title ?? null,
            activeContentRevision: tree.activeContentRevision,
            url,
          };
        }),
      );
      return ok(c, { items }, false);
    }),
  );

  for (const { tool, route, rules, inPath } of table) {
    const operation = tool.name as KnowledgeOperation;
    routes.get(`/knowledge-bases/:knowledgeBaseId${route.path}`, (c) =>
      run(c, operation, tool.http.timeoutCode, async () => {
        const { requestId, deadline } = c.env;
        const pathParams = c.req.param() as Record<string, string>;
        const knowledgeBaseId = pathParams['knowledgeBaseId']!;
        const admitted = await admit(c, operation, knowledgeBaseId);
        if (admitted instanceof Response) return admitted;
        const value = lookup(admitted, knowledgeBaseId);
        if (value === undefined) return notReadable(knowledgeBaseId, requestId);
        const entry = toEntry(value, knowledgeBaseId, registry);
        const params = readParams(c.env.url.searchParams, rules, maxQueryChars);
        // A cursor carries the parameters it was issued for: `?cursor=` alone continues.
        for (const name of Object.hasOwn(params, 'cursor') ? [] : (route.required ?? [])) {
          if (!Object.hasOwn(params, name))
            throw new ParamError(`Query parameter \`${name}\` is required.`);
        }
        const context: KnowledgeCallContext = {
          // Search may run long: its own signal also stops it when the client hangs up.
          signal: tool.http.abortOnHangUp ? deadline.hangUpSignal() : deadline.signal,
          requestId,
          actionBase: `${basePath}/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}`,
          knowledgeBaseId,
        };
        const input: Record<string, unknown> = { ...params };
        for (const name of inPath) input[name] = pathParams[name];
        const method = (entry.source as unknown as Record<string, unknown>)[tool.method] as (
          input: unknown,
          context: KnowledgeCallContext,
        ) => Promise<object>;
        const output = await deadline.race(method.call(entry.source, input, context));
        return ok(c, output, route.content === true);
      }),
    );
  }

  if (mcp !== undefined) {
    routes.all('/knowledge-bases/:knowledgeBaseId/mcp', (c) =>
      run(c, 'mcp', undefined, async () => {
        const { requestId } = c.env;
        const knowledgeBaseId = c.req.param('knowledgeBaseId');
        const admitted = await admit(c, 'mcp', knowledgeBaseId);
        if (admitted instanceof Response) return admitted;
        const value = lookup(admitted, knowledgeBaseId);
        if (value === undefined) return notReadable(knowledgeBaseId, requestId);
        const entry = toEntry(value, knowledgeBaseId, registry);
        const response = await mcp.fetch(
          entry.source,
          knowledgeBaseId,
          entry.title,
          `${basePath}/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}`,
          c.req.raw,
        );
        const headers = new Headers(response.headers);
        headers.set('X-Request-Id', requestId);
        return new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers,
        });
      }),
    );
  }

  app.notFound((c) =>
    errorResponse({
      code: 'NOT_FOUND',
      message: `No route ${show(c.env.url.pathname)}.${encodedHint(c.env.url, basePath)} Routes: ${basePath}/knowledge-bases, then ${listing} under a knowledge base.`,
      requestId: c.env.requestId,
    }),
  );
  app.onError((error, c) => internal(error, c.env.requestId));

  /** One request: errors the route raised become answers; nothing escapes. */
  async function run(
    c: Context<HandlerEnv>,
    operation: KnowledgeOperation,
    timeoutCode: KnowledgeToolErrorCode | undefined,
    work: () => Promise<Response>,
  ): Promise<Response> {
    const { requestId } = c.env;
    try {
      return await work();
    } catch (error) {
      if (error instanceof ParamError)
        return errorResponse({ code: 'INVALID_ARGUMENT', message: error.message, requestId });
      if (error instanceof DeadlineError) {
        const code = timeoutCode ?? 'TIMEOUT';
        return errorResponse({
          code,
          message: `\`${operation}\` took longer than ${timeoutMs} ms and was stopped. Try again, or narrow the request.`,
          requestId,
        });
      }
      // A code outside the table (another copy of the package, a newer one) is unexpected here.
      if (
        isKnowledgeToolError(error) &&
        error.code !== 'INTERNAL' &&
        Object.hasOwn(KNOWLEDGE_TOOL_ERROR_STATUS, error.code)
      ) {
        return errorResponse({
          code: error.code,
          message: error.message,
          requestId,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
      return internal(error, requestId);
    }
  }

  return async function knowledgeHandler(request: Request): Promise<Response> {
    let requestId = '';
    let deadline: Deadline | undefined;
    try {
      requestId = requestIdFrom(request.headers.get('x-request-id'));
      if (opts.cors === undefined) {
        const stop = precheck(request, requestId);
        // Hono strips HEAD bodies for what it answers; this answer is made before Hono.
        if (stop !== undefined)
          return request.method === 'HEAD'
            ? new Response(null, { status: stop.status, headers: stop.headers })
            : stop;
      }
      deadline = clock.start(request);
      const response = await app.fetch(request, { requestId, deadline, url: new URL(request.url) });
      // Without CORS every answer is built here, with its request ID; with it, Hono's middleware
      // answers preflights itself.
      return opts.cors === undefined
        ? response
        : withRequestId(response, requestId, request.method === 'OPTIONS');
    } catch (error) {
      return internal(error, requestId === '' ? requestIdFrom(null) : requestId);
    } finally {
      deadline?.dispose();
    }
  };
}

/** A hook's answer: raced against the deadline when it is a promise, else as it is (no promise to make). */
function settle<T>(deadline: Deadline, value: T | PromiseLike<T>): T | Promise<T> {
  const thenable =
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function';
  return thenable ? deadline.race(Promise.resolve(value)) : (value as T);
}

/** A 200 (or 304) with the `ETag` of this request's representation. */
function ok(c: Context<HandlerEnv>, output: object, content: boolean): Response {
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
    return new Response(null, { status: 304, headers });
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
  return new Response(text, { status: 200, headers });
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
function withRequestId(response: Response, requestId: string, options: boolean): Response {
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

function entries(access: KnowledgeAccess): [string, unknown][] {
  const grants = access.knowledgeBases;
  return grants instanceof Map
    ? [...(grants as ReadonlyMap<string, unknown>).entries()]
    : Object.entries(grants);
}

function lookup(access: KnowledgeAccess, id: string): unknown {
  const grants = access.knowledgeBases;
  if (grants instanceof Map) return (grants as ReadonlyMap<string, unknown>).get(id);
  // Own keys only: `constructor` or `__proto__` in a URL is not a knowledge base.
  return Object.hasOwn(grants, id) ? (grants as Record<string, unknown>)[id] : undefined;
}

function isSource(value: unknown, registry: KnowledgeToolRegistry): value is KnowledgeSource {
  return missingSourceMethod(value, registry) === undefined;
}

function toEntry(
  value: unknown,
  id: string,
  registry: KnowledgeToolRegistry = KNOWLEDGE_TOOLS,
): KnowledgeBaseEntry {
  if (isSource(value, registry)) return { source: value };
  if (
    typeof value === 'object' &&
    value !== null &&
    isSource((value as { source?: unknown }).source, registry)
  ) {
    const title = (value as { title?: unknown }).title;
    if (title !== undefined && typeof title !== 'string')
      throw new TypeError(
        `${API}: the title of knowledge base ${JSON.stringify(id)} must be a string.`,
      );
    return value as KnowledgeBaseEntry;
  }
  throw new TypeError(
    `${API}: access() gave knowledge base ${JSON.stringify(id)} something that is not a KnowledgeSource or { source, title }.`,
  );
}

function isDecision(value: unknown): value is RateLimitDecision {
  if (!isPlainObject(value)) return false;
  if (value['ok'] === true) return true;
  const seconds = value['retryAfterSeconds'];
  return (
    value['ok'] === false && typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
  );
}

function readHandlerOptions(raw: unknown): KnowledgeHandlerOptions {
  const issues: KnowledgeIssue[] = [];
  // Read once into plain data (`limits` and `cors` too): a getter or Proxy that throws is
  // `INVALID_INPUT` naming the option, and what was checked is what is used.
  const options = snapshotOptions(API, raw);
  if (isPlainObject(options))
    for (const key of ['limits', 'cors'])
      if (isPlainObject(options[key]))
        options[key] = snapshotOptions(API, options[key], ['options', key]);
  const checked = guardInput(API, () => checkOptions(API, options, CHECKS, issues));
  if (options === undefined || (isPlainObject(options) && options['access'] === undefined)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'access'],
      message: `${API}: \`options.access\` is required: a function (request) => { knowledgeBases } | null.`,
    });
  }
  if (isPlainObject(checked['limits']))
    checkNested('limits', checked['limits'], LIMIT_CHECKS, issues);
  if (isPlainObject(checked['cors'])) {
    checkNested('cors', checked['cors'], CORS_CHECKS, issues);
    if (checked['cors']['origin'] === '*' && checked['cors']['credentials'] === true) {
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', 'cors', 'credentials'],
        message: `${API}: browsers refuse credentials with origin '*'; list the origins that may send them.`,
      });
    }
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  return checked as unknown as KnowledgeHandlerOptions;
}

function checkNested(
  key: string,
  value: Record<string, unknown>,
  checks: Readonly<Record<string, OptionCheck>>,
  issues: KnowledgeIssue[],
): void {
  const inner: KnowledgeIssue[] = [];
  checkOptions(`${API}: options.${key}`, value, checks, inner);
  for (const issue of inner)
    issues.push({ ...issue, path: ['options', key, ...(issue.path ?? []).slice(1)] });
}
