/**
 * Tools in the shape of Anthropic's Messages API, and tool results back.
 *
 * @module
 */
import { cloneJson } from '../../shared/deepFreeze.js';
import type {
  KnowledgeToolDefinition,
  KnowledgeToolResult,
} from '../tools/knowledgeToolDefinition.js';

/** An Anthropic tool (`Tool` of `@anthropic-ai/sdk`). Fresh; the caller owns it. */
export interface AnthropicToolParam {
  readonly name: string;
  readonly description: string;
  readonly input_schema: {
    type: 'object';
    properties: { [key: string]: unknown };
    required: string[];
    [key: string]: unknown;
  };
}

/** A `tool_result` content block (`ToolResultBlockParam` of `@anthropic-ai/sdk`). */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  /** The result's `structuredContent` as JSON text. */
  readonly content: string;
  readonly is_error: boolean;
}

/**
 * The tools as Anthropic tools, with the base input schemas (Anthropic takes JSON Schema as is).
 *
 * @param tools - definitions from `knowledgeTools`.
 * @returns fresh tool objects, in the order of `tools`.
 * @example
 * ```ts
 * const message = await anthropic.messages.create({ model, max_tokens, messages, tools: toAnthropicTools(tools) });
 * ```
 */
export function toAnthropicTools(tools: readonly KnowledgeToolDefinition[]): AnthropicToolParam[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: cloneJson(tool.inputSchema) as AnthropicToolParam['input_schema'],
  }));
}

/**
 * A tool result as Anthropic's `tool_result` block: the structured content as JSON text (success
 * output, or the error shape `{ error, requestId }` so the model can act on the code), and `is_error`.
 *
 * @param toolUseId - the `id` of the model's `tool_use` block.
 * @param result - what `execute` or `callKnowledgeTool` resolved to.
 * @returns a fresh block for the next user message.
 * @example
 * ```ts
 * const result = await callKnowledgeTool(tools, block.name, block.input);
 * content.push(toAnthropicToolResult(block.id, result));
 * ```
 */
export function toAnthropicToolResult(
  toolUseId: string,
  result: KnowledgeToolResult,
): AnthropicToolResultBlock {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: JSON.stringify(result.structuredContent),
    is_error: result.isError,
  };
}
