/**
 * `createKnowledgeHandler`: the read-only Fetch endpoint of `shared/spec/http.md`, routed by Hono.
 * Every route is a `GET` over the caller's `KnowledgeSource`; `access` is the control point. Each
 * request passes the stages in `handler/`: `precheck` (URL length, methods), `admit` (rate limit,
 * access, the knowledge base), `run` (the source's call) and `respond` (the answer), and `failure`
 * answers what any of them throws.
 *
 * @module
 */
import { Hono } from 'hono';
import {
  KNOWLEDGE_TOOLS,
  MAX_QUERY_CODE_POINTS,
  type KnowledgeToolRegistry,
} from '../agent/internals.js';
import { show } from '../shared/show.js';
import { type Deadline, DeadlineClock } from './deadline.js';
import { admit } from './handler/admit.js';
import type { HandlerConfig, HandlerEnv } from './handler/context.js';
import { errorReporter, failure, internal } from './handler/failure.js';
import { readHandlerOptions } from './handler/options.js';
import { corsMiddleware, precheck, precheckMiddleware } from './handler/precheck.js';
import { withRequestId } from './handler/respond.js';
import { encodedHint, routeList, routeTable } from './handler/routeTable.js';
import { operation, runList, runMcp, runTool } from './handler/run.js';
import { runVersionDiff, runVersions, VERSION_ROUTE_LIST } from './handler/versions.js';
import { DEFAULT_MAX_LISTEN_STREAMS_PER_CLIENT } from './listenSlots.js';
import { DEFAULT_MAX_BATCH_ANSWER_BYTES, DEFAULT_MAX_BATCH_MEMBERS } from './mcpBatch.js';
import { McpEndpoints } from './mcpEndpoint.js';
import { errorResponse, requestIdFrom } from './respond.js';
import type { KnowledgeHandler, KnowledgeHandlerOptions, KnowledgeOperation } from './types.js';

const DEFAULT_MAX_URL = 32_768;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A read-only Fetch handler serving knowledge bases to agents that can only make HTTP requests: the
 * routes (`/knowledge-bases`, and under each knowledge base `/tree`, `/files/{fileId}`,
 * `/files/{fileId}/content`, `/files/content`, `/files/{fileId}/related`, `/graph/expand`, `/search`,
 * `/versions`, `/versions/diff` and the MCP endpoint `/mcp`), with `access` deciding, per request, which knowledge bases the caller may
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
  const config: HandlerConfig = {
    options: opts,
    registry,
    basePath: opts.basePath ?? '',
    maxUrlLength: opts.limits?.maxUrlLength ?? DEFAULT_MAX_URL,
    maxQueryChars: opts.limits?.maxQueryChars ?? MAX_QUERY_CODE_POINTS,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    mcp: opts.mcp !== false,
    reportError: errorReporter(opts.onError),
  };
  const { basePath } = config;
  const clock = new DeadlineClock(config.timeoutMs);
  const check = precheck(config);
  const listing = `${routeList(registry)}, ${VERSION_ROUTE_LIST}`;
  const app = new Hono<HandlerEnv>({ strict: true });
  const routes = basePath === '' ? app : app.basePath(basePath);
  // With CORS, the stages run after its middleware, so that a browser can read their answers too; a
  // preflight is answered by CORS itself. Without it, `precheck` runs before Hono (below).
  if (opts.cors !== undefined) {
    routes.use('*', corsMiddleware(config));
    routes.use('*', precheckMiddleware(check));
  }
  const admitted = admit(config);
  routes.get('/knowledge-bases', operation('list_knowledge_bases'), admitted, runList(config));
  for (const entry of routeTable(registry))
    routes.get(
      `/knowledge-bases/:knowledgeBaseId${entry.route.path}`,
      operation(entry.tool.name as KnowledgeOperation, entry.tool.http.timeoutCode),
      admitted,
      runTool(config, entry),
    );
  // Not tools: a knowledge base's versions, and what changed between two of them.
  routes.get(
    '/knowledge-bases/:knowledgeBaseId/versions',
    operation('list_versions'),
    admitted,
    runVersions(config),
  );
  routes.get(
    '/knowledge-bases/:knowledgeBaseId/versions/diff',
    operation('diff_versions'),
    admitted,
    runVersionDiff(config),
  );
  if (config.mcp) {
    const mcp = new McpEndpoints(
      registry,
      {
        ...(opts.mcp === true || opts.mcp === undefined || opts.mcp === false ? {} : opts.mcp),
        maxListenStreamsPerClient:
          opts.limits?.maxListenStreamsPerClient ?? DEFAULT_MAX_LISTEN_STREAMS_PER_CLIENT,
        batch: {
          maxMembers: opts.limits?.maxBatchMembers ?? DEFAULT_MAX_BATCH_MEMBERS,
          maxAnswerBytes: opts.limits?.maxBatchAnswerBytes ?? DEFAULT_MAX_BATCH_ANSWER_BYTES,
        },
      },
      (error) => config.reportError(error, ''),
    );
    routes.all(
      '/knowledge-bases/:knowledgeBaseId/mcp',
      operation('mcp'),
      admitted,
      runMcp(config, mcp),
    );
  }
  app.notFound((c) => {
    const path = c.env.url.pathname;
    // A knowledge base's own URL (what `serve` prints as KNOWLEDGE_BASE_URL) is the base of its routes,
    // whether or not the knowledge base exists: the same answer, so nothing is learnt from it.
    const prefix = `${basePath}/knowledge-bases/`;
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    const slash = rest.indexOf('/');
    const isBase = rest !== '' && (slash === -1 || slash === rest.length - 1);
    const message = isBase
      ? `${show(path)} is a knowledge base's URL, the base of its routes, not a route itself: add one of ${listing}, such as ${show(`${path.endsWith('/') ? path.slice(0, -1) : path}/tree?limit=50`)}.`
      : `No route ${show(path)}.${encodedHint(c.env.url, basePath)} Routes: ${basePath}/knowledge-bases, then ${listing} under a knowledge base.`;
    return errorResponse({ code: 'NOT_FOUND', message, requestId: c.env.requestId });
  });
  app.onError((error, c) => failure(config, error, c));

  return async function knowledgeHandler(request: Request): Promise<Response> {
    let requestId = '';
    let deadline: Deadline | undefined;
    try {
      requestId = requestIdFrom(request.headers.get('x-request-id'));
      if (opts.cors === undefined) {
        const stop = check(request, requestId);
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
      return internal(config, error, requestId === '' ? requestIdFrom(null) : requestId);
    } finally {
      deadline?.dispose();
    }
  };
}
