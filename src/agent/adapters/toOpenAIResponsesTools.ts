/**
 * Tools in the shape of OpenAI's Responses API (`tools: [{ type: 'function', … }]`).
 *
 * @module
 */
import { cloneJson } from '../../shared/deepFreeze.js';
import type { KnowledgeToolDefinition } from '../tools/knowledgeToolDefinition.js';
import { toStrictSchema, type ToolParametersSchema } from './strictSchema.js';

/** Options of the OpenAI adapters. */
export interface OpenAIToolsOptions {
  /** Strict function calling (every property required and nullable, strict-mode keywords only). Default `true`. */
  readonly strict?: boolean | undefined;
}

/** An OpenAI Responses function tool (`FunctionTool` of the `openai` package). Fresh; the caller owns it. */
export interface OpenAIResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: ToolParametersSchema;
  readonly strict: boolean;
}

/**
 * The tools as OpenAI Responses function tools. Run the calls with `callKnowledgeTool(tools,
 * call.name, call.arguments)`.
 *
 * @param tools - definitions from `knowledgeTools`.
 * @param options - `strict` (default `true`).
 * @returns fresh tool objects, in the order of `tools`.
 * @example
 * ```ts
 * const response = await openai.responses.create({ model, input, tools: toOpenAIResponsesTools(tools) });
 * ```
 */
export function toOpenAIResponsesTools(
  tools: readonly KnowledgeToolDefinition[],
  options: OpenAIToolsOptions = {},
): OpenAIResponsesFunctionTool[] {
  const strict = options.strict ?? true;
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: strict
      ? toStrictSchema(tool.inputSchema)
      : (cloneJson(tool.inputSchema) as ToolParametersSchema),
    strict,
  }));
}
