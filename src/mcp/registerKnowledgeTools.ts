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
 * successful results against it). A successful call resolves to `structuredContent` (the output) and
 * the same JSON as one text block; an error to `isError: true` and the `{ error, requestId }` JSON as
 * the one text block, with no `structuredContent` (see `toCallToolResult`). The request's abort signal
 * reaches the source.
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

/**
 * An MCP `CallToolResult` carrying a knowledge tool result: the JSON as one text block, and on
 * success also as `structuredContent`. An error result (`isError: true`) carries no
 * `structuredContent`: the SDK v1 client (inside the MCP Inspector and most desktop agents) checks
 * `structuredContent` against the tool's `outputSchema` even on errors, and the `{ error, requestId }`
 * shape would fail that check and hide our message behind `-32602` (docs/decisions.md).
 *
 * @param result - a knowledge tool result.
 * @returns the MCP result.
 * @example
 * ```ts
 * const reply = toCallToolResult(await tool.execute(args));
 * ```
 */
export function toCallToolResult(result: KnowledgeToolResult): CallToolResult {
  const json = result.structuredContent as { [key: string]: unknown };
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(json) }];
  return result.isError
    ? { content, isError: true }
    : { content, structuredContent: json, isError: false };
}
