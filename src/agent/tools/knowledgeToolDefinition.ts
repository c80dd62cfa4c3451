/**
 * The transport-neutral tool an app hands to a model (`knowledgeTools`): its name, schemas, hints and
 * `execute`, and what `execute` resolves to.
 *
 * @module
 */
import type { KnowledgeToolErrorBody } from '../errors/codes.js';
import type { JsonObject, JsonSchema } from '../types.js';

/** MCP-style hints: every knowledge tool only reads. */
export interface KnowledgeToolAnnotations {
  readonly readOnlyHint: true;
  readonly destructiveHint: false;
  readonly idempotentHint: true;
  readonly openWorldHint: false;
}

/** What `execute` and `callKnowledgeTool` resolve to: never a rejection. */
export type KnowledgeToolResult =
  | { readonly isError: false; readonly structuredContent: JsonObject }
  | { readonly isError: true; readonly structuredContent: KnowledgeToolErrorBody };

/** Per-call options of `execute`. */
export interface KnowledgeToolCallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly requestId?: string | undefined;
}

/** One transport-neutral tool: name, schemas, policy in the description, and `execute`. Frozen. */
export interface KnowledgeToolDefinition {
  /** The seed's name, with the `prefix` option prepended. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations: KnowledgeToolAnnotations;
  /** Validates `input`, runs the tool, and resolves to a result; never throws or rejects. */
  execute(input: unknown, options?: KnowledgeToolCallOptions): Promise<KnowledgeToolResult>;
}
