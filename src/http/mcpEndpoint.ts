/**
 * The MCP Streamable HTTP endpoint of each knowledge base (`{KB}/mcp`), on the SDK's own Fetch-style
 * handler (`createMcpHandler`): stateless, so both the 2025 protocol (initialize, then one request per
 * POST) and the 2026-07-28 per-request protocol are served by a fresh server per request.
 *
 * @module
 */
import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import { type KnowledgeSource } from '../agent/index.js';
import { registryTools, type KnowledgeToolRegistry } from '../agent/internals.js';
import {
  KNOWLEDGE_MCP_INSTRUCTIONS,
  registerKnowledgeResources,
  registerKnowledgeTools,
} from '../mcp/index.js';

/** What the MCP endpoint says of itself to clients. */
export interface McpEndpointOptions {
  /** The server version clients show; default `0.0.0`. */
  readonly version?: string | undefined;
}

/**
 * The MCP handlers of one `createKnowledgeHandler`: one per knowledge base (by source and ID), made on
 * first use and kept while the source lives.
 */
export class McpEndpoints {
  readonly #handlers = new WeakMap<KnowledgeSource, Map<string, McpHttpHandler>>();
  readonly #registry: KnowledgeToolRegistry;
  readonly #version: string;
  readonly #onerror: (error: Error) => void;

  /**
   * @param registry - the tools served.
   * @param options - `version`.
   * @param onerror - hears the SDK's out-of-band errors (reporting only).
   */
  constructor(
    registry: KnowledgeToolRegistry,
    options: McpEndpointOptions,
    onerror: (error: Error) => void,
  ) {
    this.#registry = registry;
    this.#version = options.version ?? '0.0.0';
    this.#onerror = onerror;
  }

  /**
   * Serve one MCP request for a knowledge base the caller may read.
   *
   * @param source - the knowledge base's source.
   * @param knowledgeBaseId - its ID, the server's name unless it has a title.
   * @param title - its title, if any.
   * @param request - the HTTP request, body unread.
   */
  fetch(
    source: KnowledgeSource,
    knowledgeBaseId: string,
    title: string | undefined,
    request: Request,
  ): Promise<Response> {
    let bySource = this.#handlers.get(source);
    if (bySource === undefined) {
      bySource = new Map();
      this.#handlers.set(source, bySource);
    }
    let handler = bySource.get(knowledgeBaseId);
    if (handler === undefined) {
      const name = title ?? knowledgeBaseId;
      const factory = () => {
        const server = new McpServer(
          { name, version: this.#version },
          { instructions: KNOWLEDGE_MCP_INSTRUCTIONS },
        );
        registerKnowledgeTools(server, registryTools(this.#registry, source));
        return registerKnowledgeResources(server, source);
      };
      handler = createMcpHandler(factory, { onerror: this.#onerror });
      bySource.set(knowledgeBaseId, handler);
    }
    return handler.fetch(request);
  }
}
