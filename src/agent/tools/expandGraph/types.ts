/**
 * The wire types of `expand_graph`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type {
  ActiveContentRevision,
  KnowledgeReadActions,
  RelationDirection,
  RelationType,
} from '../../types.js';

/** Input of `expand_graph`. */
export interface ExpandGraphInput {
  /** The seed page. Required without `cursor`; with one, the cursor's (one given beside it must equal it). */
  readonly fileId?: string | null | undefined;
  /** 1..3, default 1. */
  readonly depth?: number | null | undefined;
  /** 1..50, default 10. */
  readonly fanout?: number | null | undefined;
  readonly cursor?: string | null | undefined;
  /**
   * The version to answer from (a label such as `3.x`); absent or `null` for the default version. A
   * label the knowledge base does not have is `VERSION_NOT_FOUND`, never another version's answer.
   */
  readonly version?: string | null | undefined;
}

/** A relationship reached by `expand_graph`. */
export interface GraphRelationship {
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly relationType: RelationType;
  readonly direction: RelationDirection;
  readonly weight: number;
  readonly readActions: KnowledgeReadActions;
  /** Hops from the seed, from 1. */
  readonly depth: number;
  /** The file this relationship was found from. */
  readonly viaFileId: string;
}

/** Output of `expand_graph`. */
export interface ExpandGraphOutput {
  readonly activeContentRevision: ActiveContentRevision;
  /** The version this answer is from (`current` for a source that names none). */
  readonly version: string;
  /** When this revision was published (a store) or loaded (a folder), ISO 8601. */
  readonly publishedAt: string;
  readonly seedFile: { readonly fileId: string; readonly path: string };
  readonly relationships: readonly GraphRelationship[];
  /** `_graph/by-file/…` files of the files expanded. */
  readonly graphPaths: readonly string[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}
