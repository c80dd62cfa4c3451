/**
 * The tools' input and output JSON Schemas, deep-frozen, by tool name: derived from the registry.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolName } from '../registry.js';

export { READ_FILE_OUTPUT_SCHEMA } from '../readFile/outputSchema.js';
export { SEARCH_FILES_OUTPUT_SCHEMA } from '../searchFiles/outputSchema.js';

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
