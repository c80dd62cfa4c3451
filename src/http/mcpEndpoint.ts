/**
 * The MCP Streamable HTTP endpoint of each knowledge base (`{KB}/mcp`), on the SDK's own Fetch-style
 * handler (`createMcpHandler`): stateless, so both the 2025 protocol (initialize, then one request per
 * POST) and the 2026-07-28 per-request protocol are served by a fresh server per request.
 *
 * @module
 */
import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { KnowledgeCallContext, KnowledgeSource } from '../agent/index.js';
import { registryTools, type KnowledgeToolRegistry } from '../agent/internals.js';
import {
  knowledgeMcpInstructions,
  registerKnowledgeResources,
  registerKnowledgeTools,
} from '../mcp/index.js';
import { batchRefused, batchSize, cappedAnswer, type BatchLimits } from './mcpBatch.js';
import { isListenRequest, ListenSlots, listenClientOf, listenRefused } from './listenSlots.js';

/** What the MCP endpoint says of itself to clients. */
export interface McpEndpointOptions {
  /** The server version clients show; default `0.0.0`. */
  readonly version?: string | undefined;
  /** A tool result's text block: `compact` (default) or `json`. */
  readonly text?: 'compact' | 'json' | undefined;
  /** Signs the `resources/list` cursors; default the process's random key. */
  readonly cursorKey?: string | Uint8Array | undefined;
  /** Most `subscriptions/listen` streams one client may hold open on one knowledge base. */
  readonly maxListenStreamsPerClient: number;
  /** The caps on a batch: its members and its answer's bytes. */
  readonly batch: BatchLimits;
}

/** One knowledge base's MCP handler and its listen slots. */
interface Endpoint {
  readonly handler: McpHttpHandler;
  readonly slots: ListenSlots;
}

/**
 * The MCP handlers of one `createKnowledgeHandler`: one per knowledge base (by source and ID), made on
 * first use and kept while the source lives.
 */
export class McpEndpoints {
  readonly #handlers = new WeakMap<KnowledgeSource, Map<string, Endpoint>>();
  readonly #registry: KnowledgeToolRegistry;
  readonly #version: string;
  readonly #text: 'compact' | 'json' | undefined;
  readonly #cursorKey: string | Uint8Array | undefined;
  readonly #maxListen: number;
  readonly #batch: BatchLimits;
  readonly #onerror: (error: Error) => void;

  /**
   * @param registry - the tools served.
   * @param options - `version`, `text`, `cursorKey`, `maxListenStreamsPerClient`, `batch`.
   * @param onerror - hears the SDK's out-of-band errors (reporting only).
   */
  constructor(
    registry: KnowledgeToolRegistry,
    options: McpEndpointOptions,
    onerror: (error: Error) => void,
  ) {
    this.#registry = registry;
    this.#version = options.version ?? '0.0.0';
    this.#text = options.text;
    this.#cursorKey = options.cursorKey;
    this.#maxListen = options.maxListenStreamsPerClient;
    this.#batch = options.batch;
    this.#onerror = onerror;
  }

  /**
   * Serve one MCP request for a knowledge base the caller may read.
   *
   * @param source - the knowledge base's source.
   * @param knowledgeBaseId - its ID, the server's name unless it has a title.
   * @param title - its title, if any.
   * @param actionBase - the knowledge base's URL path, as its REST routes give their calls.
   * @param request - the HTTP request, body unread.
   */
  async fetch(
    source: KnowledgeSource,
    knowledgeBaseId: string,
    title: string | undefined,
    actionBase: string,
    request: Request,
  ): Promise<Response> {
    const { handler, slots } = this.#endpoint(source, knowledgeBaseId, title, actionBase);
    if (!isListenRequest(request)) {
      const members = await batchSize(request);
      if (members === undefined) return handler.fetch(request);
      const { maxMembers, maxAnswerBytes } = this.#batch;
      if (members > maxMembers)
        return batchRefused(
          `Invalid Request: this batch has ${members} members, over the ${maxMembers} a batch may have. Send its requests in batches of at most ${maxMembers}, or one by one.`,
        );
      return cappedAnswer(await handler.fetch(request), maxAnswerBytes);
    }
    // A listen stream holds a slot of its client until it ends: one client cannot take them all.
    const client = listenClientOf(request);
    if (!slots.take(client)) return listenRefused(request, this.#maxListen);
    let response: Response;
    try {
      response = await handler.fetch(request);
    } catch (error) {
      slots.release(client);
      throw error;
    }
    return slots.held(response, client);
  }

  /** The endpoint of a knowledge base, made on first use. */
  #endpoint(
    source: KnowledgeSource,
    knowledgeBaseId: string,
    title: string | undefined,
    actionBase: string,
  ): Endpoint {
    let bySource = this.#handlers.get(source);
    if (bySource === undefined) {
      bySource = new Map();
      this.#handlers.set(source, bySource);
    }
    let endpoint = bySource.get(knowledgeBaseId);
    if (endpoint === undefined) {
      const name = title ?? knowledgeBaseId;
      // Calls over MCP get the context the REST routes give theirs: read actions under this
      // knowledge base's URL, and cursors bound to its ID, so that both transports accept each
      // other's cursors.
      const routed = withRouteContext(source, this.#registry, { actionBase, knowledgeBaseId });
      // A source with versions names them (the routed copy has only the tools' methods).
      const instructions = knowledgeMcpInstructions(source);
      const factory = () => {
        const server = new McpServer({ name, version: this.#version }, { instructions });
        // Over HTTP a client can fetch the read-action URLs: the compact text keeps them.
        registerKnowledgeTools(server, registryTools(this.#registry, routed), {
          readActions: true,
          ...(this.#text === undefined ? {} : { text: this.#text }),
        });
        // Signed with the sources' key, the listing's cursors outlive a restart as the tools' do.
        return registerKnowledgeResources(server, routed, {
          knowledgeBaseId,
          ...(this.#cursorKey === undefined ? {} : { cursorKey: this.#cursorKey }),
        });
      };
      endpoint = {
        handler: createMcpHandler(factory, { onerror: this.#onerror }),
        slots: new ListenSlots(this.#maxListen),
      };
      bySource.set(knowledgeBaseId, endpoint);
    }
    return endpoint;
  }
}

/** A source method, called with its input and context. */
type SourceMethod = (input: unknown, context?: KnowledgeCallContext) => Promise<object>;

/**
 * `source` with every read method of `registry` (and `warm`) called with `route` filled into its
 * context, under what the caller gives (its `signal`).
 */
function withRouteContext(
  source: KnowledgeSource,
  registry: KnowledgeToolRegistry,
  route: Pick<KnowledgeCallContext, 'actionBase' | 'knowledgeBaseId'>,
): KnowledgeSource {
  const methods = source as unknown as Readonly<Record<string, SourceMethod>>;
  const routed: Record<string, unknown> = {};
  for (const { method } of registry) {
    const call = methods[method]!;
    routed[method] = (input: unknown, context?: KnowledgeCallContext) =>
      call.call(source, input, { ...route, ...context });
  }
  if (source.warm !== undefined) routed['warm'] = source.warm.bind(source);
  return routed as unknown as KnowledgeSource;
}
