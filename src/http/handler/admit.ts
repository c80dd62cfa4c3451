/**
 * The `admit` stage: the rate limit, then `access`, then the knowledge base the route names among
 * those granted; it sets `access` (and `entry`) on the context, or answers 429, 401 or 404 itself.
 * The limit comes first so that floods of requests with wrong credentials are limited too, before
 * `access` runs.
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import type { KnowledgeSource } from '../../agent/index.js';
import {
  KNOWLEDGE_TOOLS,
  missingSourceMethod,
  type KnowledgeToolRegistry,
} from '../../agent/internals.js';
import { isPlainObject } from '../../shared/values.js';
import type { Deadline } from '../deadline.js';
import { errorResponse } from '../respond.js';
import type { KnowledgeAccess, KnowledgeBaseEntry, RateLimitDecision } from '../types.js';
import { clientAddressOf } from '../clientAddress.js';
import type { HandlerConfig, HandlerEnv } from './context.js';
import { mcpMessages, mcpOperations } from './mcpCalls.js';
import { API } from './options.js';
import { RefusedCredentials } from './refusedCredentials.js';

/**
 * The `admit` middleware of a route: for a route under a knowledge base (`:knowledgeBaseId`), also
 * the knowledge base, which must be granted (not readable and not there answer alike: nothing tells
 * which knowledge bases exist).
 */
export function admit(config: HandlerConfig): MiddlewareHandler<HandlerEnv> {
  const { options, registry, basePath } = config;
  const refusals = options.rateLimit === undefined ? undefined : new RefusedCredentials();
  return async (c, next) => {
    const { requestId, deadline } = c.env;
    const operation = c.get('operation');
    const knowledgeBaseId = c.req.param('knowledgeBaseId') ?? null;
    const clientAddress = clientAddressOf(c.req.raw);
    if (options.rateLimit !== undefined) {
      // One decision per call: a batch's members are counted each, under their tool's name.
      const operations =
        operation === 'mcp' ? mcpOperations(await mcpMessages(c.req.raw), registry) : [operation];
      for (const op of operations) {
        const decision = await settle(
          deadline,
          options.rateLimit(c.req.raw, { knowledgeBaseId, operation: op, clientAddress }),
        );
        if (!isDecision(decision))
          throw new TypeError(
            `${API}: rateLimit() must return { ok: true } or { ok: false, retryAfterSeconds }.`,
          );
        if (!decision.ok) return rateLimited(requestId, decision.retryAfterSeconds);
      }
      const wait = refusals!.waitSeconds(clientAddress);
      if (wait > 0) return rateLimited(requestId, wait);
    }
    const access = await settle(deadline, options.access(c.req.raw));
    if (access === null || access === undefined) {
      refusals?.refused(clientAddress);
      return errorResponse({
        code: 'UNAUTHENTICATED',
        message:
          'This request has no valid credentials. Send the credentials this knowledge endpoint was given to you with.',
        requestId,
        headers:
          options.authenticateHeader === undefined
            ? undefined
            : { 'WWW-Authenticate': options.authenticateHeader },
      });
    }
    if (
      !isPlainObject(access) ||
      !(isPlainObject(access.knowledgeBases) || access.knowledgeBases instanceof Map)
    ) {
      throw new TypeError(`${API}: access() must return { knowledgeBases } or null.`);
    }
    c.set('access', access);
    if (knowledgeBaseId !== null) {
      const value = lookup(access, knowledgeBaseId);
      if (value === undefined)
        return errorResponse({
          code: 'NOT_FOUND',
          message: `No knowledge base ${JSON.stringify(knowledgeBaseId)} is readable here. Call GET ${basePath}/knowledge-bases for the ones you may read.`,
          requestId,
        });
      c.set('entry', toEntry(value, knowledgeBaseId, registry));
    }
    await next();
    return undefined;
  };
}

/** The 429 answer: wait `retryAfterSeconds`. */
function rateLimited(requestId: string, retryAfterSeconds: number): Response {
  return errorResponse({
    code: 'RATE_LIMITED',
    message: `Too many requests. Wait ${Math.ceil(retryAfterSeconds)} s (Retry-After), then repeat this request.`,
    requestId,
    retryAfterSeconds,
  });
}

/** A hook's answer: raced against the deadline when it is a promise, else as it is (no promise to make). */
export function settle<T>(deadline: Deadline, value: T | PromiseLike<T>): T | Promise<T> {
  const thenable =
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function';
  return thenable ? deadline.race(Promise.resolve(value)) : (value as T);
}

/** The knowledge bases `access` grants, as ID and entry value. */
export function entries(access: KnowledgeAccess): [string, unknown][] {
  const grants = access.knowledgeBases;
  return grants instanceof Map
    ? [...(grants as ReadonlyMap<string, unknown>).entries()]
    : Object.entries(grants);
}

/** The value `access` grants for `id`, own keys only. */
function lookup(access: KnowledgeAccess, id: string): unknown {
  const grants = access.knowledgeBases;
  if (grants instanceof Map) return (grants as ReadonlyMap<string, unknown>).get(id);
  // Own keys only: `constructor` or `__proto__` in a URL is not a knowledge base.
  return Object.hasOwn(grants, id) ? (grants as Record<string, unknown>)[id] : undefined;
}

/** Whether `value` has every method of the registry. */
function isSource(value: unknown, registry: KnowledgeToolRegistry): value is KnowledgeSource {
  return missingSourceMethod(value, registry) === undefined;
}

/** A granted value as an entry: a source, or `{ source, title }`. */
export function toEntry(
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

/** Whether `value` is a `rateLimit` decision. */
function isDecision(value: unknown): value is RateLimitDecision {
  if (!isPlainObject(value)) return false;
  if (value['ok'] === true) return true;
  const seconds = value['retryAfterSeconds'];
  return (
    value['ok'] === false && typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
  );
}
