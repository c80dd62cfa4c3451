/**
 * The agent layer's one internal entry, for the package's own transports and apps (`src/http`,
 * `src/mcp`, `src/cli`): the tool registry and what they derive from it. Not a package export, so it may
 * change with them; everything public comes from `./index.ts`. `test/layers.test.ts` allows other
 * layers these two entries and nothing else of the agent layer.
 *
 * @module
 */
export type { ArgSpec, FieldRule, ParamKind } from './tools/args.js';
export type { ResponseShape, ToolDefinition, ToolRouteSpec } from './tools/defineTool.js';
export {
  KNOWLEDGE_TOOLS,
  type KnowledgeRouteId,
  type KnowledgeSourceMethod,
  type KnowledgeToolRegistry,
} from './tools/registry.js';
export { KNOWLEDGE_SOURCE_METHODS, missingSourceMethod } from './tools/sourceMethods.js';
export { MAX_QUERY_CODE_POINTS } from './tools/searchFiles/definition.js';
