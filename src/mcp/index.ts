/**
 * `knowledge-kit/mcp`: the knowledge tools as an MCP server, on the official TypeScript SDK
 * (`@modelcontextprotocol/server` ^2, a peer dependency).
 *
 * @example
 * ```ts
 * import { createKnowledgeMcpServer } from 'knowledge-kit/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
 * const server = createKnowledgeMcpServer(createCatalogSource(catalog), { name: 'docs', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 * ```
 *
 * @module
 */
export {
  createKnowledgeMcpServer,
  KNOWLEDGE_MCP_INSTRUCTIONS,
} from './createKnowledgeMcpServer.js';
export type { KnowledgeMcpServerOptions } from './createKnowledgeMcpServer.js';
export { registerKnowledgeTools, toCallToolResult } from './registerKnowledgeTools.js';
export type { KnowledgeMcpText, KnowledgeMcpToolOptions } from './registerKnowledgeTools.js';
export { leanOutputSchema } from './leanOutputSchema.js';
export {
  registerKnowledgeResources,
  KNOWLEDGE_RESOURCE_MIME_TYPE,
  KNOWLEDGE_RESOURCE_TEMPLATE,
  KNOWLEDGE_RESOURCE_MAX_CHARS,
  KNOWLEDGE_VERSION_RESOURCE_TEMPLATE,
} from './registerKnowledgeResources.js';
export type { KnowledgeResourcesOptions } from './registerKnowledgeResources.js';
export { knowledgeFileUri } from './resourceUri.js';
export { knowledgeMcpInstructions } from './instructions.js';
