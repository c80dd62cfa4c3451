/**
 * Knowledge Kit on Node: load a folder of Markdown (with YAML front matter) into a catalog and page
 * records, watch it for changes, export a knowledge source as a static bundle, and keep search's chunk vectors in a file (`openEmbeddingCache`). Built only on the public API; the core never imports it.
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
export { exportKnowledgeBundle, exportKnowledgeDirectory } from './exportKnowledgeBundle.js';
export { exportKnowledgeVersions } from './exportKnowledgeVersions.js';
export type { ExportedKnowledgeVersions } from './exportKnowledgeVersions.js';
export type {
  ExportedKnowledgeBundle,
  ExportKnowledgeBundleOptions,
  ExportKnowledgeDirectoryOptions,
} from './exportKnowledgeBundle.js';
export { readBundleDirectory } from './readBundleDirectory.js';
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
