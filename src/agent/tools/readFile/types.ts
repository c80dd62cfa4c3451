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
  /**
   * Read only this heading's range (an ID from `get_file` `headings`), from its line to the next
   * heading of the same or a higher level (pages; exclusive with `sectionIds`).
   */
  readonly heading?: string | null | undefined;
  /** With `sectionIds`: `self` (own text) or `subtree` (with descendants). Default `subtree`. */
  readonly mode?: 'self' | 'subtree' | null | undefined;
  /** The size of each part, in code points (at most the source's `maxReadChars`). */
  readonly maxChars?: number | null | undefined;
  /**
   * `nextCursor` of the previous part: the next part of the same read. Alone, it reads with the
   * arguments it was issued for; arguments given beside it must equal them.
   */
  readonly cursor?: string | null | undefined;
  /** All at once or nothing: over the limit, `CONTENT_TOO_LARGE` instead of a first part. */
  readonly whole?: boolean | null | undefined;
  /**
   * The version to answer from (a label such as `3.x`); absent or `null` for the default version. A
   * label the knowledge base does not have is `VERSION_NOT_FOUND`, never another version's answer.
   */
  readonly version?: string | null | undefined;
}

/** Which part of the selected text a read returned, in code points: `[start, end)` of `total`. */
export interface ContentRange {
  readonly start: number;
  readonly end: number;
  readonly total: number;
}

/** What a page read selected: the snapshot's selection. */
export type ReadSelection =
  | { readonly mode: 'document' }
  | { readonly mode: 'self' | 'subtree'; readonly sectionIds: readonly string[] };

/** The heading a `read_file { heading }` read, and where its range lies in the whole page. */
export interface ReadHeading {
  readonly id: string;
  readonly text: string;
  /** 1 to 6. */
  readonly depth: number;
  /** Where the range starts, in code points of the whole page's text (what a whole read returns). */
  readonly start: number;
  /** Where it ends (exclusive), in code points of the whole page's text. */
  readonly end: number;
}

/** The `file` record of a `read_file` output. */
export interface ReadFileRecord {
  readonly activeContentRevision: ActiveContentRevision;
  /** The version this answer is from (`current` for a source that names none). */
  readonly version: string;
  /** When this revision was published (a store) or loaded (a folder), ISO 8601. */
  readonly publishedAt: string;
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
  /** The snapshot's `id`, which the agent cites (of the whole selection, also for a part); `null` for navigation files. */
  readonly snapshotId: string | null;
  /**
   * Present on a `heading` read: the heading and its range in the whole page, whose snapshot
   * `snapshotId` names (with `selection` `document`).
   */
  readonly heading?: ReadHeading;
  /**
   * Present when the text was over the limit and this is one part of it (of a heading's range: in
   * code points of that range).
   */
  readonly contentRange?: ContentRange;
}

/**
 * Output of `read_file`: the seed's `{ file, content }`, and `nextCursor` (`null` when the content is
 * the whole selection or its last part). A part also has `file.contentRange` and a `message`.
 */
export interface ReadFileOutput {
  readonly file: ReadFileRecord;
  readonly content: string;
  readonly nextCursor: string | null;
  /** On a part: which part it is, how to go on, and the page's top-level sections when it has some. */
  readonly message?: string;
  /** Present (and `true`) only when a remote source restarted a stale cursor: this is the first part. */
  readonly cursorRestarted?: true;
}
