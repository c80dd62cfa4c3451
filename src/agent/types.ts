/**
 * The shared data shapes of the agent layer: JSON values, read actions, the call context, the
 * `KnowledgeSource` interface, the options of `createCatalogSource` and tool definitions. Each tool's
 * own input and output types live beside it (`tools/<tool>/types.ts`) and are re-exported here. Every
 * output is plain JSON the caller owns.
 *
 * @module
 */
import type { KnowledgeToolErrorBody } from './errors/codes.js';
import type { ExpandGraphInput, ExpandGraphOutput } from './tools/expandGraph/types.js';
import type { GetFileInput, GetFileOutput } from './tools/getFile/types.js';
import type { ListTreeInput, ListTreeOutput } from './tools/listTree/types.js';
import type { ReadFileInput, ReadFileOutput } from './tools/readFile/types.js';
import type { ReadRelatedInput, ReadRelatedOutput } from './tools/readRelated/types.js';
import type { SearchFilesInput, SearchFilesOutput } from './tools/searchFiles/types.js';
import type { Bm25fEngineOptions } from './search/createBm25fEngine.js';
import type { SearchEngineFactory, SearchWarmProgress } from './search/port.js';

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
 * Whether a file's content can be read (seed 002): `available` (its current or previous version is
 * served) or `unavailable` (no version of it loaded cleanly).
 */
export type KnowledgeFileState = 'available' | 'unavailable';

/**
 * Which version of a file is served (seed 002): `current_available` (the file as it is now),
 * `previous_available` (its newest version has problems; the last good one is served), `unavailable`
 * (none is). Navigation files and published content are always `current_available`.
 */
export type KnowledgeGeneratedOutputStatus =
  'current_available' | 'previous_available' | 'unavailable';

/** A file of a source that cannot be served: listed by `list_tree` and `get_file`, refused by reads. */
export interface KnowledgeUnavailableFile {
  /** Its file ID: not a document ID of the catalog nor a navigation file's. */
  readonly fileId: string;
  /** Its path under `pages/`, as a page's (`pages/guide/setup.md`). */
  readonly path: string;
  /** Why it cannot be served, in the author's terms (the file, the place, the fix). */
  readonly problem: string;
}

/**
 * Per-file availability of a source whose files load one by one (a watched folder): which documents
 * are served from an earlier version, and which files are not served at all.
 */
export interface KnowledgeFileStatusOptions {
  /** Documents served from their last good version, by document ID: the problem of the newest one. */
  readonly previous?: { readonly [documentId: string]: string } | undefined;
  /** Files with no version to serve. */
  readonly unavailable?: readonly KnowledgeUnavailableFile[] | undefined;
}

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

/** The context of `KnowledgeSource.warm`: a call's context, and a listener for the build's progress. */
export interface KnowledgeWarmContext extends KnowledgeCallContext {
  /**
   * Called now and then while the search index is built (`done` of `total`, in the engine's units: the
   * default engine counts pages), never after `warm()` settles. `serve` and `mcp` print it on stderr.
   */
  readonly onProgress?: ((progress: SearchWarmProgress) => void) | undefined;
}

// ---------------------------------------------------------------------------------------------------
// Relationships (read_related and expand_graph)

/** Kinds of relationship between pages. */
export type RelationType = 'links_to' | 'linked_from' | 'shared_tag';

/** Which way a relationship points, seen from the file asked about. */
export type RelationDirection = 'outgoing' | 'incoming';

// ---------------------------------------------------------------------------------------------------
// The tools' wire types, each beside its tool (`tools/<tool>/types.ts`)

export type {
  ListTreeInput,
  ListTreeOutput,
  TreeDirectoryItem,
  TreeFileItem,
} from './tools/listTree/types.js';
export type { FileSectionInfo, GetFileInput, GetFileOutput } from './tools/getFile/types.js';
export type {
  ContentRange,
  ReadFileInput,
  ReadFileOutput,
  ReadFileRecord,
  ReadSelection,
} from './tools/readFile/types.js';
export type {
  EvidenceType,
  MatchedField,
  NextAction,
  RerankerSafeCode,
  SearchFilesInput,
  SearchFilesOutput,
  SearchItem,
  SearchMode,
  SemanticSafeCode,
  StageStatus,
} from './tools/searchFiles/types.js';
export type {
  ReadRelatedInput,
  ReadRelatedOutput,
  RelatedItem,
} from './tools/readRelated/types.js';
export type {
  ExpandGraphInput,
  ExpandGraphOutput,
  GraphRelationship,
} from './tools/expandGraph/types.js';

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
  /**
   * Build what the first search would build (the search index, section vectors), in slices that keep
   * the process answering. Until it resolves, `searchFiles` waits for it at most a second, then
   * answers `SEARCH_UNAVAILABLE` with `retryAfterSeconds` (every other method answers as usual); await
   * it before serving to never refuse a search. Without a `warm()`, the first search builds the index and waits for it.
   * Optional for remote sources.
   */
  warm?(context?: KnowledgeWarmContext): Promise<void>;
}

/** Names of the tools, as the seed writes them: derived from the registry (`tools/registry.ts`). */
export type { KnowledgeToolName } from './tools/registry.js';

// ---------------------------------------------------------------------------------------------------
// Options

/**
 * What a site-root link's `/` stands for. A page directory: with `'pages'`, `/learn/state` is the page
 * `pages/learn/state.md`. Or `{ dir, base }` when the pages of `dir` are served under the site path
 * `base`: with `{ dir: 'pages', base: '/learn/' }`, `/learn/state` is `pages/state.md` and `/blog/x`
 * is no page. Either way `.html` and `.htm` name the `.md` page of the same name, a path ending in
 * `/` its `index.md`, and a path without extension the `.md` page or the folder's `index.md`. A link
 * that names no page is counted, never guessed at.
 */
export type KnowledgeLinkRoot = string | { readonly dir: string; readonly base: string };

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
   * The secret that signs cursors (HMAC-SHA256), at least 16 bytes: give replicas behind one URL the
   * same key so each accepts the others' cursors. Default: a random key per process, which every
   * source in it shares. Keep it secret: who knows it can forge cursors (though only for what the
   * caller may read anyway).
   */
  readonly cursorKey?: string | Uint8Array | undefined;
  /**
   * What a site-root link's `/` stands for, as docs sites write links (`/learn/state`,
   * `/guide/essentials/list.html`, `/api/#ref`). Default `''`: the root of page paths.
   * See `KnowledgeLinkRoot`; `loadKnowledgeDirectory` gives the value for a folder.
   */
  readonly linkRoot?: KnowledgeLinkRoot | undefined;
  /**
   * Per-file availability (`state`, `generatedOutputStatus` of `list_tree` and `get_file`): documents
   * served from a previous version, and files that cannot be served. Default: every document current.
   * `loadKnowledgeFiles` (`knowledge-kit/node`) gives it for a folder.
   */
  readonly fileStatus?: KnowledgeFileStatusOptions | undefined;
  /**
   * The search engine behind `search_files`, as a factory the source calls once with its corpus.
   * Default `createBm25fEngine()`. Cannot be combined with the deprecated engine options below.
   */
  readonly search?: SearchEngineFactory | undefined;
  /** @deprecated Engine option: pass `search: createBm25fEngine({ excerptChars })`. */
  readonly excerptChars?: Bm25fEngineOptions['excerptChars'];
  /** @deprecated Engine option: pass `search: createBm25fEngine({ embedder })`. */
  readonly embedder?: Bm25fEngineOptions['embedder'];
  /** @deprecated Engine option: pass `search: createBm25fEngine({ semanticTimeoutMs })`. */
  readonly semanticTimeoutMs?: Bm25fEngineOptions['semanticTimeoutMs'];
  /** @deprecated Engine option: pass `search: createBm25fEngine({ reranker })`. */
  readonly reranker?: Bm25fEngineOptions['reranker'];
  /** @deprecated Engine option: pass `search: createBm25fEngine({ rerankTopK })`. */
  readonly rerankTopK?: Bm25fEngineOptions['rerankTopK'];
  /** @deprecated Engine option: pass `search: createBm25fEngine({ rerankTimeoutMs })`. */
  readonly rerankTimeoutMs?: Bm25fEngineOptions['rerankTimeoutMs'];
  /** @deprecated Engine option: pass `search: createBm25fEngine({ searchTimeoutMs })`. */
  readonly searchTimeoutMs?: Bm25fEngineOptions['searchTimeoutMs'];
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
  | { readonly isError: true; readonly structuredContent: KnowledgeToolErrorBody };

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
