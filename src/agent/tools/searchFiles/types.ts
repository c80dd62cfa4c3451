/**
 * The wire types of `search_files`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type {
  ActiveContentRevision,
  EvidenceType,
  JsonObject,
  KnowledgeReadActions,
  MatchedField,
  RerankerSafeCode,
  SearchMode,
  SemanticSafeCode,
  StageStatus,
} from '../../types.js';

/** Input of `search_files`. */
export interface SearchFilesInput {
  /**
   * The complete standalone question: 1..2,000 code points after trimming. Required without `cursor`;
   * with one, the cursor's (a query given beside it must equal it).
   */
  readonly query?: string | null | undefined;
  readonly mode?: SearchMode | null | undefined;
  /** 1..3, default 1. */
  readonly graphDepth?: number | null | undefined;
  /** 1..50, default 10. */
  readonly graphFanout?: number | null | undefined;
  readonly rerank?: boolean | null | undefined;
  readonly cursor?: string | null | undefined;
  /** 1..50, default 10. */
  readonly limit?: number | null | undefined;
  /**
   * Only pages whose path starts with this prefix or one of these (1 to 20), written as the tools
   * write paths: `pages/guide/`. Bound into the cursor.
   */
  readonly pathPrefix?: string | readonly string[] | null | undefined;
  /** Only pages whose front matter `tags` hold this tag, or every one of these (1 to 20). */
  readonly tags?: string | readonly string[] | null | undefined;
  /** Only pages of this locale, such as `en`. */
  readonly locale?: string | null | undefined;
  /**
   * The version to answer from (a label such as `3.x`); absent or `null` for the default version. A
   * label the knowledge base does not have is `VERSION_NOT_FOUND`, never another version's answer.
   */
  readonly version?: string | null | undefined;
}

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
  /**
   * The innermost heading whose range holds the best match (for `read_file` `heading`); the excerpt
   * comes from its range. `null` when the match comes before the page's first heading, or when the
   * page matched by its metadata only.
   */
  readonly heading: { readonly id: string; readonly text: string } | null;
}

/** A suggested next call, given when search finds nothing. */
export interface NextAction {
  readonly tool: 'read_file' | 'list_tree';
  readonly input: JsonObject;
  readonly reason: string;
}

/** Output of `search_files`. */
export interface SearchFilesOutput {
  readonly activeContentRevision: ActiveContentRevision;
  /** The version this answer is from (`current` for a source that names none). */
  readonly version: string;
  /** When this revision was published (a store) or loaded (a folder), ISO 8601. */
  readonly publishedAt: string;
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
