/**
 * The ground of the agent layer: JSON values and the record shapes every room shares (file kinds and
 * states, read actions, the call context, relationship kinds, the search vocabulary, the options of
 * a page, the embedder and reranker). It imports nothing, so every room may import it without a
 * cycle. Each tool's input and output types live beside it (`tools/<tool>/types.ts`); the
 * `KnowledgeSource` interface and the tool definitions beside the registry (`tools/`); the options of
 * `createCatalogSource` beside it (`source/`). Every output is plain JSON the caller owns.
 *
 * @module
 */
/** A JSON value, as tool inputs and outputs carry them. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** The knowledge base's content version: `options.revision`, or a digest of every document and file record. */
export type ActiveContentRevision = string | number;

/**
 * One version of a knowledge base, as the root `list_tree` lists it (`versions`): its label, whether
 * a call naming no version answers from it, the revision it serves and when that was published.
 */
export interface KnowledgeVersionInfo {
  /** The label to pass as `version`, such as `3.x` (`current` for a source that names none). */
  readonly version: string;
  /** Whether a call without `version` answers from this version. */
  readonly default: boolean;
  /** The content revision this version serves. */
  readonly activeContentRevision: ActiveContentRevision;
  /** When that revision was published (a store) or loaded (a folder), ISO 8601. */
  readonly publishedAt: string;
}

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

// ---------------------------------------------------------------------------------------------------
// Relationships (read_related and expand_graph)

/** Kinds of relationship between pages. */
export type RelationType = 'links_to' | 'linked_from' | 'shared_tag';

/** Which way a relationship points, seen from the file asked about. */
export type RelationDirection = 'outgoing' | 'incoming';

// ---------------------------------------------------------------------------------------------------
// The search vocabulary (search_files and the search port)

/** The three search modes. */
export type SearchMode = 'hybrid' | 'file' | 'graph';

/** A field a lexical match was found in. */
export type MatchedField = 'title' | 'path' | 'description' | 'tags' | 'content';

/** Why a candidate was returned. */
export type EvidenceType = 'content' | 'metadata' | 'semantic' | 'graph';

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

// ---------------------------------------------------------------------------------------------------
// Tool definitions

/** A JSON Schema (the draft 2020-12 subset that OpenAI strict mode, Anthropic and MCP all accept). */
export type JsonSchema = JsonObject;
