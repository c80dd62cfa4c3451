import type { NextAction, SearchFilesOutput, SearchItem } from './types.js';
import type { SearchFilesInput } from './types.js';
import type { JsonValue, SearchMode } from '../../types.js';
import type { SearchFilter } from '../../search/port.js';
import type { PageRecord } from '../../model.js';
import type { CallScope } from '../../source/callScope.js';
import type { ToolArgs } from '../defineTool.js';
import { callEngine } from '../../source/callEngine.js';
import { checkContinued, encodeCursor, resumeSearch } from '../../source/cursor.js';
import { fileActions } from '../../source/readActions.js';
import { versionFields } from '../../source/versionOf.js';
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
    pathPrefix: null as JsonValue,
    tags: null as JsonValue,
    locale: null as JsonValue,
  });
  const { query, mode, graphDepth, graphFanout, rerank, limit } = binding.params;
  // Bound into the cursor as checked (a list, or null): a cursor given with other filters is refused.
  const filter: SearchFilter = {
    pathPrefix: binding.params.pathPrefix as readonly string[] | null,
    tags: binding.params.tags as readonly string[] | null,
    locale: binding.params.locale as string | null,
  };
  const filtered = filter.pathPrefix !== null || filter.tags !== null || filter.locale !== null;

  const answer = await callEngine(state, scope, {
    query,
    mode,
    graphDepth,
    graphFanout,
    rerank,
    limit,
    ...(filtered ? { filter } : {}),
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
    ...versionFields(state),
    items,
    searchStatus: empty ? 'no_candidates' : 'ok',
    searchMode: mode,
    semanticStatus: { ...answer.semanticStatus },
    rerankerStatus: { ...answer.rerankerStatus },
    message: empty
      ? filtered
        ? filteredMessage(filter, answer.emptiedBy)
        : 'No page matched this query. This is not an error: read index.md or list the tree to see what the knowledge base covers, then search again with words from it.'
      : null,
    nextActions: empty ? NO_CANDIDATES.map((a) => ({ ...a, input: { ...a.input } })) : [],
    nextCursor,
  };
}

/** The values of a filter, for messages: `` `a`, `b` ``. */
const listed = (values: readonly string[]): string =>
  values.map((v) => JSON.stringify(v)).join(', ');

/**
 * The message of a filtered search without candidates: the filter that keeps no page, when the engine
 * says which, else that no page in the filters' scope matched the query.
 */
function filteredMessage(
  filter: SearchFilter,
  emptiedBy: 'pathPrefix' | 'tags' | 'locale' | 'together' | undefined,
): string {
  const given = [
    ...(filter.pathPrefix === null ? [] : [`pathPrefix ${listed(filter.pathPrefix)}`]),
    ...(filter.tags === null ? [] : [`tags ${listed(filter.tags)}`]),
    ...(filter.locale === null ? [] : [`locale ${JSON.stringify(filter.locale)}`]),
  ].join(', ');
  switch (emptiedBy) {
    case 'pathPrefix':
      return `The filter pathPrefix ${listed(filter.pathPrefix ?? [])} keeps no page: no page's path starts with ${filter.pathPrefix?.length === 1 ? 'it' : 'any of them'}. Paths are written as list_tree gives them (such as "pages/guide/"); list the tree for the right prefix, or search without pathPrefix.`;
    case 'tags':
      return `The filter tags ${listed(filter.tags ?? [])} keeps no page: no page's front matter tags hold ${filter.tags?.length === 1 ? 'it' : 'them all'}. Search with fewer or other tags (get_file shows a page's front matter), or without tags.`;
    case 'locale':
      return `The filter locale ${JSON.stringify(filter.locale)} keeps no page: no page has that locale. Search with another locale (get_file shows a page's locale), or without locale.`;
    case 'together':
      return `The filters ${given} keep no page together: each keeps some page, but no page passes them all. Search with fewer filters.`;
    default:
      return `No page within the filters (${given}) matched this query. This is not an error: search again with other words, or with fewer filters.`;
  }
}
