/** Types of `knowledge-kit/node`. */
import type {
  KnowledgeFileOptions,
  KnowledgeFileStatusOptions,
  KnowledgeGeneratedOutputStatus,
  KnowledgeLinkRoot,
} from '../agent/index.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import type { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeCatalog, KnowledgeDocument } from '../types.js';

/** Options of `loadKnowledgeDirectory` and `watchKnowledgeDirectory`. */
export interface LoadKnowledgeDirectoryOptions {
  /** Globs, relative to the folder, that a file must match (default: every `.md` file); only `.md` files load. */
  readonly include?: readonly string[] | undefined;
  /** Globs of files or folders to leave out, besides `node_modules` and dot folders, which are always left out. */
  readonly exclude?: readonly string[] | undefined;
  /** The catalog's default `maxChars` for reads. */
  readonly maxChars?: number | undefined;
  /**
   * Follow symbolic links whose real target is inside the folder (default `false`: no link is
   * followed). Either way nothing outside the folder's real path is read, only regular files are, and
   * each link or special file refused is a `REFUSED_FILE` problem.
   */
  readonly followLinks?: boolean | undefined;
  /**
   * The folder a site-root link's `/` stands for (`/learn/state`, `/guide/list.html`), as a path or a
   * `file:` URL: the folder itself (the default), a folder inside it, or one that holds it (the docs
   * site's root). Gives the result's `linkRoot`.
   */
  readonly linkRoot?: string | URL | undefined;
  /**
   * The largest file read, in bytes (default 64 MiB = 67,108,864; at most 536,870,888, the longest
   * string JavaScript holds). A larger file is a `REFUSED_FILE` problem of that file (with `actual`
   * and `limit`), never read; the other files load.
   */
  readonly maxFileBytes?: number | undefined;
}

/** What `loadKnowledgeDirectory` resolves to. Everything is frozen. */
export interface LoadedKnowledgeDirectory {
  /** The compiled catalog of every document. */
  readonly catalog: KnowledgeCatalog;
  /** The parsed documents, in path order. */
  readonly documents: readonly KnowledgeDocument[];
  /** Page records by document ID: pass as `createCatalogSource(catalog, { files })`. */
  readonly files: { readonly [documentId: string]: KnowledgeFileOptions };
  /** The folder, as an absolute path. */
  readonly directory: string;
  /** Each document's file, relative to `directory` and `/`-separated, by document ID. */
  readonly paths: { readonly [documentId: string]: string };
  /** What a site-root link's `/` stands for: pass as `createCatalogSource(catalog, { files, linkRoot })`. */
  readonly linkRoot: KnowledgeLinkRoot;
  /**
   * When the folder was loaded (ISO 8601; each reload of a watch its own): pass as
   * `createCatalogSource(catalog, { files, linkRoot, publishedAt })`, whose outputs then say when
   * their content was loaded.
   */
  readonly publishedAt: string;
  /**
   * Warnings, sorted by file, line and column: problems that leave every page available, each an
   * issue with `file`, line and column (today `INVALID_FRONT_MATTER` for a key Knowledge Kit reads
   * whose value has a type it cannot use: the page loads without that key). Never thrown.
   */
  readonly warnings: readonly KnowledgeIssue[];
}

/** What `watchKnowledgeDirectory` reports after each reload. */
export type KnowledgeDirectoryChange =
  | { readonly ok: true; readonly loaded: LoadedKnowledgeDirectory }
  | { readonly ok: false; readonly error: KnowledgeError };

/** Options of `watchKnowledgeDirectory`: the loader's, and the quiet time before a reload. */
export interface WatchKnowledgeDirectoryOptions extends LoadKnowledgeDirectoryOptions {
  /** Milliseconds without a change before reloading. Default 100. */
  readonly debounceMs?: number | undefined;
}

/** A running watch. */
export interface KnowledgeDirectoryWatcher {
  /** The last directory that loaded cleanly: the first load, or the newest good reload. */
  readonly current: LoadedKnowledgeDirectory;
  /** Stops watching; a reload in progress finishes, but reports nothing. */
  close(): Promise<void>;
}

/** One Markdown file of a folder loaded file by file (`loadKnowledgeFiles`): which version is served. */
export interface KnowledgeFileLoadStatus {
  /**
   * `current_available` (the file as it is on disk is served), `previous_available` (it has problems
   * now; the version of the previous load is served) or `unavailable` (no version is).
   */
  readonly generatedOutputStatus: KnowledgeGeneratedOutputStatus;
  /** The ID of the document served for it; absent when `unavailable`. */
  readonly documentId?: string;
  /** The ID under which an `unavailable` file is listed (its path without `.md` when free). */
  readonly fileId?: string;
  /** The problems of its newest version, each with `file`, line and column; `[]` when current. */
  readonly issues: readonly KnowledgeIssue[];
}

/**
 * What `loadKnowledgeFiles` resolves to: the documents that can be served (current or previous
 * versions), and every file's status. Everything is frozen.
 */
export interface LoadedKnowledgeFiles extends LoadedKnowledgeDirectory {
  /** Every Markdown file read, by path relative to `directory` (`/`-separated). */
  readonly status: { readonly [file: string]: KnowledgeFileLoadStatus };
  /**
   * Every problem of the folder as it is on disk, sorted by file, line and column: what
   * `loadKnowledgeDirectory` would throw (also links refused, which are not listed in `status`).
   * Empty when every file is `current_available`.
   */
  readonly issues: readonly KnowledgeIssue[];
  /** Pass as `createCatalogSource(catalog, { files, fileStatus })`. */
  readonly fileStatus: KnowledgeFileStatusOptions;
}

/** What `watchKnowledgeFiles` reports after each reload. */
export type KnowledgeFilesChange =
  | { readonly ok: true; readonly loaded: LoadedKnowledgeFiles }
  | { readonly ok: false; readonly error: KnowledgeError };

/** A running file-by-file watch (`watchKnowledgeFiles`). */
export interface KnowledgeFilesWatcher {
  /** The newest load: what is served, and every file's status. */
  readonly current: LoadedKnowledgeFiles;
  /** Stops watching; a reload in progress finishes, but reports nothing. */
  close(): Promise<void>;
}
