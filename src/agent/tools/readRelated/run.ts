import type { ReadRelatedOutput, RelatedItem } from './types.js';
import type { ReadRelatedInput } from './types.js';
import type { CallScope } from '../../source/callScope.js';
import type { ToolArgs } from '../defineTool.js';
import { pageOf, resumeListing } from '../../source/cursor.js';
import { relatedOf, relationFields } from '../../source/relatedOf.js';
import type { SourceState } from '../../source/state.js';

/** Every related item of a page, in the spec's order (the order of the relation table). */
export function relatedItems(
  state: SourceState,
  scope: CallScope,
  fileId: string,
  from = 0,
  to = Number.MAX_SAFE_INTEGER,
): { items: RelatedItem[]; total: number } {
  const { relations } = relatedOf(state, scope, fileId);
  const items: RelatedItem[] = [];
  for (let i = from; i < Math.min(to, relations.length); i++) {
    const r = relations[i]!;
    // Onto the relation's fields with `Object.assign`: properties after a leading spread are slow
    // to add in V8.
    items.push(
      Object.assign(relationFields(state, r), {
        reason: r.reason,
        contentAvailable: true as const,
        sectionId: r.sectionId,
      }),
    );
  }
  return { items, total: relations.length };
}

/** `read_related`: one page of a page's related files. */
export function readRelated(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<ReadRelatedInput>,
): ReadRelatedOutput {
  // The cursor first: after a change, a page that is gone is a stale cursor, not a missing page.
  const resumed = resumeListing(scope, state.cursors, state.table.activeContentRevision, args, {
    fileId: '',
    limit: 20,
  });
  const { fileId, limit } = resumed.binding.params;
  const { relations } = relatedOf(state, scope, fileId);
  const { from, to, nextCursor } = pageOf(scope, state.cursors, resumed, relations.length, limit);
  return { fileId, items: relatedItems(state, scope, fileId, from, to).items, nextCursor };
}
