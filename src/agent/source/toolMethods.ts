/**
 * The read methods of a source, derived from the tool registry: each tool's body (`run` of its
 * definition) over a call's state, run by the source's own runner (which builds the state, opens the
 * call's scope and maps failures). The catalog source, the PostgreSQL source and the static source
 * all build their methods here, so a new tool needs nothing in any source.
 *
 * @module
 */
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { CallScope } from './callScope.js';
import { readInput, withoutNulNames } from './readInput.js';
import type { SourceState } from './state.js';
import { refuseOtherVersion } from './versionOf.js';

/**
 * How a source runs one call: build the call's state for `tool` and `input`, open its scope from
 * `context`, call `body`, and turn any failure into a `KnowledgeToolError`.
 */
export type ToolRunner = (
  tool: ToolDefinition,
  input: unknown,
  context: unknown,
  body: (state: SourceState, scope: CallScope) => unknown,
) => Promise<unknown>;

/**
 * The read methods of a `KnowledgeSource`, one per tool of the registry, each checking its input by
 * the tool's rules, refusing a `version` other than the state's (`VERSION_NOT_FOUND`), and running
 * the tool's body through `run`.
 *
 * @param run - the source's runner.
 * @param registry - the tools to serve; default the six.
 * @returns the methods (without `warm`, which each source defines).
 */
export function toolMethods(
  run: ToolRunner,
  registry: KnowledgeToolRegistry = KNOWLEDGE_TOOLS,
): Omit<KnowledgeSource, 'warm'> {
  const methods: Record<string, unknown> = {};
  for (const tool of registry) {
    methods[tool.method] = (input: unknown, context?: unknown) =>
      // A name holding NUL is planned as absent (a store cannot look it up), then NOT_FOUND.
      run(tool, withoutNulNames(input), context, (state, scope) => {
        const args = readInput(scope, input, tool.rules);
        refuseOtherVersion(scope, state.version, args['version']);
        return tool.run(state, scope, args);
      });
  }
  return methods as unknown as Omit<KnowledgeSource, 'warm'>;
}
