import type { KnowledgeSelection } from '../../types.js';
import type { FileRecord } from '../internal/model.js';
import type { ReadFileOutput, ReadSelection } from '../types.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { type CallScope, toToolError } from './callScope.js';
import { findById } from './getFile.js';
import { unavailableError } from './fileStatus.js';
import { cloneJson } from '../../internal/cloneJson.js';
import { fileActions } from './readActions.js';
import { readInput } from './readInput.js';
import { readFileTool } from '../tools/readFile/definition.js';
import { countCodePoints as codePoints } from '../../internal/codePoints.js';
import type { SourceState } from './state.js';

/**
 * The most `sectionIds` one `read_file` call takes. More is refused before any is looked up, so a
 * request's cost stays bounded whatever the page; reading that many sections one by one is rarely
 * what an agent wants (a `subtree` read of their parent, or the whole page, is).
 */
export const MAX_READ_SECTION_IDS = 1_000;

/** The file at `path`: `INVALID_ARGUMENT` for a directory, `NOT_FOUND` offering the closest paths. */
function findByPath(state: SourceState, scope: CallScope, path: string): FileRecord {
  const file = state.table.byPath(path);
  if (file !== undefined) return file;
  if (state.table.directory(path) !== undefined) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`read_file\`: \`${path}\` is a directory. List it with \`list_tree\` { parentPath: ${JSON.stringify(path)} }.`,
    );
  }
  const close = state.table.closestPaths(path, 3);
  throw scope.fail(
    'NOT_FOUND',
    `\`read_file\`: no file has the path \`${path}\`.${close.length > 0 ? ` Close paths: ${close.map((p) => `\`${p}\``).join(', ')}.` : ''} Read \`index.md\` or call \`list_tree\` to see what exists.`,
  );
}

/** The `CONTENT_TOO_LARGE` error, listing the top-level sections and their sizes so the agent can choose. */
function tooLarge(
  state: SourceState,
  scope: CallScope,
  file: FileRecord,
  actual: number,
  limit: number,
) {
  let advice: string;
  if (file.kind === 'page') {
    const top = state.sectionSizes(file.fileId).filter((s) => s.depth === 1);
    advice =
      top.length > 0
        ? ` Read it by \`sectionIds\` instead. Top-level sections (subtree size in characters): ${top
            .slice(0, 40)
            .map((s) => `\`${s.id}\` ${s.subtreeChars}`)
            .join(
              ', ',
            )}${top.length > 40 ? `, and ${top.length - 40} more (see \`get_file\`)` : ''}.`
        : ' It has no sections to read separately; raise `maxChars` only if the budget allows, or use the search excerpt to decide whether it is worth it.';
  } else {
    advice = ' Use `list_tree` to walk the files in pages instead.';
  }
  return scope.fail(
    'CONTENT_TOO_LARGE',
    `\`read_file\`: \`${file.path}\` is ${actual} characters (Unicode code points), over the limit of ${limit}. Nothing was cut.${advice}`,
    { actual, limit },
  );
}

/** `read_file`: a page read through the catalog (a citable snapshot), or a navigation file's text. */
export function readFile(state: SourceState, scope: CallScope, input: unknown): ReadFileOutput {
  const args = readInput(scope, input, readFileTool.rules);
  const fileId = args['fileId'] as string | undefined;
  const path = args['path'] as string | undefined;
  if ((fileId === undefined) === (path === undefined)) {
    throw scope.fail('INVALID_ARGUMENT', '`read_file` takes exactly one of `fileId` and `path`.');
  }
  const sectionIds = args['sectionIds'] as string[] | undefined;
  if (sectionIds !== undefined && sectionIds.length > MAX_READ_SECTION_IDS) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`read_file\`: \`sectionIds\` has ${sectionIds.length} IDs, over the limit of ${MAX_READ_SECTION_IDS} per call. Read their parent section with \`mode: "subtree"\`, or split the IDs over several calls.`,
      { actual: sectionIds.length, limit: MAX_READ_SECTION_IDS },
    );
  }
  const mode = args['mode'] as 'self' | 'subtree' | undefined;
  if (mode !== undefined && sectionIds === undefined) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      '`read_file`: `mode` applies only with `sectionIds`. Omit `mode` to read the whole file.',
    );
  }
  const file =
    fileId !== undefined ? findById(state, scope, fileId) : findByPath(state, scope, path!);
  if (file.kind === 'unavailable') throw unavailableError(scope, file);
  const requested = args['maxChars'] as number | undefined;
  const limit = Math.min(requested ?? Number.MAX_SAFE_INTEGER, state.maxReadChars);
  const revision = state.table.activeContentRevision;
  const page = file.kind === 'page';
  const record = {
    activeContentRevision: revision,
    fileId: file.fileId,
    sourceFileId: page ? file.fileId : null,
    path: file.path,
    title: file.title,
    frontmatter: page ? cloneJson(file.frontmatter) : {},
    readActions: fileActions(scope.actionBase, file),
    revision: page ? file.revision : revision,
    locale: page ? file.locale : null,
    selection: null as ReadSelection | null,
    snapshotId: null as string | null,
  };

  if (file.kind !== 'page') {
    if (sectionIds !== undefined) {
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`read_file\`: \`${file.path}\` is a navigation file and has no sections. Omit \`sectionIds\`.`,
      );
    }
    const content = state.navText(file.fileId);
    const size = codePoints(content);
    if (size > limit) throw tooLarge(state, scope, file, size, limit);
    return { file: record, content };
  }

  const selection: KnowledgeSelection =
    sectionIds === undefined ? { mode: 'document' } : { mode: mode ?? 'subtree', sectionIds };
  // No maxChars here, so the catalog's own default still applies; our smaller limit is checked below.
  let snapshot;
  try {
    snapshot = state.catalog.read({ documentId: file.fileId, selection });
  } catch (error) {
    const issue = isKnowledgeError(error) ? error.issues[0] : undefined;
    if (issue?.code === 'MAX_CHARS_EXCEEDED')
      throw tooLarge(state, scope, file, issue.actual ?? 0, issue.limit ?? 0);
    if (issue?.code === 'UNKNOWN_SECTION') {
      const mapped = toToolError(scope, error);
      throw scope.fail(
        'NOT_FOUND',
        `${mapped.message} Call \`get_file\` { fileId: ${JSON.stringify(file.fileId)} } to list its sections.`,
        mapped.details,
      );
    }
    throw error;
  }
  const size = snapshot.content.length > limit ? codePoints(snapshot.content) : 0;
  if (size > limit) throw tooLarge(state, scope, file, size, limit);
  const copy: ReadSelection =
    snapshot.selection.mode === 'document'
      ? { mode: 'document' }
      : { mode: snapshot.selection.mode, sectionIds: [...snapshot.selection.sectionIds] };
  record.selection = copy;
  record.snapshotId = snapshot.id;
  return { file: record, content: snapshot.content };
}
