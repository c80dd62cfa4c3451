/**
 * Tool definitions over a `KnowledgeSource` (internal barrel; `src/agent/index.ts` re-exports).
 *
 * @module
 */
export { callKnowledgeTool } from './callKnowledgeTool.js';
export { KNOWLEDGE_TOOL_NAMES, KNOWLEDGE_TOOL_TEXTS } from './descriptions.js';
export type { KnowledgeToolText } from './descriptions.js';
export { KNOWLEDGE_TOOL_ANNOTATIONS, knowledgeTools } from './knowledgeTools.js';
export type { KnowledgeToolsOptions } from './knowledgeToolsOptions.js';
export {
  EXPAND_GRAPH_INPUT_SCHEMA,
  EXPAND_GRAPH_OUTPUT_SCHEMA,
  GET_FILE_INPUT_SCHEMA,
  GET_FILE_OUTPUT_SCHEMA,
  KNOWLEDGE_TOOL_SCHEMAS,
  LIST_TREE_INPUT_SCHEMA,
  LIST_TREE_OUTPUT_SCHEMA,
  READ_FILE_INPUT_SCHEMA,
  READ_FILE_OUTPUT_SCHEMA,
  READ_RELATED_INPUT_SCHEMA,
  READ_RELATED_OUTPUT_SCHEMA,
  SEARCH_FILES_INPUT_SCHEMA,
  SEARCH_FILES_OUTPUT_SCHEMA,
} from './schemas/index.js';
export type { KnowledgeToolSchemas } from './schemas/index.js';
