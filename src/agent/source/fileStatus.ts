/**
 * A file's availability as `list_tree` and `get_file` report it (seed 002), and the `NOT_FOUND` of a
 * read of a file that is listed but not served.
 */
import type { FileRecord, UnavailableRecord } from '../model.js';
import type { KnowledgeFileState, KnowledgeGeneratedOutputStatus } from '../types.js';
import type { CallScope } from './callScope.js';

/** `contentAvailable`, `state` and `generatedOutputStatus` of a file. */
export function statusFields(file: FileRecord): {
  contentAvailable: boolean;
  state: KnowledgeFileState;
  generatedOutputStatus: KnowledgeGeneratedOutputStatus;
} {
  if (file.kind === 'unavailable')
    return { contentAvailable: false, state: 'unavailable', generatedOutputStatus: 'unavailable' };
  return {
    contentAvailable: true,
    state: 'available',
    generatedOutputStatus: file.kind === 'page' ? file.status : 'current_available',
  };
}

/** The `NOT_FOUND` for reading a file that is listed but has no version to serve. */
export function unavailableError(
  scope: CallScope,
  file: UnavailableRecord,
): ReturnType<CallScope['fail']> {
  return scope.fail(
    'NOT_FOUND',
    `\`${scope.tool}\`: \`${file.path}\` is listed but cannot be read: no version of it loaded cleanly (\`generatedOutputStatus: "unavailable"\`). Its problem: ${file.problem} Read another page, or ask the knowledge base's authors to fix the file.`,
  );
}
