/**
 * The issue of a folder's file at a place, as every placed problem of `./node` reads: its `file`,
 * `line` and `column`, and a message that starts with `file:line:column`.
 *
 * @module
 */
import type { KnowledgeErrorCode, KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';

/**
 * An issue at `at` in `file`.
 *
 * @param code - the issue's code.
 * @param file - the file's path in the folder.
 * @param at - where in the file.
 * @param text - what is wrong and the fix, after the place.
 * @param documentId - the document the file holds, when its ID is known.
 * @returns the issue, its message `file:line:column: text`.
 */
export function fileIssue(
  code: KnowledgeErrorCode,
  file: string,
  at: KnowledgePosition,
  text: string,
  documentId?: string,
): KnowledgeIssue {
  const { line, column } = at;
  return {
    code,
    file,
    line,
    column,
    ...(documentId === undefined ? {} : { documentId }),
    message: `${file}:${line}:${column}: ${text}`,
  };
}
