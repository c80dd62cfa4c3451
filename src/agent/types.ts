/**
 * The data shapes of the agent layer: the six tools' inputs and outputs (the seed's shapes, with the
 * additions of `shared/spec/agent.md`), the `KnowledgeSource` interface, and the options of
 * `createCatalogSource`. Every output is plain JSON the caller owns.
 *
 * @module
 */
import type { MiniSearchEngineOptions } from './search/createMiniSearchEngine.js';
import type { SearchEngineFactory } from './search/port.js';

/** A JSON value, as tool inputs and outputs carry them. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** The knowledge base's content version: `options.revision`, or a digest of every document and file record. */
export type ActiveContentRevision = string | number;

/** Where a file is a page (answer evidence) or a navigation file (discovery only). */
export type KnowledgeFileKind = 'page' | 'index' | 'graph';

/**
 * URL paths of the HTTP routes (`shared/spec/http.md`) that serve a record, relative to the knowledge
 * base and prefixed with the action base. Pages carry the four file keys, navigation files the two content
 * keys, directories only `treeByParentPath`.
 */
export interface KnowledgeReadActions {
  /** `/files/{fileId}/content` */
  readonly fileContentById?: string;
  /** `/files/content?path={path}` */
  readonly fileContentByPath?: string;
  /** `/files/{fileId}/related` */
  readonly relatedFilesById?: string;
  /** `/graph/expand?fileId={fileId}` */
  readonly graphExpansionByFileId?: string;
  /** `/tree?parentPath={path}` */
  readonly treeByParentPath?: string;
}

/** Per-call context: every source method takes it as an optional second argument. */
export interface KnowledgeCallContext {
  /** Aborts the call (the HTTP handler's time limit, an agent's cancel). */
  readonly signal?: AbortSignal | undefined;
  /** The caller's request ID, echoed in errors; else a fresh `req-<uuid>`. */
  readonly requestId?: string | undefined;
  /** Prefix of every `readActions` value (the HTTP handler passes its knowledge-base path). */
  readonly actionBase?: string | undefined;
  /** The knowledge base cursors are bound to; else `options.id`, else `''`. */
  readonly knowledgeBaseId?: string | undefined;
}

// ---------------------------------------------------------------------------------------------------
// list_tree

/** Input of `list_tree`. `null` means absent for every optional field. */
export interface ListTreeInput {
  /** Directory to list: `""` (the root) or a path without leading or trailing `/`. Default `""`. */
  readonly parentPath?: string | null | undefined;
  /** `nextCursor` of the previous page, with the same other parameters. */
  readonly cursor?: string | null | undefined;
  /** 1..200, default 50. */
  readonly limit?: number | null | undefined;
}

/** A file in a `list_tree` listing. */
export interface TreeFileItem {
  readonly fileId: string;
  readonly sourceFileId: string | null;
  readonly path: string;
  readonly title: string;
  readonly entryType: 'file';
  readonly fileKind: KnowledgeFileKind;
  readonly contentAvailable: true;
  readonly readActions: KnowledgeReadActions;
}

/** A directory in a `list_tree` listing. */
export interface TreeDirectoryItem {
  readonly path: string;
  /** The directory's name (last path segment). */
  readonly title: string;
  readonly entryType: 'directory';
  /** Files below it, at any depth. */
  readonly fileCount: number;
  readonly readActions: KnowledgeReadActions;
}

/** Output of `list_tree`. */
export interface ListTreeOutput {
  readonly activeContentRevision: ActiveContentRevision;
  readonly items: readonly (TreeDirectoryItem | TreeFileItem)[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}

// ---------------------------------------------------------------------------------------------------
// get_file

/** Input of `get_file`. */
export interface GetFileInput {
  readonly fileId: string;
}

/** A section of a page with the sizes a read would return, so an agent can choose within its budget. */
export interface FileSectionInfo {
  readonly id: string;
  /** `null` at top level. */
  readonly parentId: string | null;
  /** 1 at top level. */
  readonly depth: number;
  /** Code points of a `self` read of this section. */
  readonly selfChars: number;
  /** Code points of a `subtree` read of this section. */
  readonly subtreeChars: number;
}

/** Output of `get_file`. */
export interface GetFileOutput {
  readonly activeContentRevision: ActiveContentRevision;
  readonly fileId: string;
  readonly sourceFileId: string | null;
  readonly path: string;
  readonly title: string;
  readonly fileKind: KnowledgeFileKind;
  readonly description: string | null;
  readonly frontmatter: JsonObject;
  readonly contentAvailable: true;
  readonly readActions: KnowledgeReadActions;
  /** The document's revision (pages), else the source's `activeContentRevision`. */
  readonly revision: ActiveContentRevision;
  readonly locale: string | null;
  /** Sections in source order; `[]` for navigation files. */
  readonly sections: readonly FileSectionInfo[];
}

// ---------------------------------------------------------------------------------------------------
// read_file

/** Input of `read_file`: exactly one of `fileId` and `path`. */
export interface ReadFileInput {
  readonly fileId?: string | null | undefined;
  readonly path?: string | null | undefined;
  /** Read these sections only (pages). */
  readonly sectionIds?: readonly string[] | null | undefined;
  /** With `sectionIds`: `self` (own text) or `subtree` (with descendants). Default `subtree`. */
  readonly mode?: 'self' | 'subtree' | null | undefined;
  /** Largest content accepted, in code points; over it the read fails with `CONTENT_TOO_LARGE`. */
  readonly maxChars?: number | null | undefined;
}

/** What a page read selected: the snapshot's selection. */
export type ReadSelection =
  | { readonly mode: 'document' }
  | { readonly mode: 'self' | 'subtree'; readonly sectionIds: readonly string[] };

/** The `file` record of a `read_file` output. */
export interface ReadFileRecord {
  readonly activeContentRevision: ActiveContentRevision;
  readonly fileId: string;
  readonly sourceFileId: string | null;
  readonly path: string;
  readonly title: string;
  readonly frontmatter: JsonObject;
  readonly readActions: KnowledgeReadActions;
  readonly revision: ActiveContentRevision;
  readonly locale: string | null;
  /** `null` for navigation files. */
  readonly selection: ReadSelection | null;
  /** The snapshot's `id`, which the agent cites; `null` for navigation files. */
  readonly snapshotId: string | null;
}

/** Output of `read_file`: the seed's `{ file, content }`. */
export interface ReadFileOutput {
  readonly file: ReadFileRecord;
  readonly content: string;
}

// ---------------------------------------------------------------------------------------------------
// search_files

/** The three search modes. */
export type SearchMode = 'hybrid' | 'file' | 'graph';

/** Input of `search_files`. */
export interface SearchFilesInput {
  /** The complete standalone question: 1..2,000 code points after trimming. */
  readonly query: string;
  readonly mode?: SearchMode | null | undefined;
  /** 1..3, default 1. */
  readonly graphDepth?: number | null | undefined;
  /** 1..50, default 10. */
  readonly graphFanout?: number | null | undefined;
  readonly rerank?: boolean | null | undefined;
  readonly cursor?: string | null | undefined;
  /** 1..50, default 10. */
  readonly limit?: number | null | undefined;
}

/** A field a lexical match was found in. */
export type MatchedField = 'title' | 'path' | 'description' | 'tags' | 'content';

/** Why a candidate was returned. */
export type EvidenceType = 'content' | 'metadata' | 'semantic' | 'graph';

/** A search candidate: a page to read, not evidence. */
export interface SearchItem {
  readonly fileId: string;
  readonly sourceFileId: string;
  readonly path: string;
  readonly title: string;
  readonly description: string | null;
  /** Positive, higher is better, comparable within one response. */
  readonly score: number;
  readonly matchedFields: readonly MatchedField[];
  readonly evidenceTypes: readonly EvidenceType[];
  /** The source's own words around the strongest match; `…` marks each cut. */
  readonly sourceExcerpt: string;
  readonly contentAvailable: true;
  readonly readActions: KnowledgeReadActions;
  /** Up to 3 best-matching sections, best first; `[]` when the match is in the document's own text or metadata. */
  readonly sectionIds: readonly string[];
}

/** State of the semantic or reranking stage. */
export interface StageStatus<Code extends string> {
  readonly state: 'ready' | 'disabled' | 'skipped' | 'unavailable';
  readonly safeCode: Code | null;
}

/** Safe codes of `semanticStatus`. */
export type SemanticSafeCode =
  'SEMANTIC_DISABLED' | 'SEMANTIC_NOT_USED' | 'SEMANTIC_UNAVAILABLE' | 'SEMANTIC_TIMEOUT';

/** Safe codes of `rerankerStatus`. */
export type RerankerSafeCode = 'RERANKER_DISABLED' | 'RERANKER_UNAVAILABLE' | 'RERANKER_TIMEOUT';

/** A suggested next call, given when search finds nothing. */
export interface NextAction {
  readonly tool: 'read_file' | 'list_tree';
  readonly input: JsonObject;
  readonly reason: string;
}

/** Output of `search_files`. */
export interface SearchFilesOutput {
  readonly activeContentRevision: ActiveContentRevision;
  readonly items: readonly SearchItem[];
  readonly searchStatus: 'ok' | 'no_candidates';
  readonly searchMode: SearchMode;
  readonly semanticStatus: StageStatus<SemanticSafeCode>;
  readonly rerankerStatus: StageStatus<RerankerSafeCode>;
  readonly message: string | null;
  readonly nextActions: readonly NextAction[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}

// ---------------------------------------------------------------------------------------------------
// read_related and expand_graph

/** Kinds of relationship between pages. */
export type RelationType = 'links_to' | 'linked_from' | 'shared_tag';

/** Which way a relationship points, seen from the file asked about. */
export type RelationDirection = 'outgoing' | 'incoming';

/** Input of `read_related`. */
export interface ReadRelatedInput {
  readonly fileId: string;
  readonly cursor?: string | null | undefined;
  /** 1..50, default 20. */
  readonly limit?: number | null | undefined;
}

/** A related page. */
export interface RelatedItem {
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly relationType: RelationType;
  readonly direction: RelationDirection;
  /** In `[0, 1]`: links 1, shared tags the Jaccard index of the two tag sets. */
  readonly weight: number;
  /** The relationship in words. */
  readonly reason: string;
  readonly contentAvailable: true;
  /** The section a link's `#fragment` names, else `null`. */
  readonly sectionId: string | null;
}

/** Output of `read_related`. */
export interface ReadRelatedOutput {
  readonly fileId: string;
  readonly items: readonly RelatedItem[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}

/** Input of `expand_graph`. */
export interface ExpandGraphInput {
  readonly fileId: string;
  /** 1..3, default 1. */
  readonly depth?: number | null | undefined;
  /** 1..50, default 10. */
  readonly fanout?: number | null | undefined;
  readonly cursor?: string | null | undefined;
}

/** A relationship reached by `expand_graph`. */
export interface GraphRelationship {
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly relationType: RelationType;
  readonly direction: RelationDirection;
  readonly weight: number;
  readonly readActions: KnowledgeReadActions;
  /** Hops from the seed, from 1. */
  readonly depth: number;
  /** The file this relationship was found from. */
  readonly viaFileId: string;
}

/** Output of `expand_graph`. */
export interface ExpandGraphOutput {
  readonly activeContentRevision: ActiveContentRevision;
  readonly seedFile: { readonly fileId: string; readonly path: string };
  readonly relationships: readonly GraphRelationship[];
  /** `_graph/by-file/…` files of the files expanded. */
  readonly graphPaths: readonly string[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}

// ---------------------------------------------------------------------------------------------------
// The source

/**
 * The one read interface behind the tools, the MCP server, the HTTP handler and exploration. Every
 * method rejects only with `KnowledgeToolError`.
 */
export interface KnowledgeSource {
  listTree(input?: ListTreeInput, context?: KnowledgeCallContext): Promise<ListTreeOutput>;
  getFile(input: GetFileInput, context?: KnowledgeCallContext): Promise<GetFileOutput>;
  readFile(input: ReadFileInput, context?: KnowledgeCallContext): Promise<ReadFileOutput>;
  searchFiles(input: SearchFilesInput, context?: KnowledgeCallContext): Promise<SearchFilesOutput>;
  readRelated(input: ReadRelatedInput, context?: KnowledgeCallContext): Promise<ReadRelatedOutput>;
  expandGraph(input: ExpandGraphInput, context?: KnowledgeCallContext): Promise<ExpandGraphOutput>;
  /** Build what the first search would build (the search index, section vectors). Optional for remote sources. */
  warm?(context?: KnowledgeCallContext): Promise<void>;
}

/** Names of the six tools, as the seed writes them. */
export type KnowledgeToolName =
  'search_files' | 'read_file' | 'list_tree' | 'get_file' | 'read_related' | 'expand_graph';

// ---------------------------------------------------------------------------------------------------
// Options

/** What an app says about one page; everything else comes from the text. */
export interface KnowledgeFileOptions {
  /** A normalized relative POSIX path under `pages/`, ending in `.md`. Default `pages/<documentId>.md`. */
  readonly path?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** A JSON object; `tags` is an array of strings. */
  readonly frontmatter?: JsonObject | undefined;
}

/** Turns section texts into vectors for semantic search. */
export interface KnowledgeEmbedder {
  embed(texts: string[], options: { readonly signal: AbortSignal }): Promise<ArrayLike<number>[]>;
}

/** Scores candidates against a query; higher is better. One score per candidate, in order. */
export interface KnowledgeReranker {
  rerank(
    query: string,
    candidates: { readonly fileId: string; readonly text: string }[],
    options: { readonly signal: AbortSignal },
  ): Promise<number[]>;
}

/** Options of `createCatalogSource`. */
export interface CatalogSourceOptions {
  /** The knowledge base's ID, which cursors are bound to when the call's context names none. */
  readonly id?: string | undefined;
  /** `activeContentRevision`; default a digest of every document and file record. */
  readonly revision?: string | number | undefined;
  /** Page paths, titles, descriptions and front matter, by document ID. */
  readonly files?:
    | { readonly [documentId: string]: KnowledgeFileOptions }
    | ((documentId: string) => KnowledgeFileOptions | undefined)
    | undefined;
  /** Prefix of `readActions` values when the call's context gives none. Default `''`. */
  readonly actionBase?: string | undefined;
  /** Largest `read_file` content, in code points. Default 20,000. */
  readonly maxReadChars?: number | undefined;
  /**
   * The search engine behind `search_files`, as a factory the source calls once with its corpus.
   * Default `createMiniSearchEngine()`. Cannot be combined with the deprecated engine options below.
   */
  readonly search?: SearchEngineFactory | undefined;
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ excerptChars })`. */
  readonly excerptChars?: MiniSearchEngineOptions['excerptChars'];
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ embedder })`. */
  readonly embedder?: MiniSearchEngineOptions['embedder'];
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ semanticTimeoutMs })`. */
  readonly semanticTimeoutMs?: MiniSearchEngineOptions['semanticTimeoutMs'];
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ reranker })`. */
  readonly reranker?: MiniSearchEngineOptions['reranker'];
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ rerankTopK })`. */
  readonly rerankTopK?: MiniSearchEngineOptions['rerankTopK'];
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ rerankTimeoutMs })`. */
  readonly rerankTimeoutMs?: MiniSearchEngineOptions['rerankTimeoutMs'];
  /** @deprecated Engine option: pass `search: createMiniSearchEngine({ searchTimeoutMs })`. */
  readonly searchTimeoutMs?: MiniSearchEngineOptions['searchTimeoutMs'];
}

// ---------------------------------------------------------------------------------------------------
// Tool definitions

/** A JSON Schema (the draft 2020-12 subset that OpenAI strict mode, Anthropic and MCP all accept). */
export type JsonSchema = JsonObject;

/** MCP-style hints: every knowledge tool only reads. */
export interface KnowledgeToolAnnotations {
  readonly readOnlyHint: true;
  readonly destructiveHint: false;
  readonly idempotentHint: true;
  readonly openWorldHint: false;
}

/** What `execute` and `callKnowledgeTool` resolve to: never a rejection. */
export type KnowledgeToolResult =
  | { readonly isError: false; readonly structuredContent: JsonObject }
  | { readonly isError: true; readonly structuredContent: KnowledgeToolErrorJson };

/** The seed's error shape, as a tool result carries it. */
export interface KnowledgeToolErrorJson {
  readonly [key: string]: JsonValue;
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly httpStatus: number;
    readonly retryAfterSeconds?: number;
  };
  readonly requestId: string;
}

/** Per-call options of `execute`. */
export interface KnowledgeToolCallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly requestId?: string | undefined;
}

/** One transport-neutral tool: name, schemas, policy in the description, and `execute`. Frozen. */
export interface KnowledgeToolDefinition {
  /** The seed's name, with the `prefix` option prepended. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations: KnowledgeToolAnnotations;
  /** Validates `input`, runs the tool, and resolves to a result; never throws or rejects. */
  execute(input: unknown, options?: KnowledgeToolCallOptions): Promise<KnowledgeToolResult>;
}
