/**
 * The `run` stage of each route: the call to the admitted knowledge base's source (or to its MCP
 * endpoint), under the request's deadline and with the context the route gives its calls; `respond`
 * makes the answer. Errors are thrown, for `failure`.
 *
 * @module
 */
import type { Handler, MiddlewareHandler } from 'hono';
import type { KnowledgeCallContext, KnowledgeToolErrorCode } from '../../agent/index.js';
import type { McpEndpoints } from '../mcpEndpoint.js';
import { ParamError, readParams, ROUTE_PARAMS } from '../params.js';
import type { KnowledgeOperation } from '../types.js';
import { entries, toEntry } from './admit.js';
import { knowledgeBasePath, type HandlerConfig, type HandlerEnv } from './context.js';
import { ok } from './respond.js';
import type { RouteEntry } from './routeTable.js';

/** The first middleware of every route: the operation it serves, which the later stages read. */
export function operation(
  name: KnowledgeOperation,
  timeoutCode?: KnowledgeToolErrorCode,
): MiddlewareHandler<HandlerEnv> {
  return async (c, next) => {
    c.set('operation', name);
    c.set('timeoutCode', timeoutCode);
    await next();
    return undefined;
  };
}

/** `GET /knowledge-bases`: each granted knowledge base with its title, revision and URL. */
export function runList(config: HandlerConfig): Handler<HandlerEnv> {
  return async (c) => {
    const { requestId, deadline } = c.env;
    readParams(c.env.url.searchParams, ROUTE_PARAMS.list, config.maxQueryChars);
    // Each call raced on its own: one that fails ends the request, and the deadline then knows the
    // others are still running and aborts their signal.
    const items = await Promise.all(
      entries(c.get('access')).map(async ([knowledgeBaseId, value]) => {
        const entry = toEntry(value, knowledgeBaseId, config.registry);
        const url = knowledgeBasePath(config, knowledgeBaseId);
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
  };
}

/** A tool's route: its parameters from the query and the path, then the source's method. */
export function runTool(
  config: HandlerConfig,
  { tool, route, rules, inPath }: RouteEntry,
): Handler<HandlerEnv> {
  return async (c) => {
    const { requestId, deadline } = c.env;
    const pathParams = c.req.param() as Record<string, string>;
    const knowledgeBaseId = pathParams['knowledgeBaseId']!;
    const entry = c.get('entry');
    const params = readParams(c.env.url.searchParams, rules, config.maxQueryChars);
    // A cursor carries the parameters it was issued for: `?cursor=` alone continues.
    for (const name of Object.hasOwn(params, 'cursor') ? [] : (route.required ?? [])) {
      if (!Object.hasOwn(params, name))
        throw new ParamError(`Query parameter \`${name}\` is required.`);
    }
    const context: KnowledgeCallContext = {
      // Search may run long: its own signal also stops it when the client hangs up.
      signal: tool.http.abortOnHangUp ? deadline.hangUpSignal() : deadline.signal,
      requestId,
      actionBase: knowledgeBasePath(config, knowledgeBaseId),
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
  };
}

/** `{KB}/mcp`: the SDK's answer, with the request ID. */
export function runMcp(config: HandlerConfig, mcp: McpEndpoints): Handler<HandlerEnv> {
  return async (c) => {
    const knowledgeBaseId = c.req.param('knowledgeBaseId')!;
    const entry = c.get('entry');
    const response = await mcp.fetch(
      entry.source,
      knowledgeBaseId,
      entry.title,
      knowledgeBasePath(config, knowledgeBaseId),
      c.req.raw,
    );
    const headers = new Headers(response.headers);
    headers.set('X-Request-Id', c.env.requestId);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
