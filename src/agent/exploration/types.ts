/**
 * The data shapes of an exploration session: the bounded, source-first flow of seed 002, enforced
 * (`shared/spec/agent.md`, "Exploration").
 *
 * @module
 */
import type { ActiveContentRevision, KnowledgeCallContext } from '../types.js';
import type {
  ContentRange,
  ReadFileInput,
  ReadFileOutput,
  ReadHeading,
  ReadSelection,
} from '../tools/readFile/types.js';
import type { ExpandGraphInput, ExpandGraphOutput } from '../tools/expandGraph/types.js';
import type { GetFileInput, GetFileOutput } from '../tools/getFile/types.js';
import type { ListTreeInput, ListTreeOutput } from '../tools/listTree/types.js';
import type { ReadRelatedInput, ReadRelatedOutput } from '../tools/readRelated/types.js';
import type { SearchFilesInput, SearchFilesOutput } from '../tools/searchFiles/types.js';

/** Options of `startExploration`. `null` means absent, as in every tool input. */
export interface ExplorationOptions {
  /** The user's complete standalone question: 1..2,000 code points after trimming. */
  readonly question: string;
  /** Follow-up searches allowed after the first one; a non-negative safe integer, default 2. */
  readonly maxFollowUps?: number | null | undefined;
  /** Reads allowed (pages and navigation files; repeats are free); a non-negative safe integer, default 12. */
  readonly maxReads?: number | null | undefined;
  /**
   * The version to explore (a label such as `3.x`): every call of the exploration names it, and a
   * call naming another is refused (`INVALID_ARGUMENT`). Absent or `null`: calls name none, so the
   * source's default version answers.
   */
  readonly version?: string | null | undefined;
}

/** Why the flow advises stopping; advice only, the budgets alone refuse calls. */
export type ExplorationStopReason = 'no_new_sources' | 'budget_exhausted';

/** The session's budgets and advice, a fresh object each time. */
export interface ExplorationStatus {
  /** Searches started (the first and the follow-ups; pages of one search with its `nextCursor` are not counted). */
  readonly searchesUsed: number;
  readonly followUpsLeft: number;
  /** Reads that cost budget (repeats are free). */
  readonly readsUsed: number;
  readonly readsLeft: number;
  /**
   * `budget_exhausted` once no follow-up or no read is left; else `no_new_sources` when the latest
   * search's candidates had all been read already (or there were none); else `null`. Always `null`
   * before the first search has succeeded.
   */
  readonly stopReason: ExplorationStopReason | null;
}

/** One page read in the session: what an answer may cite. */
export interface ExplorationEvidence {
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly revision: ActiveContentRevision;
  /** The snapshot's `id`, to cite. */
  readonly snapshotId: string;
  /** What was read: the whole document or sections. */
  readonly selection: ReadSelection;
  /** Present for a heading read: the heading and its range in the whole page (`selection` is `document`). */
  readonly heading?: ReadHeading;
  readonly content: string;
  /** Present when `content` is one part of the selection (a text over the limit): which part. */
  readonly contentRange?: ContentRange;
}

/** Which file to read: exactly one of `fileId` and `path`. */
export type ExplorationReadTarget =
  | { readonly fileId: string; readonly path?: null | undefined }
  | { readonly path: string; readonly fileId?: null | undefined };

/**
 * What part of the file to read, and the largest content accepted: the arguments of `read_file`
 * (`ReadFileInput`) but the ones naming the file, so the two cannot drift apart.
 */
export interface ExplorationReadOptions extends Omit<ReadFileInput, 'fileId' | 'path'> {}

/** Search parameters other than the query. */
export type ExplorationSearchOptions = Omit<SearchFilesInput, 'query'>;

/** A read's result: the source's output, and whether it repeated an earlier read of this session (free). */
export interface ExplorationReadOutput extends ReadFileOutput {
  readonly repeated: boolean;
}

/**
 * One bounded exploration over a `KnowledgeSource`. Every method rejects only with
 * `KnowledgeToolError`: the source's errors unchanged, and `EXPLORATION_LIMIT` (409) for a call the flow
 * forbids, with a message saying what to do instead.
 */
export interface ExplorationSession {
  /** The question, trimmed. */
  readonly question: string;
  /** Budgets used and left, and the stop advice; a fresh object each time. */
  readonly status: ExplorationStatus;
  /**
   * Search the source. The first search must be the question (`query` omitted, `null`, or equal to it
   * after trimming); each later one is a follow-up, allowed only after a new page was read since the
   * previous search, at most `maxFollowUps`. A `cursor` this session received as `nextCursor`, with the
   * same other parameters, continues its search and costs nothing.
   */
  search(
    query?: string | null,
    options?: ExplorationSearchOptions | null,
    context?: KnowledgeCallContext,
  ): Promise<SearchFilesOutput>;
  /**
   * Read a file after the first search. A repeat of a read of this session (by `fileId` or `path`, same
   * `sectionIds` and `mode`) returns the earlier result with `repeated: true` and costs nothing.
   */
  read(
    target: ExplorationReadTarget,
    options?: ExplorationReadOptions | null,
    context?: KnowledgeCallContext,
  ): Promise<ExplorationReadOutput>;
  /** The pages read, in read order, one entry per distinct page selection; never navigation files. Fresh objects. */
  evidence(): ExplorationEvidence[];
  /** `source.listTree` after the first search; free (discovery, not evidence). */
  listTree(input?: ListTreeInput, context?: KnowledgeCallContext): Promise<ListTreeOutput>;
  /** `source.getFile` after the first search; free (metadata to choose sections within the read budget). */
  getFile(input: GetFileInput, context?: KnowledgeCallContext): Promise<GetFileOutput>;
  /** `source.readRelated` after the first search; free (discovery, not evidence). */
  readRelated(input: ReadRelatedInput, context?: KnowledgeCallContext): Promise<ReadRelatedOutput>;
  /** `source.expandGraph` after the first search; free (discovery, not evidence). */
  expandGraph(input: ExpandGraphInput, context?: KnowledgeCallContext): Promise<ExpandGraphOutput>;
}
