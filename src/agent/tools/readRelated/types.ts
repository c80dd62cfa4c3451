/**
 * The wire types of `read_related`: its input and output, as the source takes and gives them.
 *
 * @module
 */
import type { RelationDirection, RelationType } from '../../types.js';

/** Input of `read_related`. */
export interface ReadRelatedInput {
  /** The page. Required without `cursor`; with one, the cursor's (one given beside it must equal it). */
  readonly fileId?: string | null | undefined;
  readonly cursor?: string | null | undefined;
  /** 1..50, default 20. */
  readonly limit?: number | null | undefined;
  /**
   * The version to answer from (a label such as `3.x`); absent or `null` for the default version. A
   * label the knowledge base does not have is `VERSION_NOT_FOUND`, never another version's answer.
   */
  readonly version?: string | null | undefined;
}

/** A related page. */
export interface RelatedItem {
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly relationType: RelationType;
  readonly direction: RelationDirection;
  /** In `[0, 1]`: links 1, shared tags the Jaccard index of the two tag sets. */
  readonly weight: number;
  /** The relationship in words. */
  readonly reason: string;
  readonly contentAvailable: true;
  /** The section a link's `#fragment` names, else `null`. */
  readonly sectionId: string | null;
}

/** Output of `read_related`. */
export interface ReadRelatedOutput {
  readonly fileId: string;
  readonly items: readonly RelatedItem[];
  readonly nextCursor: string | null;
  /**
   * Only from a remote source (`createKnowledgeClient`): `true` when the cursor given was stale and
   * this is the first page of the new revision instead.
   */
  readonly cursorRestarted?: true;
}
