/**
 * `createKnowledgeMcpServer`: an MCP server exposing the knowledge tools of a source.
 *
 * @module
 */
import { McpServer } from '@modelcontextprotocol/server';
import {
  knowledgeTools,
  type KnowledgeToolsOptions,
  type KnowledgeSource,
} from '../agent/index.js';
import {
  registerKnowledgeResources,
  type KnowledgeResourcesOptions,
} from './registerKnowledgeResources.js';
import { registerKnowledgeTools, type KnowledgeMcpToolOptions } from './registerKnowledgeTools.js';
import { KNOWLEDGE_MCP_INSTRUCTIONS, knowledgeMcpInstructions } from './instructions.js';

export { KNOWLEDGE_MCP_INSTRUCTIONS };

/**
 * Options of `createKnowledgeMcpServer`: the server's name and version, and how the tools are listed
 * and answer (`text`, `readActions`, `outputSchemas`, `prefix`, `include`).
 */
export interface KnowledgeMcpServerOptions
  extends KnowledgeToolsOptions, KnowledgeMcpToolOptions, KnowledgeResourcesOptions {
  /** The server name clients show. */
  readonly name: string;
  /** The server software's version (not a knowledge base's version, which tools take as `version`). */
  readonly version: string;
  /**
   * Server instructions for the model; default `KNOWLEDGE_MCP_INSTRUCTIONS`. For a source with
   * versions (`createVersionedSource`), a paragraph naming them, the default and the `version` argument
   * is added after them.
   */
  readonly instructions?: string | undefined;
  /** Serve the files as resources too (`registerKnowledgeResources`); default `true`. */
  readonly resources?: boolean | undefined;
}

/**
 * An unconnected SDK `McpServer` with the knowledge tools of `source` registered, and its files as
 * resources (`registerKnowledgeResources`) unless `resources: false`. Connect it to a transport
 * (`StdioServerTransport`, Streamable HTTP, or an in-memory pair in tests).
 *
 * @param source - the knowledge source, such as `createCatalogSource(catalog)`.
 * @param options - `name`, `version`, `instructions`, `resources`; `text` (`compact`, the default, or
 * `json`: the text block of a successful result), `readActions`, `outputSchemas` (see
 * `registerKnowledgeTools`); `knowledgeBaseId` (default `name`), `cursorKey` and `resourceMaxChars`
 * (see `registerKnowledgeResources`); and `knowledgeTools`' `prefix` and `include`.
 * @returns the server.
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad `prefix` or `include` (from `knowledgeTools`).
 * @throws {TypeError} when `name` or `version` is not a non-empty string, or for a bad `text`,
 * `readActions` or `outputSchemas`.
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
 * const server = createKnowledgeMcpServer(createCatalogSource(catalog), { name: 'docs', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createKnowledgeMcpServer(
  source: KnowledgeSource,
  options: KnowledgeMcpServerOptions,
): McpServer {
  const {
    name,
    version,
    instructions,
    prefix,
    include,
    resources,
    text,
    readActions,
    outputSchemas,
    knowledgeBaseId,
    cursorKey,
    resourceMaxChars,
  } = options ?? ({} as Partial<KnowledgeMcpServerOptions>);
  if (typeof name !== 'string' || name === '' || typeof version !== 'string' || version === '') {
    throw new TypeError(
      'createKnowledgeMcpServer needs options { name, version }, two non-empty strings, such as { name: "docs", version: "1.0.0" }.',
    );
  }
  const tools = knowledgeTools(source, {
    ...(prefix === undefined ? {} : { prefix }),
    ...(include === undefined ? {} : { include }),
  });
  const server = new McpServer(
    { name, version },
    { instructions: knowledgeMcpInstructions(source, instructions) },
  );
  registerKnowledgeTools(server, tools, { text, readActions, outputSchemas });
  return resources === false
    ? server
    : registerKnowledgeResources(server, source, {
        knowledgeBaseId: knowledgeBaseId ?? name,
        cursorKey,
        resourceMaxChars,
      });
}
