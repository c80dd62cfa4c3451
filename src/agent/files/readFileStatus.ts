/**
 * Checks `options.fileStatus` of `createCatalogSource` (which documents are served from a previous
 * version, which files are not served at all) and reads it into plain data.
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { isWellFormed } from '../../shared/codePoints.js';
import { pagePathProblem } from '../../shared/pagePath.js';
import { describe, isPlainObject } from '../../shared/values.js';
import type { KnowledgeCatalog } from '../../types.js';
import type { KnowledgeUnavailableFile } from '../types.js';

const API = 'createCatalogSource';

/** `fileStatus`, checked: problems of documents served from a previous version, and unserved files. */
export interface FileStatus {
  readonly previous: ReadonlyMap<string, string>;
  readonly unavailable: readonly KnowledgeUnavailableFile[];
}

/**
 * Reads `fileStatus`, pushing an `INVALID_INPUT` issue per problem onto `issues`: not a plain object,
 * a `previous` key that is not a document of the catalog or a value that is not a string, an
 * `unavailable` entry that is not `{ fileId, path, problem }` strings. Collisions of an unavailable
 * file's ID or path with other files are found with the file table's.
 *
 * @param catalog - the catalog, whose IDs `previous` names.
 * @param value - `options.fileStatus`.
 * @param issues - where problems go.
 * @returns the checked status; empty when `value` is `undefined` or invalid.
 */
export function readFileStatus(
  catalog: KnowledgeCatalog,
  value: unknown,
  issues: KnowledgeIssue[],
): FileStatus {
  const previous = new Map<string, string>();
  const unavailable: KnowledgeUnavailableFile[] = [];
  if (value === undefined) return { previous, unavailable };
  if (!isPlainObject(value)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['fileStatus'],
      message: `${API}: \`options.fileStatus\` is ${describe(value)}; pass \`{ previous?, unavailable? }\` (as \`loadKnowledgeFiles\` gives it) or leave it out.`,
    });
    return { previous, unavailable };
  }
  for (const key of Object.keys(value)) {
    if (key === 'previous' || key === 'unavailable') continue;
    issues.push({
      code: 'INVALID_INPUT',
      path: ['fileStatus', key],
      message: `${API}: \`options.fileStatus.${key}\` is not an option; \`fileStatus\` takes \`previous\` and \`unavailable\`.`,
    });
  }
  const prev = value['previous'];
  if (prev !== undefined && !isPlainObject(prev)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['fileStatus', 'previous'],
      message: `${API}: \`options.fileStatus.previous\` is ${describe(prev)}; pass a plain object from document ID to the problem of its newest version.`,
    });
  } else if (prev !== undefined) {
    const known = new Set(catalog.ids);
    for (const [id, problem] of Object.entries(prev)) {
      if (!known.has(id)) {
        issues.push({
          code: 'INVALID_INPUT',
          documentId: id,
          path: ['fileStatus', 'previous', id],
          message: `${API}: \`options.fileStatus.previous\` names the document \`${id}\`, which is not in the catalog. Remove the entry or fix its key.`,
        });
      } else if (typeof problem !== 'string') {
        issues.push({
          code: 'INVALID_INPUT',
          documentId: id,
          path: ['fileStatus', 'previous', id],
          message: `${API}: \`options.fileStatus.previous[${JSON.stringify(id)}]\` is ${describe(problem)}; pass the problem of the document's newest version as a string.`,
        });
      } else previous.set(id, problem);
    }
  }
  const list = value['unavailable'];
  if (list !== undefined && !Array.isArray(list)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['fileStatus', 'unavailable'],
      message: `${API}: \`options.fileStatus.unavailable\` is ${describe(list)}; pass an array of \`{ fileId, path, problem }\`.`,
    });
  } else if (list !== undefined) {
    (list as unknown[]).forEach((entry, i) => {
      const at = ['fileStatus', 'unavailable', i];
      const record = isPlainObject(entry) ? entry : undefined;
      const fileId = record?.['fileId'];
      const path = record?.['path'];
      const problem = record?.['problem'];
      if (typeof fileId !== 'string' || typeof path !== 'string' || typeof problem !== 'string') {
        issues.push({
          code: 'INVALID_INPUT',
          path: at,
          message: `${API}: \`options.fileStatus.unavailable[${i}]\` is ${describe(entry)}; pass \`{ fileId, path, problem }\`, three strings.`,
        });
        return;
      }
      const why =
        fileId === ''
          ? 'has an empty `fileId`'
          : !isWellFormed(fileId)
            ? 'has a `fileId` holding a lone surrogate, which no URL can carry'
            : pagePathProblem(path) !== undefined
              ? `has the path ${JSON.stringify(path)}, which ${pagePathProblem(path)!}`
              : undefined;
      if (why !== undefined) {
        issues.push({
          code: 'INVALID_INPUT',
          path: at,
          message: `${API}: \`options.fileStatus.unavailable[${i}]\` ${why}. Fix the entry.`,
        });
        return;
      }
      unavailable.push(Object.freeze({ fileId, path, problem }));
    });
  }
  return { previous, unavailable };
}
