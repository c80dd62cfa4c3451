/**
 * The agent layer's one internal entry, for the package's own transports, stores and apps
 * (`src/http`, `src/mcp`, `src/postgres`, `src/cli`): the tool registry and what they derive from it,
 * and the source kit a stored source is built from. Not a package export, so it may
 * change with them; everything public comes from `./index.ts`. `test/layers.test.ts` allows other
 * layers these two entries and nothing else of the agent layer.
 *
 * @module
 */
export type { ParamKind } from './tools/args.js';
export { looseBoolean, looseInteger } from './tools/args.js';
export type { ResponseShape, ToolDefinition, ToolRouteSpec } from './tools/defineTool.js';
export {
  KNOWLEDGE_TOOLS,
  type KnowledgeRouteId,
  type KnowledgeToolRegistry,
} from './tools/registry.js';
export { missingSourceMethod } from './tools/sourceMethods.js';
export { registryTools } from './tools/knowledgeTools.js';
export { MAX_QUERY_CODE_POINTS } from './tools/searchFiles/definition.js';

// The source kit: the building blocks of the catalog source, for another `KnowledgeSource` that
// answers with the same code (`src/postgres`), so its outputs cannot drift from the catalog source's.
export type { DirectoryRecord, FileRecord, FileTable, RelationRecord } from './model.js';
export { buildFileTable } from './files/buildFileTable.js';
export { pageHeadings } from './files/pageHeadings.js';
export { renderIndexMarkdown } from './files/renderIndexMarkdown.js';
export { buildRelations } from './relations/buildRelations.js';
export { linkCountsOf } from './source/createCatalogSource.js';
export { linkRootProblem, readLinkRoot } from './relations/index.js';
export { searchCorpus } from './search/catalogCorpus.js';
export { type CallScope, openScope } from './source/callScope.js';
export { type CursorSigner, cursorKeyProblem, cursorSigner } from './source/cursorKey.js';
export { encodeCursor, resumeCall } from './source/cursor.js';
export { computeSectionSizes } from './source/sectionSizes.js';
export {
  buildTermRows,
  CONTENT_STRIDE,
  scopeFieldsOf,
  FIELD_STRIDE,
  type TermEntry,
  type TermRow,
  type TermRows,
  type TermStats,
  type TermStore,
  type TermStorePage,
  type TermStoreRelation,
  type TermStoreSemanticPage,
} from './search/index.js';
export { type StoredPage, storedTable } from './source/storedState.js';
export { createStoredSource } from './source/createStoredSource.js';
export {
  type PageWant,
  type RevisionWant,
  RevisionGone,
  type StoreCall,
  type StoreListing,
  type StoreNavFile,
  type StoreRead,
  type StoreRevision,
  type StoreSearch,
} from './source/storeReader.js';
export { buildChunks, buildVectors, chunkPlace } from './search/index.js';
export { embeddingCacheCheck } from './search/embeddingCache.js';

// Static bundles: what `knowledge-kit/node`'s export writes (`docs/static.md`).
export {
  BUNDLE_FORMAT,
  BUNDLE_PATHS,
  buildKnowledgeBundle,
  type BundleManifest,
  type EarlierExport,
  type KnowledgeBundleOptions,
  parseVersionsFile,
  versionBundleDir,
  versionsFileText,
  VERSIONS_PATH,
  type BundleVersionEntry,
} from './static/index.js';
export {
  diffSources,
  type KnowledgePageChange,
  type KnowledgePartChanges,
  type KnowledgeVersionDiff,
} from './versions/diffSources.js';
export { versionLabelProblem } from './versions/label.js';
// The command line's versions of folders (src/cli/versions.ts, openVersions.ts).
export { DEFAULT_VERSION_LABEL } from './versions/label.js';
export { versionNotFound, type VersionListed } from './versions/versionNotFound.js';
export { versionView } from './versions/createVersionedSource.js';
