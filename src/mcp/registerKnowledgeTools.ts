/**
 * `registerKnowledgeTools`: register tool definitions on an MCP SDK `McpServer`, with our JSON Schemas
 * as they are.
 *
 * @module
 */
import {
  fromJsonSchema,
  type CallToolResult,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { KnowledgeToolDefinition, KnowledgeToolResult } from '../agent/index.js';

/**
 * Accepts every input: arguments are checked by the tool itself, so a bad call gets our
 * `INVALID_ARGUMENT` error shape (naming the field and the allowed values) in `structuredContent`
 * rather than the SDK's text-only validation error.
 */
const DEFER_TO_TOOL: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/**
 * Register each definition as an MCP tool: name, title, description, annotations, the input schema
 * (listed as is; validation is left to the tool) and the output schema (listed as is; the SDK checks
 * successful results against it). Each call resolves to `structuredContent` (the output, or `{ error,
 * requestId }`), the same as one JSON text block, and `isError`. The request's abort signal reaches
 * the source.
 *
 * @param server - an SDK `McpServer`, connected or not.
 * @param tools - definitions from `knowledgeTools` (or `explorationTools`).
 * @returns `server`, for chaining.
 * @example
 * ```ts
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * registerKnowledgeTools(server, knowledgeTools(source));
 * ```
 */
export function registerKnowledgeTools(
  server: McpServer,
  tools: readonly KnowledgeToolDefinition[],
): McpServer {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: fromJsonSchema(tool.inputSchema as never, DEFER_TO_TOOL),
        outputSchema: fromJsonSchema(tool.outputSchema as never),
        annotations: { ...tool.annotations },
      },
      async (args: unknown, ctx) =>
        toCallToolResult(await tool.execute(args, { signal: ctx.mcpReq.signal })),
    );
  }
  return server;
}

/** An MCP `CallToolResult` carrying a knowledge tool result. */
export function toCallToolResult(result: KnowledgeToolResult): CallToolResult {
  const structuredContent = result.structuredContent as { [key: string]: unknown };
  return {
    content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
    structuredContent,
    isError: result.isError,
  };
}
