/**
 * `KnowledgeSource`: the one read interface behind the tools, the MCP server, the HTTP handler and
 * exploration, with one method per tool of the registry.
 *
 * @module
 */
import type { SearchWarmProgress } from '../search/port.js';
import type { KnowledgeCallContext } from '../types.js';
import type { ExpandGraphInput, ExpandGraphOutput } from './expandGraph/types.js';
import type { GetFileInput, GetFileOutput } from './getFile/types.js';
import type { ListTreeInput, ListTreeOutput } from './listTree/types.js';
import type { ReadFileInput, ReadFileOutput } from './readFile/types.js';
import type { ReadRelatedInput, ReadRelatedOutput } from './readRelated/types.js';
import type { SearchFilesInput, SearchFilesOutput } from './searchFiles/types.js';

/** The context of `KnowledgeSource.warm`: a call's context, and a listener for the build's progress. */
export interface KnowledgeWarmContext extends KnowledgeCallContext {
  /**
   * Called now and then while the search index is built (`done` of `total`, in the engine's units: the
   * default engine counts pages), never after `warm()` settles. `serve` and `mcp` print it on stderr.
   */
  readonly onProgress?: ((progress: SearchWarmProgress) => void) | undefined;
}

/**
 * The one read interface behind the tools, the MCP server, the HTTP handler and exploration. Every
 * method rejects only with `KnowledgeToolError`.
 */
export interface KnowledgeSource {
  listTree(input?: ListTreeInput, context?: KnowledgeCallContext): Promise<ListTreeOutput>;
  getFile(input: GetFileInput, context?: KnowledgeCallContext): Promise<GetFileOutput>;
  readFile(input: ReadFileInput, context?: KnowledgeCallContext): Promise<ReadFileOutput>;
  searchFiles(input: SearchFilesInput, context?: KnowledgeCallContext): Promise<SearchFilesOutput>;
  readRelated(input: ReadRelatedInput, context?: KnowledgeCallContext): Promise<ReadRelatedOutput>;
  expandGraph(input: ExpandGraphInput, context?: KnowledgeCallContext): Promise<ExpandGraphOutput>;
  /**
   * Build what the first search would build (the search index, section vectors), in slices that keep
   * the process answering. Until it resolves, `searchFiles` waits for it at most a second, then
   * answers `SEARCH_UNAVAILABLE` with `retryAfterSeconds` (every other method answers as usual); await
   * it before serving to never refuse a search. Without a `warm()`, the first search builds the index and waits for it.
   * Optional for remote sources.
   */
  warm?(context?: KnowledgeWarmContext): Promise<void>;
}
