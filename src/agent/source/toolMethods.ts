/**
 * The read methods of a source, derived from the tool registry: each tool's implementation over a
 * call's state (`TOOL_BODIES`), run by the source's own runner (which builds the state, opens the
 * call's scope and maps failures). The catalog source, the PostgreSQL source and the static source
 * all build their methods here, so a new tool is one line in `TOOL_BODIES`.
 */
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolName } from '../tools/registry.js';
import type { CallScope } from './callScope.js';
import { expandGraph } from './expandGraph.js';
import { getFile } from './getFile.js';
import { listTree } from './listTree.js';
import { readFile } from './readFile.js';
import { readRelated } from './readRelated.js';
import { searchFiles } from './searchFiles.js';
import type { SourceState } from './state.js';

/** A tool's implementation: its answer from a call's state, its scope and its raw input. */
export type ToolBody = (state: SourceState, scope: CallScope, input: unknown) => unknown;

/** Each tool's implementation, by tool name. */
export const TOOL_BODIES: Readonly<Record<KnowledgeToolName, ToolBody>> = Object.freeze({
  list_tree: listTree,
  get_file: getFile,
  read_file: readFile,
  search_files: searchFiles,
  read_related: readRelated,
  expand_graph: expandGraph,
});

/**
 * How a source runs one call: build the call's state for `tool` and `input`, open its scope from
 * `context`, call `body`, and turn any failure into a `KnowledgeToolError`.
 */
export type ToolRunner = (
  tool: KnowledgeToolName,
  input: unknown,
  context: unknown,
  body: (state: SourceState, scope: CallScope) => unknown,
) => Promise<unknown>;

/**
 * The read methods of a `KnowledgeSource`, one per tool of the registry, each running its tool's
 * implementation through `run`.
 *
 * @param run - the source's runner.
 * @returns the methods (without `warm`, which each source defines).
 */
export function toolMethods(run: ToolRunner): Omit<KnowledgeSource, 'warm'> {
  const methods: Record<string, unknown> = {};
  for (const tool of KNOWLEDGE_TOOLS) {
    const body = TOOL_BODIES[tool.name];
    methods[tool.method] = (input: unknown, context?: unknown) =>
      run(tool.name, input, context, (state, scope) => body(state, scope, input));
  }
  return methods as unknown as Omit<KnowledgeSource, 'warm'>;
}
