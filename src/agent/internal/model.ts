/**
 * Internal contracts between the parts of a catalog source: the file table (files/), relationships
 * (relations/), the search engine (search/) and the source that ties them together (source/).
 * Nothing here is exported from a package entry.
 */
import type {
  ActiveContentRevision,
  EvidenceType,
  JsonObject,
  MatchedField,
  RelationDirection,
  RelationType,
  RerankerSafeCode,
  SearchMode,
  SemanticSafeCode,
  StageStatus,
} from '../types.js';

/** A page: one catalog document. Deep-frozen. */
export interface PageRecord {
  readonly kind: 'page';
  /** The document ID. */
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly description: string | null;
  readonly frontmatter: JsonObject;
  /** `frontmatter.tags`, or `[]`. */
  readonly tags: readonly string[];
  readonly revision: string;
  readonly locale: string | null;
}

/** A navigation file (`index.md`, `_graph/by-file/<fileId>.json`). Deep-frozen. */
export interface NavRecord {
  readonly kind: 'index' | 'graph';
  /** Equal to `path`. */
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly description: string;
  /** For a graph file, the page it describes; else `null`. */
  readonly pageId: string | null;
}

export type FileRecord = PageRecord | NavRecord;

/** A directory of the file tree. */
export interface DirectoryRecord {
  /** `""` for the root; no leading or trailing `/`. */
  readonly path: string;
  /** Last path segment (`""` for the root). */
  readonly name: string;
  /** Files below it, at any depth. */
  readonly fileCount: number;
}

/** Every file of a source, with lookups. Built once by `buildFileTable`; immutable. */
export interface FileTable {
  readonly activeContentRevision: ActiveContentRevision;
  /** Pages in path order (code-point order). */
  readonly pages: readonly PageRecord[];
  /** Every file, pages and navigation files, in path order. */
  readonly files: readonly FileRecord[];
  byId(fileId: string): FileRecord | undefined;
  byPath(path: string): FileRecord | undefined;
  /** A directory by its path (`""` is the root), or `undefined`. */
  directory(path: string): DirectoryRecord | undefined;
  /** Direct children of a directory: directories, then files, each in code-point order of their names. */
  children(
    path: string,
  ):
    | { readonly directories: readonly DirectoryRecord[]; readonly files: readonly FileRecord[] }
    | undefined;
  /** Up to `n` existing file IDs closest to `fileId` (for `NOT_FOUND` messages). */
  closestIds(fileId: string, n: number): readonly string[];
  /** Up to `n` existing file paths closest to `path`. */
  closestPaths(path: string, n: number): readonly string[];
}

/** One relationship of a page, seen from that page. */
export interface RelationRecord {
  readonly fileId: string;
  readonly relationType: RelationType;
  readonly direction: RelationDirection;
  readonly weight: number;
  readonly reason: string;
  readonly sectionId: string | null;
}

/** Relationships of every page, each list in the spec's order (weight, type, path). */
export interface RelationTable {
  /** A page's relationships, or `undefined` for a file that is not a page. Computed on first use, then kept. */
  get(fileId: string): readonly RelationRecord[] | undefined;
}

/** One ranked search candidate, before paging and before the file fields are added. */
export interface RankedFile {
  readonly fileId: string;
  readonly score: number;
  readonly matchedFields: readonly MatchedField[];
  readonly evidenceTypes: readonly EvidenceType[];
  readonly sourceExcerpt: string;
  readonly sectionIds: readonly string[];
}

/** What the engine returns for one query: every candidate, ranked. */
export interface SearchOutcome {
  readonly hits: readonly RankedFile[];
  readonly semanticStatus: StageStatus<SemanticSafeCode>;
  readonly rerankerStatus: StageStatus<RerankerSafeCode>;
}

/** A validated search request (defaults applied, `query` trimmed). */
export interface SearchRequest {
  readonly query: string;
  readonly mode: SearchMode;
  readonly graphDepth: number;
  readonly graphFanout: number;
  readonly rerank: boolean;
  readonly signal: AbortSignal | undefined;
}

/** The search engine of one source. */
export interface SearchEngine {
  /** Build the index and the section vectors; idempotent, shared by concurrent callers. */
  warm(signal?: AbortSignal): Promise<void>;
  /**
   * Rank every candidate for `request`. Rejects only with `KnowledgeToolError`
   * (`SEARCH_UNAVAILABLE`, `SEARCH_TIMEOUT`).
   */
  search(request: SearchRequest): Promise<SearchOutcome>;
}
