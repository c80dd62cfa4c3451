/**
 * The catalog source's data model: the records of the file table (`files/`), relationships
 * (`relations/`) and the source that ties them together (`source/`). Internal: nothing here is
 * exported from a package entry (the package's own stored sources get it from `internals.ts`); the
 * public shapes are `types.ts`, the search engine's contract is `search/port.ts`.
 *
 * @module
 */
import type { SearchCorpusPage, SearchRelation } from './search/port.js';
import type { ActiveContentRevision } from './types.js';

/** A page: one catalog document (the file fields search sees, and more). Deep-frozen. */
export interface PageRecord extends SearchCorpusPage {
  readonly kind: 'page';
  /** The document's revision. */
  readonly revision: string;
  /** `previous_available` when the newest version of its file has problems (`fileStatus.previous`). */
  readonly status: 'current_available' | 'previous_available';
}

/**
 * A file listed but not served (`fileStatus.unavailable`): no version of it loaded cleanly. Reads of
 * it are `NOT_FOUND`, with `problem`. Deep-frozen.
 */
export interface UnavailableRecord {
  readonly kind: 'unavailable';
  readonly fileId: string;
  readonly path: string;
  /** Its file name. */
  readonly title: string;
  /** Why it is not served. */
  readonly problem: string;
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

export type FileRecord = PageRecord | NavRecord | UnavailableRecord;

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

/** One relationship of a page, seen from that page: the search port's `SearchRelation`. */
export type RelationRecord = SearchRelation;

/** Relationships of every page, each list in the spec's order (weight, type, path). */
export interface RelationTable {
  /** A page's relationships, or `undefined` for a file that is not a page. Computed on first use, then kept. */
  get(fileId: string): readonly RelationRecord[] | undefined;
}
