/**
 * The bookkeeping of one exploration: budgets, reads, evidence and the stop advice. Synchronous, so a
 * check and its reservation happen in one turn of the event loop: two concurrent calls never both pass
 * a budget check. Calls in flight count as used; a failed call gives its reservation back.
 */
import type { KnowledgeCallContext } from '../types.js';
import type { ReadFileOutput } from '../tools/readFile/types.js';
import type { SearchFilesOutput } from '../tools/searchFiles/types.js';
import { explorationLimit, type ExplorationRule } from './explorationLimit.js';
import type { CheckedExplorationOptions } from './readExplorationOptions.js';
import {
  type ReadCall,
  type SearchCall,
  headingKeyOf,
  selectionKeyOf,
} from './readCallArguments.js';
import type { ExplorationEvidence, ExplorationStatus } from './types.js';
import { codePointLength } from './values.js';

/** A search in flight. */
export interface SearchTicket {
  readonly continuation: boolean;
  readonly paramsKey: string;
  readonly seq: number;
  readonly previousMark: number;
}

/** The state of one session. Not exported from the package. */
export class ExplorationLedger {
  readonly #options: CheckedExplorationOptions;
  #searchesDone = 0;
  #searchesPending = 0;
  #searchSeq = 0;
  /** Pages read when the latest search started: a follow-up needs more. */
  #pagesAtLastSearch = 0;
  #latestParamsKey = '';
  #latestAllRead = false;
  /** `nextCursor` values received → the parameters of their search. */
  readonly #cursors = new Map<string, string>();
  #readsDone = 0;
  #readsPending = 0;
  /** `fileId` + result selection → the first result. */
  readonly #results = new Map<string, ReadFileOutput>();
  /** `fileId` + requested selection → key of `#results`. */
  readonly #aliases = new Map<string, string>();
  readonly #pathToId = new Map<string, string>();
  /** Page `fileId`s read. */
  readonly #pages = new Set<string>();
  readonly #evidence: ExplorationEvidence[] = [];

  constructor(options: CheckedExplorationOptions) {
    this.#options = options;
  }

  /** Budgets and advice, fresh. */
  status(): ExplorationStatus {
    const { maxFollowUps, maxReads } = this.#options;
    const searchesUsed = this.#searchesDone + this.#searchesPending;
    const followUpsLeft = Math.max(0, maxFollowUps - Math.max(0, searchesUsed - 1));
    const readsUsed = this.#readsDone + this.#readsPending;
    const readsLeft = Math.max(0, maxReads - readsUsed);
    let stopReason: ExplorationStatus['stopReason'] = null;
    if (this.#searchesDone > 0) {
      if (followUpsLeft === 0 || readsLeft === 0) stopReason = 'budget_exhausted';
      else if (this.#latestAllRead) stopReason = 'no_new_sources';
    }
    return { searchesUsed, followUpsLeft, readsUsed, readsLeft, stopReason };
  }

  #refuse(rule: ExplorationRule, limit: number, context: KnowledgeCallContext | undefined): never {
    throw explorationLimit(rule, this.#options.question, this.status(), limit, context);
  }

  /** Check a search against the rules and reserve it. @throws `EXPLORATION_LIMIT` */
  beginSearch(call: SearchCall, context: KnowledgeCallContext | undefined): SearchTicket {
    const { question, maxFollowUps } = this.#options;
    if (typeof call.cursor === 'string' && this.#cursors.get(call.cursor) === call.paramsKey) {
      return {
        continuation: true,
        paramsKey: call.paramsKey,
        seq: this.#searchSeq,
        previousMark: this.#pagesAtLastSearch,
      };
    }
    const started = this.#searchesDone + this.#searchesPending;
    if (started === 0) {
      if (call.query !== question) this.#refuse('first_search_is_question', 0, context);
    } else {
      if (started - 1 >= maxFollowUps) this.#refuse('follow_ups_exhausted', maxFollowUps, context);
      if (this.#pages.size <= this.#pagesAtLastSearch)
        this.#refuse('new_page_before_follow_up', maxFollowUps, context);
    }
    const ticket = {
      continuation: false,
      paramsKey: call.paramsKey,
      seq: ++this.#searchSeq,
      previousMark: this.#pagesAtLastSearch,
    };
    this.#pagesAtLastSearch = this.#pages.size;
    this.#searchesPending++;
    return ticket;
  }

  /** Record a search's outcome: its output, or `undefined` when it failed (the reservation is given back). */
  endSearch(ticket: SearchTicket, output: SearchFilesOutput | undefined): void {
    if (!ticket.continuation) this.#searchesPending--;
    if (output === undefined) {
      if (!ticket.continuation && ticket.seq === this.#searchSeq)
        this.#pagesAtLastSearch = ticket.previousMark;
      return;
    }
    if (typeof output.nextCursor === 'string')
      this.#cursors.set(output.nextCursor, ticket.paramsKey);
    const allRead = output.items.every((item) => this.#pages.has(item.fileId));
    if (!ticket.continuation) {
      this.#searchesDone++;
      this.#latestParamsKey = ticket.paramsKey;
      this.#latestAllRead = allRead;
    } else if (ticket.paramsKey === this.#latestParamsKey) {
      this.#latestAllRead &&= allRead;
    }
  }

  /** @throws `EXPLORATION_LIMIT` `search_first` until a search has succeeded. */
  requireFirstSearch(context: KnowledgeCallContext | undefined): void {
    if (this.#searchesDone === 0) this.#refuse('search_first', 0, context);
  }

  /** A key for reads in flight: the file as named, and the requested selection; `null` when unknown. */
  requestKey(call: ReadCall): string | null {
    if (call.selectionKey === null) return null;
    const id = call.fileId ?? (call.path === undefined ? undefined : this.#pathToId.get(call.path));
    return id === undefined
      ? `path\0${call.path}\0${call.selectionKey}`
      : `id\0${id}\0${call.selectionKey}`;
  }

  /** The earlier result of the same read, when there is one and it fits `maxChars`. */
  lookup(call: ReadCall): ReadFileOutput | undefined {
    const key = this.requestKey(call);
    const canonical = key === null ? undefined : this.#aliases.get(key);
    const output = canonical === undefined ? undefined : this.#results.get(canonical);
    // A part is not the whole read: another limit cuts other parts, so only whole reads are reused.
    if (output === undefined || output.file.contentRange !== undefined) return undefined;
    return call.maxChars === undefined || codePointLength(output.content) <= call.maxChars
      ? output
      : undefined;
  }

  /** Reserve one read. @throws `EXPLORATION_LIMIT` `reads_exhausted` */
  beginRead(context: KnowledgeCallContext | undefined): void {
    if (this.#readsDone + this.#readsPending >= this.#options.maxReads)
      this.#refuse('reads_exhausted', this.#options.maxReads, context);
    this.#readsPending++;
  }

  /**
   * Record a read's outcome (`undefined`: it failed, the reservation is given back). A result equal to
   * an earlier one (a concurrent twin, or the same selection asked differently) costs nothing.
   */
  endRead(
    call: ReadCall,
    output: ReadFileOutput | undefined,
  ): { readonly output: ReadFileOutput; readonly repeated: boolean } | undefined {
    this.#readsPending--;
    if (output === undefined) return undefined;
    const { fileId, path, selection, snapshotId, contentRange, heading } = output.file;
    // A part is kept under its range, apart from the whole read and from the other parts.
    const range =
      contentRange === undefined
        ? ''
        : `\0${contentRange.start}-${contentRange.end}/${contentRange.total}`;
    // A heading read is a page read of its own: kept apart from the whole page it cites.
    const selected = heading === undefined ? selectionKeyOf(selection) : headingKeyOf(heading.id);
    const canonical = `id\0${fileId}\0${selected}${range}`;
    this.#pathToId.set(path, fileId);
    this.#aliases.set(canonical, canonical);
    if (call.selectionKey !== null && range === '')
      this.#aliases.set(`id\0${fileId}\0${call.selectionKey}`, canonical);
    const earlier = this.#results.get(canonical);
    if (earlier !== undefined) return { output: earlier, repeated: true };
    const kept = structuredClone(output);
    this.#readsDone++;
    this.#results.set(canonical, kept);
    if (snapshotId !== null && selection !== null) {
      this.#pages.add(fileId);
      const { title, revision } = kept.file;
      this.#evidence.push({
        fileId,
        path,
        title,
        revision,
        snapshotId,
        selection: kept.file.selection!,
        content: kept.content,
        ...(kept.file.heading === undefined ? {} : { heading: { ...kept.file.heading } }),
        ...(kept.file.contentRange === undefined
          ? {}
          : { contentRange: { ...kept.file.contentRange } }),
      });
    }
    return { output: kept, repeated: false };
  }

  /** The pages read, in read order, as fresh objects. */
  evidence(): ExplorationEvidence[] {
    return this.#evidence.map((entry) => structuredClone(entry));
  }
}
