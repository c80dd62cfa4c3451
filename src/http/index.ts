/**
 * Knowledge Kit over HTTP, for agents that can make HTTP requests but cannot register tools: a
 * read-only Fetch handler (`createKnowledgeHandler`) whose `access` hook is the app's control point, an
 * in-memory token-bucket rate limiter, and a client (`createKnowledgeClient`) that makes a remote
 * knowledge base a `KnowledgeSource` like any other. Runs on any Fetch runtime; imports no Node
 * built-in (`knowledge-kit/http/node` has the `node:http` adapter).
 *
 * @example
 * ```ts
 * import { createKnowledgeHandler } from 'knowledge-kit/http';
 * const handler = createKnowledgeHandler({
 *   access: (request) => (request.headers.get('authorization') === `Bearer ${token}` ? { knowledgeBases: { handbook: source } } : null),
 * });
 * // GET /knowledge-bases/handbook/search?query=… → search_files
 * ```
 *
 * @module
 */
export { createKnowledgeHandler } from './createKnowledgeHandler.js';
export { createKnowledgeClient } from './createKnowledgeClient.js';
export { createMemoryRateLimiter } from './createMemoryRateLimiter.js';
export type {
  KnowledgeAccess,
  KnowledgeBaseEntry,
  KnowledgeBaseGrants,
  KnowledgeClient,
  KnowledgeClientOptions,
  KnowledgeCorsOptions,
  KnowledgeHandler,
  KnowledgeHandlerLimits,
  KnowledgeHandlerMcpOptions,
  KnowledgeHandlerOptions,
  KnowledgeOperation,
  KnowledgeRateLimit,
  KnowledgeVersionList,
  MemoryRateLimiterOptions,
  RateLimitDecision,
  RateLimitRequestInfo,
} from './types.js';
