/**
 * Knowledge Kit for agents: a compiled catalog served as the seed's six read-only tools
 * (`search_files`, `read_file`, `list_tree`, `get_file`, `read_related`, `expand_graph`) over one
 * `KnowledgeSource`, with CJK-aware search, relationships from links and tags, and tool definitions
 * with JSON Schemas; each tool's input and output types. Imports no Node built-in. The adapters for
 * OpenAI, Anthropic, the AI SDK and LangChain are `knowledge-kit/agent/adapters`, the seed's bounded
 * exploration flow is `knowledge-kit/agent/exploration`, the MCP server is `knowledge-kit/mcp`.
 *
 * @example
 * ```ts
 * import { createCatalogSource, knowledgeTools, callKnowledgeTool } from 'knowledge-kit/agent';
 * const source = createCatalogSource(catalog, { files: { guide: { path: 'pages/guide.md' } } });
 * const tools = knowledgeTools(source);
 * const result = await callKnowledgeTool(tools, 'search_files', { query: 'How are renewal notices sent?' });
 * ```
 *
 * @module
 */
export { KNOWLEDGE_TOOL_ERROR_CODES, KNOWLEDGE_TOOL_ERROR_STATUS } from './errors/codes.js';
export type { KnowledgeToolErrorBody, KnowledgeToolErrorCode } from './errors/codes.js';
export { isKnowledgeToolError, KnowledgeToolError } from './errors/KnowledgeToolError.js';
export type { KnowledgeToolErrorOptions } from './errors/KnowledgeToolError.js';
export { createCatalogSource } from './source/createCatalogSource.js';
export { createStaticSource } from './static/createStaticSource.js';
export { createVersionedSource } from './versions/createVersionedSource.js';
export type {
  VersionedKnowledgeSource,
  VersionedSourceOptions,
} from './versions/createVersionedSource.js';
export { diffVersions } from './versions/diffVersions.js';
export type {
  KnowledgePageChange,
  KnowledgePartChanges,
  KnowledgeVersionDiff,
} from './versions/diffSources.js';
export type { StaticSourceOptions } from './static/createStaticSource.js';
export type { BundleFetchOptions, StaticBundleRead } from './static/bundleReader.js';
// What `knowledge-kit/node`'s export takes and returns; the bundle's other file formats are not API.
export type { BundleManifest } from './static/bundleFormat.js';
export type { KnowledgeBundleOptions } from './static/buildKnowledgeBundle.js';
export type { KnowledgeToolName } from './tools/registry.js';
export { tokenize } from './search/tokenize.js';
export { createBm25fEngine } from './search/createBm25fEngine.js';
export type { Bm25fEngineOptions } from './search/createBm25fEngine.js';
export type { KnowledgeEmbeddingCache } from './search/embeddingCache.js';
export type {
  SearchAnswer,
  SearchChunk,
  SearchChunkHeading,
  SearchCorpus,
  SearchCorpusPage,
  SearchEngine,
  SearchEngineFactory,
  SearchFilter,
  SearchFilterName,
  SearchHit,
  SearchHitHeading,
  SearchRelation,
  SearchRequest,
  SearchWarmProgress,
} from './search/port.js';
export {
  callKnowledgeTool,
  KNOWLEDGE_TOOL_NAMES,
  KNOWLEDGE_TOOL_SCHEMAS,
  knowledgeTools,
} from './tools/index.js';
export type { KnowledgeToolSchemas, KnowledgeToolsOptions } from './tools/index.js';
export type {
  ActiveContentRevision,
  EvidenceType,
  JsonObject,
  JsonSchema,
  JsonValue,
  KnowledgeCallContext,
  KnowledgeEmbedder,
  KnowledgeFileKind,
  KnowledgeFileOptions,
  KnowledgeLinkRoot,
  KnowledgeFileState,
  KnowledgeFileStatusOptions,
  KnowledgeGeneratedOutputStatus,
  KnowledgeUnavailableFile,
  KnowledgeReadActions,
  KnowledgeVersionInfo,
  KnowledgeReranker,
  MatchedField,
  RelationDirection,
  RelationType,
  RerankerSafeCode,
  SearchMode,
  SemanticSafeCode,
  StageStatus,
} from './types.js';
export type { CatalogSourceOptions } from './source/catalogSourceOptions.js';
export type {
  ContentRange,
  ReadFileInput,
  ReadFileOutput,
  ReadFileRecord,
  ReadHeading,
  ReadSelection,
} from './tools/readFile/types.js';
export type {
  ExpandGraphInput,
  ExpandGraphOutput,
  GraphRelationship,
} from './tools/expandGraph/types.js';
export type {
  FileHeadingInfo,
  FileSectionInfo,
  GetFileInput,
  GetFileOutput,
} from './tools/getFile/types.js';
export type { KnowledgeWarmContext, KnowledgeSource } from './tools/knowledgeSource.js';
export type {
  KnowledgeToolAnnotations,
  KnowledgeToolCallOptions,
  KnowledgeToolDefinition,
  KnowledgeToolResult,
} from './tools/knowledgeToolDefinition.js';
export type {
  ListTreeInput,
  ListTreeOutput,
  TreeDirectoryItem,
  TreeFileItem,
} from './tools/listTree/types.js';
export type {
  NextAction,
  SearchFilesInput,
  SearchFilesOutput,
  SearchItem,
} from './tools/searchFiles/types.js';
export type {
  ReadRelatedInput,
  ReadRelatedOutput,
  RelatedItem,
} from './tools/readRelated/types.js';
