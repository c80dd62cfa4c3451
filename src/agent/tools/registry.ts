/**
 * The tool registry: the six tools of the seed, in its order. Every list of tool names or source
 * methods, the JSON Schemas, the HTTP routes, the client's requests and the forwarding sources are
 * derived from it. Functions that serve tools take a registry as a parameter, with this one as the
 * default, so a test can serve one more tool without touching any global.
 *
 * @module
 */
import type { ToolDefinition } from './defineTool.js';
import { expandGraphTool } from './expandGraph/definition.js';
import { getFileTool } from './getFile/definition.js';
import { listTreeTool } from './listTree/definition.js';
import { readFileTool } from './readFile/definition.js';
import { readRelatedTool } from './readRelated/definition.js';
import { searchFilesTool } from './searchFiles/definition.js';

/** A list of tool definitions, in the order tools are defined and listed. */
export type KnowledgeToolRegistry = readonly ToolDefinition[];

/** The six tools, in the seed's order. Frozen. */
export const KNOWLEDGE_TOOLS = Object.freeze([
  searchFilesTool,
  readFileTool,
  listTreeTool,
  getFileTool,
  readRelatedTool,
  expandGraphTool,
] as const);

/** Names of the six tools, as the seed writes them. */
export type KnowledgeToolName = (typeof KNOWLEDGE_TOOLS)[number]['name'];

/** The `KnowledgeSource` method behind each tool (`warm` is not a tool). */
export type KnowledgeSourceMethod = (typeof KNOWLEDGE_TOOLS)[number]['method'];

/** The keys of the tools' HTTP routes (`ROUTE_PARAMS`). */
export type KnowledgeRouteId = (typeof KNOWLEDGE_TOOLS)[number]['http']['routes'][number]['id'];

/** The six tool names, in the seed's order. Frozen. */
export const KNOWLEDGE_TOOL_NAMES: readonly KnowledgeToolName[] = Object.freeze(
  KNOWLEDGE_TOOLS.map((tool) => tool.name),
);
