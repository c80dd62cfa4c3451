import type { NextAction, SearchFilesOutput, SearchItem } from './types.js';
import type { SearchFilesInput } from './types.js';
import type { SearchMode } from '../../types.js';
import type { PageRecord } from '../../model.js';
import type { CallScope } from '../../source/callScope.js';
import type { ToolArgs } from '../defineTool.js';
import { callEngine } from '../../source/callEngine.js';
import { checkContinued, encodeCursor, resumeSearch } from '../../source/cursor.js';
import { fileActions } from '../../source/readActions.js';
import type { SourceState } from '../../source/state.js';

const NO_CANDIDATES: readonly NextAction[] = [
  {
    tool: 'read_file',
    input: { path: 'index.md' },
    reason: 'index.md lists every page with its title and description.',
  },
  {
    tool: 'list_tree',
    input: { parentPath: '' },
    reason: 'The file tree shows what the knowledge base holds.',
  },
];

/** `search_files`: ranked page candidates (never evidence), with continuity fields and statuses. */
export async function searchFiles(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<SearchFilesInput>,
): Promise<SearchFilesOutput> {
  const revision = state.table.activeContentRevision;
  const { binding, position } = resumeSearch(scope, state.cursors, revision, args, {
    query: '',
    mode: 'hybrid' as SearchMode,
    graphDepth: 1,
    graphFanout: 10,
    rerank: false,
    limit: 10,
  });
  const { query, mode, graphDepth, graphFanout, rerank, limit } = binding.params;

  const answer = await callEngine(state, scope, {
    query,
    mode,
    graphDepth,
    graphFanout,
    rerank,
    limit,
    continuation: position?.continuation,
    signal: scope.signal,
  });
  // Which optional stages ran is part of the order: a next page ranked without them would repeat or skip.
  const ranking = `semantic:${answer.semanticStatus.state},rerank:${answer.rerankerStatus.state}`;
  if (position !== undefined) checkContinued(scope, position, answer.hits.length, ranking);
  const nextCursor =
    answer.continuation === null
      ? null
      : encodeCursor(scope, state.cursors, binding, answer.continuation, ranking);
  const hits = answer.hits;
  const items: SearchItem[] = hits.map((hit) => {
    // The engine's corpus holds pages only (checked by \`callEngine\`).
    const file = state.table.byId(hit.fileId) as PageRecord;
    return {
      fileId: file.fileId,
      sourceFileId: file.fileId,
      path: file.path,
      title: file.title,
      description: file.description,
      score: hit.score,
      matchedFields: [...hit.matchedFields],
      evidenceTypes: [...hit.evidenceTypes],
      sourceExcerpt: hit.sourceExcerpt,
      contentAvailable: true,
      readActions: fileActions(scope.actionBase, file),
      sectionIds: [...hit.sectionIds],
      heading: hit.heading == null ? null : { id: hit.heading.id, text: hit.heading.text },
    };
  });
  const empty = hits.length === 0;
  return {
    activeContentRevision: revision,
    items,
    searchStatus: empty ? 'no_candidates' : 'ok',
    searchMode: mode,
    semanticStatus: { ...answer.semanticStatus },
    rerankerStatus: { ...answer.rerankerStatus },
    message: empty
      ? 'No page matched this query. This is not an error: read index.md or list the tree to see what the knowledge base covers, then search again with words from it.'
      : null,
    nextActions: empty ? NO_CANDIDATES.map((a) => ({ ...a, input: { ...a.input } })) : [],
    nextCursor,
  };
}
