import type { FileRecord } from '../../model.js';
import type { GetFileOutput } from './types.js';
import type { GetFileInput } from './types.js';
import type { CallScope } from '../../source/callScope.js';
import type { ToolArgs } from '../defineTool.js';
import { cloneJson } from '../../../shared/cloneJson.js';
import { fileActions } from '../../source/readActions.js';
import { statusFields } from '../../source/fileStatus.js';
import { versionFields } from '../../source/versionOf.js';
import type { SourceState } from '../../source/state.js';
import { pageOutline } from './headings.js';

/** The file with ID `fileId`, or `NOT_FOUND` offering the closest IDs. */
export function findById(state: SourceState, scope: CallScope, fileId: string): FileRecord {
  const file = state.table.byId(fileId);
  if (file !== undefined) return file;
  const close = state.table.closestIds(fileId, 3);
  throw scope.fail(
    'NOT_FOUND',
    `\`${scope.tool}\`: no file has the ID \`${fileId}\`.${close.length > 0 ? ` Close IDs: ${close.map((id) => `\`${id}\``).join(', ')}.` : ''} Use an ID returned by \`search_files\`, \`list_tree\` or \`read_related\`.`,
  );
}

/**
 * The fields a file's record opens with, in `get_file` and in `read_file`'s `file`: the revision and
 * version answering, then the file's IDs (a navigation file has no `sourceFileId`), path and title.
 */
export function fileHeader(
  state: SourceState,
  file: FileRecord,
): Pick<
  GetFileOutput,
  'activeContentRevision' | 'version' | 'publishedAt' | 'fileId' | 'sourceFileId' | 'path' | 'title'
> {
  return {
    activeContentRevision: state.table.activeContentRevision,
    ...versionFields(state),
    fileId: file.fileId,
    sourceFileId: file.kind === 'page' ? file.fileId : null,
    path: file.path,
    title: file.title,
  };
}

/** `get_file`: a file's metadata, its read actions and (for pages) its sections and headings with their sizes. */
export function getFile(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<GetFileInput>,
): GetFileOutput {
  const file = findById(state, scope, args['fileId'] as string);
  const revision = state.table.activeContentRevision;
  const page = file.kind === 'page';
  // Onto the header with `Object.assign`: properties after a leading spread are slow to add in V8.
  return Object.assign(fileHeader(state, file), {
    fileKind: file.kind === 'unavailable' ? ('page' as const) : file.kind,
    // An unavailable file has no text to describe: its description says why it cannot be read.
    description: file.kind === 'unavailable' ? `Not available: ${file.problem}` : file.description,
    frontmatter: page ? cloneJson(file.frontmatter) : {},
    ...statusFields(file),
    readActions: fileActions(scope.actionBase, file),
    revision: page ? file.revision : revision,
    locale: page ? file.locale : null,
    sections: page ? state.sectionSizes(file.fileId).map((s) => ({ ...s })) : [],
    headings: page
      ? pageOutline(state, file.fileId).headings.map((h) => ({
          id: h.id,
          text: h.text,
          depth: h.depth,
          chars: h.end - h.start,
        }))
      : [],
  });
}
