import type { PageRecord, RelationRecord } from '../model.js';
import type { RelationDirection, RelationType } from '../types.js';
import type { CallScope } from './callScope.js';
import { findById } from '../tools/getFile/run.js';
import { unavailableError } from './fileStatus.js';
import type { SourceState } from './state.js';

/** The page `fileId` and its relationships; navigation files have none and are `INVALID_ARGUMENT`. */
export function relatedOf(
  state: SourceState,
  scope: CallScope,
  fileId: string,
): { page: PageRecord; relations: readonly RelationRecord[] } {
  const file = findById(state, scope, fileId);
  if (file.kind === 'unavailable') throw unavailableError(scope, file);
  if (file.kind !== 'page') {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`${scope.tool}\`: \`${file.path}\` is a navigation file; relationships are between pages. Pass the \`fileId\` of a page under \`pages/\`.`,
    );
  }
  return { page: file, relations: state.relations.get(file.fileId) ?? [] };
}

/** The fields every relationship item shares: the other page's ID, path and title, and the relation. */
export function relationFields(
  state: SourceState,
  r: RelationRecord,
): {
  fileId: string;
  path: string;
  title: string;
  relationType: RelationType;
  direction: RelationDirection;
  weight: number;
} {
  const other = state.table.byId(r.fileId)!;
  return {
    fileId: r.fileId,
    path: other.path,
    title: other.title,
    relationType: r.relationType,
    direction: r.direction,
    weight: r.weight,
  };
}
