/**
 * `KnowledgeSource`: the one read interface behind the tools, the MCP server, the HTTP handler and
 * exploration, with one method per tool of the registry.
 *
 * @module
 */
import type { SearchWarmProgress } from '../search/port.js';
import type { KnowledgeCallContext } from '../types.js';
import type { ToolDefinition } from './defineTool.js';
import type { KNOWLEDGE_TOOLS, KnowledgeToolRegistry } from './registry.js';

/** The context of `KnowledgeSource.warm`: a call's context, and a listener for the build's progress. */
export interface KnowledgeWarmContext extends KnowledgeCallContext {
  /**
   * Called now and then while the search index is built (`done` of `total`, in the engine's units: the
   * default engine counts pages), never after `warm()` settles. `serve` and `mcp` print it on stderr.
   */
  readonly onProgress?: ((progress: SearchWarmProgress) => void) | undefined;
}

/**
 * The source method of one tool: its input (optional when the tool says so) and an optional call
 * context, resolving to its output.
 */
export type ToolMethod<Tool> =
  Tool extends ToolDefinition<string, string, string, infer Input, infer Output, infer Optional>
    ? Optional extends true
      ? {
          // Declared as a method, so its parameters compare as a method's do (bivariantly), as
          // they did when the interface was written by hand.
          method(input?: Input, context?: KnowledgeCallContext): Promise<Output>;
        }['method']
      : { method(input: Input, context?: KnowledgeCallContext): Promise<Output> }['method']
    : never;

/** The read methods of a source serving `Registry`: one per tool, named by its `method`. */
export type ToolMethods<Registry extends KnowledgeToolRegistry> = {
  [Tool in Registry[number] as Tool['method']]: ToolMethod<Tool>;
};

/**
 * The one read interface behind the tools, the MCP server, the HTTP handler and exploration: one
 * method per tool of the registry (`listTree`, `getFile`, `readFile`, `searchFiles`, `readRelated`,
 * `expandGraph`), taking the tool's input and an optional `KnowledgeCallContext` and resolving to
 * its output. Every method rejects only with `KnowledgeToolError`.
 */
export interface KnowledgeSource extends ToolMethods<typeof KNOWLEDGE_TOOLS> {
  /**
   * Build what the first search would build (the search index, section vectors), in slices that keep
   * the process answering. Until it resolves, `searchFiles` waits for it at most a second, then
   * answers `SEARCH_UNAVAILABLE` with `retryAfterSeconds` (every other method answers as usual); await
   * it before serving to never refuse a search. Without a `warm()`, the first search builds the index and waits for it.
   * Optional for remote sources.
   */
  warm?(context?: KnowledgeWarmContext): Promise<void>;
}
