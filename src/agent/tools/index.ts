/**
 * Tool definitions over a `KnowledgeSource` (internal barrel; `src/agent/index.ts` re-exports).
 *
 * @module
 */
export { callKnowledgeTool } from './callKnowledgeTool.js';
export { KNOWLEDGE_TOOL_ANNOTATIONS, knowledgeTools, registryTools } from './knowledgeTools.js';
export type { KnowledgeToolsOptions } from './knowledgeToolsOptions.js';
export { KNOWLEDGE_TOOL_NAMES, KNOWLEDGE_TOOLS } from './registry.js';
export type {
  KnowledgeSourceMethod,
  KnowledgeToolName,
  KnowledgeToolRegistry,
} from './registry.js';
export { defineTool } from './defineTool.js';
export type {
  ResponseShape,
  ToolDeclaration,
  ToolDefinition,
  ToolRouteSpec,
} from './defineTool.js';
export { KNOWLEDGE_TOOL_SCHEMAS } from './schemas/index.js';
export type { KnowledgeToolSchemas } from './schemas/index.js';
