/**
 * Tool definitions over a `KnowledgeSource` (internal barrel; `src/agent/index.ts` re-exports).
 *
 * @module
 */
export { callKnowledgeTool } from './callKnowledgeTool.js';
export { knowledgeTools } from './knowledgeTools.js';
export type { KnowledgeToolsOptions } from './knowledgeToolsOptions.js';
export { KNOWLEDGE_TOOL_NAMES, KNOWLEDGE_TOOLS } from './registry.js';
export { KNOWLEDGE_TOOL_SCHEMAS } from './schemas/index.js';
export type { KnowledgeToolSchemas } from './schemas/index.js';
