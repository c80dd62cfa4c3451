import { graphFilePath } from '../../../shared/pagePath.js';
import type { ExpandGraphOutput, GraphRelationship } from './types.js';
import type { ExpandGraphInput } from './types.js';
import type { CallScope } from '../../source/callScope.js';
import type { ToolArgs } from '../defineTool.js';
import { pageOf, resumeListing } from '../../source/cursor.js';
import { fileActions } from '../../source/readActions.js';
import { relatedOf, relationFields } from '../../source/relatedOf.js';
import { versionFields } from '../../source/versionOf.js';
import type { SourceState } from '../../source/state.js';

/** Relationships per page of `expand_graph`. */
const PAGE = 50;

/**
 * `expand_graph`: breadth first from the seed, each file contributing its `fanout` strongest
 * relationships; no file twice, never the seed; pages of 50.
 */
export function expandGraph(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<ExpandGraphInput>,
): ExpandGraphOutput {
  const resumed = resumeListing(scope, state.cursors, state.table.activeContentRevision, args, {
    fileId: '',
    depth: 1,
    fanout: 10,
  });
  const { fileId, depth, fanout } = resumed.binding.params;
  const { page: seed } = relatedOf(state, scope, fileId);

  const seen = new Set<string>([seed.fileId]);
  const expanded: string[] = [];
  const found: GraphRelationship[] = [];
  let frontier = [seed.fileId];
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const from of frontier) {
      expanded.push(from);
      const relations = state.relations.get(from) ?? [];
      for (let i = 0; i < Math.min(fanout, relations.length); i++) {
        const r = relations[i]!;
        if (seen.has(r.fileId)) continue;
        seen.add(r.fileId);
        // Onto the relation's fields with `Object.assign`: properties after a leading spread are
        // slow to add in V8.
        found.push(
          Object.assign(relationFields(state, r), {
            readActions: fileActions(scope.actionBase, state.table.byId(r.fileId)!),
            depth: level,
            viaFileId: from,
          }),
        );
        next.push(r.fileId);
      }
    }
    frontier = next;
  }
  const { from, to, nextCursor } = pageOf(scope, state.cursors, resumed, found.length, PAGE);
  const items = found.slice(from, to);
  return {
    activeContentRevision: state.table.activeContentRevision,
    ...versionFields(state),
    seedFile: { fileId: seed.fileId, path: seed.path },
    relationships: items,
    graphPaths: expanded.map(graphFilePath),
    nextCursor,
  };
}
