/**
 * `knowledgeTools`: one transport-neutral, frozen definition per tool over a `KnowledgeSource`.
 *
 * @module
 */
import type { JsonObject, KnowledgeCallContext } from '../types.js';
import type { KnowledgeSource } from './knowledgeSource.js';
import type {
  KnowledgeToolAnnotations,
  KnowledgeToolDefinition,
} from './knowledgeToolDefinition.js';
import type { ToolDefinition } from './defineTool.js';
import { checkToolsOptions, type KnowledgeToolsOptions } from './knowledgeToolsOptions.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from './registry.js';
import { isPlainObject, toolExecute } from './toolResult.js';

/** Every knowledge tool only reads, is idempotent, and stays inside the knowledge base. */
export const KNOWLEDGE_TOOL_ANNOTATIONS: KnowledgeToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/**
 * One frozen definition per tool over `source`: name, title, a description carrying the seed's
 * policy, input and output JSON Schemas, annotations, and `execute`, which never throws: it resolves
 * to `{ isError: false, structuredContent: output }` or `{ isError: true, structuredContent: { error,
 * requestId } }`. Arguments are checked by the source (`INVALID_ARGUMENT` naming the field); `execute`
 * itself only refuses arguments that are not a JSON object (absent arguments mean `{}`).
 *
 * @param source - the knowledge source, such as `createCatalogSource(catalog)`.
 * @param options - `prefix` prepended to every name; `include`, the tools to define.
 * @returns the definitions, in the seed's order (`search_files`, `read_file`, `list_tree`, `get_file`, `read_related`, `expand_graph`).
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad option or a source missing a method.
 * @example
 * ```ts
 * const tools = knowledgeTools(createCatalogSource(catalog), { prefix: 'kb_' });
 * const result = await tools[0].execute({ query: 'How are renewal notices sent?' });
 * ```
 */
export function knowledgeTools(
  source: KnowledgeSource,
  options?: KnowledgeToolsOptions,
): readonly KnowledgeToolDefinition[] {
  return registryTools(KNOWLEDGE_TOOLS, source, options);
}

/**
 * `knowledgeTools` over any registry (internal: the six tools' registry is the default everywhere).
 *
 * @param registry - the tools to define, in order.
 * @param source - has the method of every tool defined.
 * @param options - `prefix` and `include`, as `knowledgeTools` takes them.
 * @returns the frozen definitions.
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad option or a source missing a method.
 */
export function registryTools(
  registry: KnowledgeToolRegistry,
  source: KnowledgeSource,
  options?: KnowledgeToolsOptions,
): readonly KnowledgeToolDefinition[] {
  const { prefix, tools } = checkToolsOptions(registry, source, options);
  return Object.freeze(tools.map((tool) => defineOne(source, tool, prefix)));
}

function defineOne(
  source: KnowledgeSource,
  tool: ToolDefinition,
  prefix: string,
): KnowledgeToolDefinition {
  const fullName = prefix + tool.name;
  const call = (source as unknown as Record<string, unknown>)[tool.method] as (
    input: unknown,
    context: KnowledgeCallContext,
  ) => Promise<unknown>;
  const execute = toolExecute(fullName, async (args, context) => {
    const output = await call.call(source, args, context);
    if (!isPlainObject(output))
      throw new TypeError('the source resolved to something other than an object');
    return output as JsonObject;
  });
  return Object.freeze({
    name: fullName,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: KNOWLEDGE_TOOL_ANNOTATIONS,
    execute,
  });
}
