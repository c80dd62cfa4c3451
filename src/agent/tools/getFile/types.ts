/**
 * The wire types of `get_file`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type {
  ActiveContentRevision,
  JsonObject,
  KnowledgeFileKind,
  KnowledgeFileState,
  KnowledgeGeneratedOutputStatus,
  KnowledgeReadActions,
} from '../../types.js';

/** Input of `get_file`. */
export interface GetFileInput {
  readonly fileId: string;
  /**
   * The version to answer from (a label such as `3.x`); absent or `null` for the default version. A
   * label the knowledge base does not have is `VERSION_NOT_FOUND`, never another version's answer.
   */
  readonly version?: string | null | undefined;
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

/** A heading of a page, with the size of a `read_file { heading }` read of it. */
export interface FileHeadingInfo {
  /** The heading's ID, to pass in `read_file` `heading`: its explicit ID, else its GitHub-style slug. */
  readonly id: string;
  /** Its text, ID syntax and inline markup removed. */
  readonly text: string;
  /** 1 to 6. */
  readonly depth: number;
  /** Code points of its range: from its line to the next heading of the same or a higher level. */
  readonly chars: number;
}

/** Output of `get_file`. */
export interface GetFileOutput {
  readonly activeContentRevision: ActiveContentRevision;
  /** The version this answer is from (`current` for a source that names none). */
  readonly version: string;
  /** When this revision was published (a store) or loaded (a folder), ISO 8601. */
  readonly publishedAt: string;
  readonly fileId: string;
  readonly sourceFileId: string | null;
  readonly path: string;
  readonly title: string;
  readonly fileKind: KnowledgeFileKind;
  readonly description: string | null;
  readonly frontmatter: JsonObject;
  /** `false` only for a file that is `unavailable`: listed, but no version of it can be read. */
  readonly contentAvailable: boolean;
  /** `available` when a version of the file is served (current or previous), else `unavailable`. */
  readonly state: KnowledgeFileState;
  /** Which version is served: `current_available`, `previous_available` or `unavailable`. */
  readonly generatedOutputStatus: KnowledgeGeneratedOutputStatus;
  readonly readActions: KnowledgeReadActions;
  /** The document's revision (pages), else the source's `activeContentRevision`. */
  readonly revision: ActiveContentRevision;
  readonly locale: string | null;
  /** Sections in source order; `[]` for navigation files. */
  readonly sections: readonly FileSectionInfo[];
  /** Every heading of the page outside code, in page order; `[]` for navigation files. */
  readonly headings: readonly FileHeadingInfo[];
}
