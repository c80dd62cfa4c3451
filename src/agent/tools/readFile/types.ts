/**
 * The wire types of `read_file`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type { ActiveContentRevision, JsonObject, KnowledgeReadActions } from '../../types.js';

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
