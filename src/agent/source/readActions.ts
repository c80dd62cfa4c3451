/**
 * `readActions`: URL paths of the HTTP routes (`shared/spec/http.md`) relative to the knowledge base,
 * prefixed with the action base, with path segments and query values percent-encoded.
 */
import type { FileRecord } from '../internal/model.js';
import type { KnowledgeReadActions } from '../types.js';

const enc = encodeURIComponent;

/** The read actions of a file: four keys for a page, the two content keys for a navigation file. */
export function fileActions(base: string, file: FileRecord): KnowledgeReadActions {
  const byId = `${base}/files/${enc(file.fileId)}/content`;
  const byPath = `${base}/files/content?path=${enc(file.path)}`;
  if (file.kind !== 'page') return { fileContentById: byId, fileContentByPath: byPath };
  return {
    fileContentById: byId,
    fileContentByPath: byPath,
    relatedFilesById: `${base}/files/${enc(file.fileId)}/related`,
    graphExpansionByFileId: `${base}/graph/expand?fileId=${enc(file.fileId)}`,
  };
}

/** The read action of a directory. */
export function directoryActions(base: string, path: string): KnowledgeReadActions {
  return { treeByParentPath: `${base}/tree?parentPath=${enc(path)}` };
}
