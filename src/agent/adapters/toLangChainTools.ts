/**
 * Tools for LangChain.js, built with the caller's `tool` from `@langchain/core/tools` (no import here).
 *
 * @module
 */
import { cloneJson } from '../../shared/deepFreeze.js';
import type { KnowledgeToolDefinition } from '../tools/knowledgeToolDefinition.js';
import type { ToolParametersSchema } from './strictSchema.js';

/** What LangChain passes the tool function as its second argument (the part used here). */
export interface LangChainToolConfig {
  readonly signal?: AbortSignal | undefined;
}

/** The shape of LangChain's `tool(fn, { name, description, schema })`, which accepts JSON Schema. */
export type LangChainToolFactory<T> = (
  fn: (input: unknown, config?: LangChainToolConfig) => Promise<string>,
  fields: { name: string; description: string; schema: ToolParametersSchema },
) => T;

/**
 * The tools as LangChain tools. Each returns the result's `structuredContent` as JSON text, errors
 * included (`{ error, requestId }`), so the model sees the code and what to call instead. LangChain
 * checks arguments against the schema before calling; the source checks them again.
 *
 * @param tools - definitions from `knowledgeTools`.
 * @param tool - `tool` from `@langchain/core/tools`.
 * @returns what `tool` returns, per definition, in order.
 * @example
 * ```ts
 * import { tool } from '@langchain/core/tools';
 * const lcTools = toLangChainTools(knowledgeTools(source), tool);
 * const text = await lcTools[0].invoke({ query: 'renewal notices' });
 * ```
 */
export function toLangChainTools<T>(
  tools: readonly KnowledgeToolDefinition[],
  tool: LangChainToolFactory<T>,
): T[] {
  return tools.map((definition) =>
    tool(
      async (input, config) => {
        const result = await definition.execute(
          input,
          config?.signal === undefined ? {} : { signal: config.signal },
        );
        return JSON.stringify(result.structuredContent);
      },
      {
        name: definition.name,
        description: definition.description,
        schema: cloneJson(definition.inputSchema) as ToolParametersSchema,
      },
    ),
  );
}
