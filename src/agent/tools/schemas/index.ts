/**
 * The tools' input and output JSON Schemas, deep-frozen, by tool name: derived from the registry.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolName } from '../registry.js';

export { EXPAND_GRAPH_OUTPUT_SCHEMA } from '../expandGraph/outputSchema.js';
export { GET_FILE_OUTPUT_SCHEMA } from '../getFile/outputSchema.js';
export { LIST_TREE_OUTPUT_SCHEMA } from '../listTree/outputSchema.js';
export { READ_FILE_OUTPUT_SCHEMA } from '../readFile/outputSchema.js';
export { READ_RELATED_OUTPUT_SCHEMA } from '../readRelated/outputSchema.js';
export { SEARCH_FILES_OUTPUT_SCHEMA } from '../searchFiles/outputSchema.js';
export { cloneJson, deepFreeze } from '../../../shared/deepFreeze.js';

/** The input and output schema of one tool. */
export interface KnowledgeToolSchemas {
  readonly input: JsonSchema;
  readonly output: JsonSchema;
}

/** Every tool's schemas, by the seed's tool name. Frozen. */
export const KNOWLEDGE_TOOL_SCHEMAS: Readonly<Record<KnowledgeToolName, KnowledgeToolSchemas>> =
  Object.freeze(
    Object.fromEntries(
      KNOWLEDGE_TOOLS.map((tool) => [
        tool.name,
        Object.freeze({ input: tool.inputSchema, output: tool.outputSchema }),
      ]),
    ) as Record<KnowledgeToolName, KnowledgeToolSchemas>,
  );
