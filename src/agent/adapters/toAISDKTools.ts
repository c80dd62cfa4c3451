/**
 * A tool map for the Vercel AI SDK, built with the caller's `jsonSchema` from `ai` (no import here).
 *
 * @module
 */
import { cloneJson } from '../../shared/deepFreeze.js';
import type { JsonObject } from '../types.js';
import type { KnowledgeToolDefinition } from '../tools/knowledgeToolDefinition.js';
import type { ToolParametersSchema } from './strictSchema.js';

/** One AI SDK tool: `description`, `inputSchema` (from `jsonSchema`) and `execute`. */
export interface AISDKTool<S> {
  readonly description: string;
  readonly inputSchema: S;
  /** Resolves to the output, or to the error shape `{ error, requestId }`; never rejects. */
  execute(
    input: unknown,
    options: { readonly abortSignal?: AbortSignal | undefined },
  ): Promise<JsonObject>;
}

/** Options of `toAISDKTools`. */
export interface AISDKToolsOptions<S> {
  /** `jsonSchema` from `ai`. It does not validate; the source does. */
  readonly jsonSchema: (schema: ToolParametersSchema) => S;
}

/**
 * The tools as an AI SDK tool map (name → tool), for `generateText({ tools })`. `execute` resolves to
 * the result's `structuredContent`: the output, or `{ error, requestId }` for a failed call, so the
 * model reads the code and what to call instead (a thrown error would reach it as bare text). `ai`'s
 * `tool()` is an identity helper for type inference, so it is not needed.
 *
 * @param tools - definitions from `knowledgeTools`.
 * @param options - `jsonSchema` from `ai`.
 * @returns a fresh record, in the order of `tools`.
 * @example
 * ```ts
 * import { generateText, jsonSchema } from 'ai';
 * const result = await generateText({ model, tools: toAISDKTools(knowledgeTools(source), { jsonSchema }), prompt });
 * ```
 */
export function toAISDKTools<S>(
  tools: readonly KnowledgeToolDefinition[],
  options: AISDKToolsOptions<S>,
): Record<string, AISDKTool<S>> {
  const map: Record<string, AISDKTool<S>> = {};
  for (const definition of tools) {
    map[definition.name] = {
      description: definition.description,
      inputSchema: options.jsonSchema(cloneJson(definition.inputSchema) as ToolParametersSchema),
      async execute(input, { abortSignal }) {
        const result = await definition.execute(
          input,
          abortSignal === undefined ? {} : { signal: abortSignal },
        );
        return result.structuredContent;
      },
    };
  }
  return map;
}
