/**
 * The wire types of `get_file`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type {
  ActiveContentRevision,
  JsonObject,
  KnowledgeFileKind,
  KnowledgeReadActions,
} from '../../types.js';

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
