/**
 * Tools in the shape of OpenAI's Chat Completions API (`tools: [{ type: 'function', function: … }]`).
 *
 * @module
 */
import type { KnowledgeToolDefinition } from '../tools/knowledgeToolDefinition.js';
import type { ToolParametersSchema } from './strictSchema.js';
import { toOpenAIResponsesTools, type OpenAIToolsOptions } from './toOpenAIResponsesTools.js';

/** An OpenAI Chat Completions function tool (`ChatCompletionTool` of the `openai` package). Fresh. */
export interface OpenAIChatFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: ToolParametersSchema;
    readonly strict: boolean;
  };
}

/**
 * The tools as Chat Completions function tools. Run the calls with `callKnowledgeTool(tools,
 * call.function.name, call.function.arguments)`.
 *
 * @param tools - definitions from `knowledgeTools`.
 * @param options - `strict` (default `true`).
 * @returns fresh tool objects, in the order of `tools`.
 * @example
 * ```ts
 * const completion = await openai.chat.completions.create({ model, messages, tools: toOpenAIChatTools(tools) });
 * ```
 */
export function toOpenAIChatTools(
  tools: readonly KnowledgeToolDefinition[],
  options: OpenAIToolsOptions = {},
): OpenAIChatFunctionTool[] {
  return toOpenAIResponsesTools(tools, options).map(
    ({ name, description, parameters, strict }) => ({
      type: 'function',
      function: { name, description, parameters, strict },
    }),
  );
}
