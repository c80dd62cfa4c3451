/**
 * Knowledge Kit on Node: load a folder of Markdown (with YAML front matter) into a catalog and page
 * records, watch it for changes, and keep search's chunk vectors in a file (`openEmbeddingCache`). Built only on the public API; the core never imports it.
 *
 * @example
 * ```ts
 * import { loadKnowledgeDirectory } from 'knowledge-kit/node';
 * const { catalog, files } = await loadKnowledgeDirectory('./knowledge');
 * ```
 *
 * @module
 */
/// <reference types="node" />
export { loadKnowledgeDirectory } from './loadKnowledgeDirectory.js';
export { loadKnowledgeFiles } from './loadKnowledgeFiles.js';
export { openEmbeddingCache } from './openEmbeddingCache.js';
export type { EmbeddingCacheOptions, FileEmbeddingCache } from './openEmbeddingCache.js';
export { watchKnowledgeDirectory, watchKnowledgeFiles } from './watchKnowledgeDirectory.js';
export type {
  KnowledgeDirectoryChange,
  KnowledgeDirectoryWatcher,
  KnowledgeFileLoadStatus,
  KnowledgeFilesChange,
  KnowledgeFilesWatcher,
  LoadedKnowledgeFiles,
  LoadedKnowledgeDirectory,
  LoadKnowledgeDirectoryOptions,
  WatchKnowledgeDirectoryOptions,
} from './types.js';
