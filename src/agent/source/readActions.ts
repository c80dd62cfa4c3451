/**
 * `readActions`: URL paths of the HTTP routes (`shared/spec/http.md`) relative to the knowledge base,
 * prefixed with the action base, with path segments and query values percent-encoded.
 */
import type { FileRecord } from '../model.js';
import type { KnowledgeReadActions } from '../types.js';

const enc = encodeURIComponent;

/** Built actions per action base and file: percent-encoding four URLs costs more than a small read. */
const built = new WeakMap<FileRecord, Map<string, KnowledgeReadActions>>();

/** The read actions of a file (a fresh object): four keys for a page, the two content keys for a navigation file. */
export function fileActions(base: string, file: FileRecord): KnowledgeReadActions {
  let byBase = built.get(file);
  if (byBase === undefined) built.set(file, (byBase = new Map()));
  let actions = byBase.get(base);
  if (actions === undefined) {
    actions = buildFileActions(base, file);
    // Bases come from the app's mount points; keep a handful per file, not one per hostile request.
    if (byBase.size < 8) byBase.set(base, actions);
  }
  return { ...actions };
}

function buildFileActions(base: string, file: FileRecord): KnowledgeReadActions {
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
