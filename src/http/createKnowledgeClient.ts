/**
 * `createKnowledgeClient`: a `KnowledgeSource` over the routes of `createKnowledgeHandler`, so the
 * tools, the MCP server and exploration run unchanged against a remote knowledge base. Each call
 * passes the stages in `client/`: `route` (the input as a URL), `send` (the requests, retried after
 * `RATE_LIMITED`) and `answer` (the body as a result or the server's error); paged calls restart a
 * stale cursor once.
 *
 * @module
 */
import {
  isKnowledgeToolError,
  KnowledgeToolError,
  type JsonValue,
  type KnowledgeCallContext,
  type KnowledgeVersionDiff,
} from '../agent/index.js';
import {
  KNOWLEDGE_TOOLS,
  versionLabelProblem,
  type KnowledgeToolRegistry,
  type ResponseShape,
  type ToolDefinition,
} from '../agent/internals.js';
import { clientConfig, type ClientConfig } from './client/options.js';
import { followUrl, routeCall, urlOf, type Query } from './client/route.js';
import { get } from './client/send.js';
import type { KnowledgeClient, KnowledgeClientOptions, KnowledgeVersionList } from './types.js';

/** `follow` reads any route: its answer need only be a JSON object. */
const FOLLOW_SHAPE: ResponseShape = {};
/** `{KB}/versions` answers the versions and the default's label. */
const VERSIONS_SHAPE: ResponseShape = { versions: 'array', default: 'string' };
/** `{KB}/versions/diff` answers `diffVersions`'s result. */
const DIFF_SHAPE: ResponseShape = {
  from: 'string',
  to: 'string',
  added: 'array',
  removed: 'array',
  changed: 'array',
};

/**
 * A `KnowledgeSource` over a Knowledge Kit HTTP endpoint (`createKnowledgeHandler`): each method is one
 * `GET` under `baseUrl`. It keeps the server's `requestId`, `code`, `httpStatus` and
 * `retryAfterSeconds` in the `KnowledgeToolError` it rejects with; waits and retries after
 * `RATE_LIMITED` (at most `maxRetries` times, when `Retry-After` ≤ `maxRetryAfterSeconds`); restarts a
 * `STALE_CURSOR` once without the cursor and marks that page `cursorRestarted: true`; and turns a
 * network failure, a timeout or an answer that is not the expected JSON into `TRANSPORT_ERROR`, never
 * an empty result.
 *
 * @param options - `baseUrl` (the knowledge-base URL), `headers`, `fetch`, `timeoutMs` (10,000),
 * `maxRetries` (2), `maxRetryAfterSeconds` (30).
 * @returns the client: a `KnowledgeSource` with `baseUrl`, `follow(readAction)`, `versions()` and
 * `diffVersions(from, to)`.
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options`.
 * @example
 * ```ts
 * const remote = createKnowledgeClient({
 *   baseUrl: 'https://api.example.com/openapi/v2/knowledge-bases/handbook',
 *   headers: { authorization: `Bearer ${token}` }, // the app's own credentials
 * });
 * const tools = knowledgeTools(remote); // the same six tools, served remotely
 * const hits = await remote.searchFiles({ query: 'How are renewal notices sent?' });
 * const page = await remote.follow(hits.items[0].readActions.fileContentById);
 * ```
 */
export function createKnowledgeClient(options: KnowledgeClientOptions): KnowledgeClient {
  return registryClient(KNOWLEDGE_TOOLS, options);
}

/**
 * `createKnowledgeClient` over any registry (internal: the six tools' registry is the default): one
 * method per tool, each a `GET` on the first of its routes whose path arguments are all given.
 *
 * @param registry - the tools whose methods the client has.
 * @param options - as `createKnowledgeClient` takes them.
 * @returns the client.
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options`.
 */
export function registryClient(
  registry: KnowledgeToolRegistry,
  options: KnowledgeClientOptions,
): KnowledgeClient {
  const config = clientConfig(options);
  const client: Record<string, unknown> = { baseUrl: config.baseUrl };
  for (const tool of registry)
    client[tool.method] = async (input: unknown, context?: KnowledgeCallContext) => {
      const { path, query } = routeCall(tool, input);
      return tool.paged
        ? paged(config, tool, path, query, context)
        : get(config, tool.name, tool.client.shape, urlOf(config, path, query), context);
    };
  client['follow'] = async (readAction: unknown, context?: KnowledgeCallContext) =>
    (await get(
      config,
      'follow',
      FOLLOW_SHAPE,
      followUrl(config, readAction),
      context,
    )) as JsonValue;
  client['versions'] = async (context?: KnowledgeCallContext) =>
    (await get(
      config,
      'versions',
      VERSIONS_SHAPE,
      urlOf(config, '/versions', {}),
      context,
    )) as unknown as KnowledgeVersionList;
  client['diffVersions'] = async (from: unknown, to: unknown, context?: KnowledgeCallContext) => {
    for (const [name, label] of [
      ['from', from],
      ['to', to],
    ] as const) {
      const problem = versionLabelProblem(label);
      if (problem !== undefined)
        throw new KnowledgeToolError(
          'INVALID_ARGUMENT',
          `\`diffVersions\`: \`${name}\` is not a version label: ${problem}. \`versions()\` lists the labels.`,
        );
    }
    return (await get(
      config,
      'diffVersions',
      DIFF_SHAPE,
      urlOf(config, '/versions/diff', { from, to }),
      context,
    )) as unknown as KnowledgeVersionDiff;
  };
  return Object.freeze(client) as unknown as KnowledgeClient;
}

/** Paged operations: a stale cursor is restarted once, without it, and the page says so. */
async function paged(
  config: ClientConfig,
  tool: ToolDefinition,
  route: string,
  query: Query,
  context: KnowledgeCallContext | undefined,
): Promise<Record<string, unknown>> {
  const { name, client } = tool;
  try {
    return await get(config, name, client.shape, urlOf(config, route, query), context);
  } catch (error) {
    if (
      !isKnowledgeToolError(error) ||
      error.code !== 'STALE_CURSOR' ||
      query['cursor'] === undefined ||
      query['cursor'] === null
    )
      throw error;
    let restarted;
    try {
      restarted = await get(
        config,
        name,
        client.shape,
        urlOf(config, route, { ...query, cursor: undefined }),
        context,
      );
    } catch (restartError) {
      // A cursor given alone carried the parameters: without it the call is incomplete, so the
      // caller hears why the cursor failed, not that a parameter is missing.
      throw isKnowledgeToolError(restartError) && restartError.code === 'INVALID_ARGUMENT'
        ? error
        : restartError;
    }
    return { ...restarted, cursorRestarted: true };
  }
}
