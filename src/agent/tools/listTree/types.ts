/**
 * The wire types of `list_tree`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type {
  ActiveContentRevision,
  KnowledgeFileKind,
  KnowledgeFileState,
  KnowledgeGeneratedOutputStatus,
  KnowledgeReadActions,
  KnowledgeVersionInfo,
} from '../../types.js';

/** Input of `list_tree`. `null` means absent for every optional field. */
export interface ListTreeInput {
  /** Directory to list: `""` (the root) or a path without leading or trailing `/`. Default `""`. */
  readonly parentPath?: string | null | undefined;
  /** `nextCursor` of the previous page, with the same other parameters. */
  readonly cursor?: string | null | undefined;
  /** 1..200, default 50. */
  readonly limit?: number | null | undefined;
  /**
   * The version to answer from (a label such as `3.x`); absent or `null` for the default version. A
   * label the knowledge base does not have is `VERSION_NOT_FOUND`, never another version's answer.
   */
  readonly version?: string | null | undefined;
}

/** A file in a `list_tree` listing. */
export interface TreeFileItem {
  readonly fileId: string;
  readonly sourceFileId: string | null;
  readonly path: string;
  readonly title: string;
  readonly entryType: 'file';
  readonly fileKind: KnowledgeFileKind;
  /** `false` only for a file that is `unavailable`: listed, but no version of it can be read. */
  readonly contentAvailable: boolean;
  /** `available` when a version of the file is served (current or previous), else `unavailable`. */
  readonly state: KnowledgeFileState;
  /** Which version is served: `current_available`, `previous_available` or `unavailable`. */
  readonly generatedOutputStatus: KnowledgeGeneratedOutputStatus;
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
  /** The version this answer is from (`current` for a source that names none). */
  readonly version: string;
  /** When this revision was published (a store) or loaded (a folder), ISO 8601. */
  readonly publishedAt: string;
  /**
   * Only on the root listing (no `parentPath`, no `cursor`): every version of the knowledge base,
   * the default marked (a source without versions lists its one).
   */
  readonly versions?: readonly KnowledgeVersionInfo[];
  readonly items: readonly (TreeDirectoryItem | TreeFileItem)[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}
