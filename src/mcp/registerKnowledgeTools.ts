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
import { leanOutputSchema } from './leanOutputSchema.js';
import { toolText } from './toolText.js';

/**
 * What the text block of a successful tool result holds: `compact`, a rendering written for a model
 * (every ID, path, cursor, status and `snapshotId`, without the JSON quoting; `read_file` gives the
 * page's Markdown after a short header); or `json`, the `structuredContent` serialised, as the MCP
 * specification suggests for clients that read only the text.
 */
export type KnowledgeMcpText = 'compact' | 'json';

/** Options of `registerKnowledgeTools` and `toCallToolResult`. */
export interface KnowledgeMcpToolOptions {
  /** The text block of a successful result; default `compact`. Errors are always their JSON. */
  readonly text?: KnowledgeMcpText | undefined;
  /**
   * Write each record's `readActions` URLs in the compact text: for a server reached over HTTP, where
   * a client can fetch them. Default `false` (`structuredContent` always has them).
   */
  readonly readActions?: boolean | undefined;
  /**
   * The output schemas listed: `lean` (default), without prose and cut below the records' fields
   * (`leanOutputSchema`; every output still validates), or `full`, the tools' own schemas.
   */
  readonly outputSchemas?: 'lean' | 'full' | undefined;
}

/** Checks the options, naming the call and the fix. */
function checkOptions(call: string, options: KnowledgeMcpToolOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${call}: options must be an object such as { text: 'json' }, or omitted.`);
  const { text, readActions, outputSchemas } = options;
  if (text !== undefined && text !== 'compact' && text !== 'json')
    throw new TypeError(
      `${call}: text is 'compact' (the default) or 'json', not ${JSON.stringify(text)}.`,
    );
  if (readActions !== undefined && typeof readActions !== 'boolean')
    throw new TypeError(`${call}: readActions is true or false.`);
  if (outputSchemas !== undefined && outputSchemas !== 'lean' && outputSchemas !== 'full')
    throw new TypeError(
      `${call}: outputSchemas is 'lean' (the default) or 'full', not ${JSON.stringify(outputSchemas)}.`,
    );
}

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
 * (listed as is; validation is left to the tool) and the output schema (lean by default, see
 * `leanOutputSchema`; the SDK checks successful results against it). A successful call resolves to
 * `structuredContent` (the output, exactly) and one text block: the compact text written for a model
 * by default, or the same JSON with `text: 'json'`; an error to `isError: true` and the
 * `{ error, requestId }` JSON as the one text block, with no `structuredContent` (see
 * `toCallToolResult`). The request's abort signal reaches the source.
 *
 * @param server - an SDK `McpServer`, connected or not.
 * @param tools - definitions from `knowledgeTools` (or `explorationTools`).
 * @param options - `text` (`compact` or `json`), `readActions` (URLs in the compact text, for HTTP),
 * `outputSchemas` (`lean` or `full`).
 * @returns `server`, for chaining.
 * @throws {TypeError} for a bad option.
 * @example
 * ```ts
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * registerKnowledgeTools(server, knowledgeTools(source));
 * ```
 */
export function registerKnowledgeTools(
  server: McpServer,
  tools: readonly KnowledgeToolDefinition[],
  options?: KnowledgeMcpToolOptions,
): McpServer {
  checkOptions('registerKnowledgeTools', options);
  const full = options?.outputSchemas === 'full';
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: fromJsonSchema(tool.inputSchema as never, DEFER_TO_TOOL),
        outputSchema: fromJsonSchema(
          (full ? tool.outputSchema : leanOutputSchema(tool.outputSchema)) as never,
        ),
        annotations: { ...tool.annotations },
      },
      async (args: unknown, ctx) =>
        toCallToolResult(await tool.execute(args, { signal: ctx.mcpReq.signal }), {
          ...options,
          tool: tool.name,
        }),
    );
  }
  return server;
}

/**
 * An MCP `CallToolResult` carrying a knowledge tool result: one text block, and on success the output
 * as `structuredContent`. The text is the JSON unless `tool` is given and `text` is not `json`: then a
 * success is the compact text of that tool (`search_files`, `read_file`… with or without a prefix;
 * JSON for a tool it does not know). An error result (`isError: true`) carries no
 * `structuredContent`: the SDK v1 client (inside the MCP Inspector and most desktop agents) checks
 * `structuredContent` against the tool's `outputSchema` even on errors, and the `{ error, requestId }`
 * shape would fail that check and hide our message behind `-32602` (docs/decisions.md).
 *
 * @param result - a knowledge tool result.
 * @param options - `tool`, the tool's name, for the compact text; `text`; `readActions`.
 * @returns the MCP result.
 * @throws {TypeError} for a bad option.
 * @example
 * ```ts
 * const reply = toCallToolResult(await tool.execute(args));
 * ```
 */
export function toCallToolResult(
  result: KnowledgeToolResult,
  options?: KnowledgeMcpToolOptions & { readonly tool?: string | undefined },
): CallToolResult {
  checkOptions('toCallToolResult', options);
  const json = result.structuredContent as { [key: string]: unknown };
  const compact = !result.isError && options?.tool !== undefined && options.text !== 'json';
  const text = compact
    ? toolText(options.tool!, json, { readActions: options.readActions === true })
    : JSON.stringify(json);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  return result.isError
    ? { content, isError: true }
    : { content, structuredContent: json, isError: false };
}
