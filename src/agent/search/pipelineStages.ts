/**
 * The stages of the ranking pipeline that wait on another party (an embedder, a reranker) under a
 * time limit, and the statuses a search reports for them. `rankingPipeline.ts` runs them in order.
 */
import type {
  KnowledgeReranker,
  RerankerSafeCode,
  SemanticSafeCode,
  SearchMode,
  StageStatus,
} from '../types.js';
import { applyRerank, checkRerankScores } from './applyRerank.js';
import type { Candidate } from './candidate.js';
import { withTimeout } from './limits.js';

/**
 * A stage's status, frozen.
 *
 * @param state - what came of the stage.
 * @param safeCode - why, or `null` when it ran.
 * @returns the status.
 */
export const stageStatus = <C extends string>(
  state: StageStatus<C>['state'],
  safeCode: C | null,
): StageStatus<C> => Object.freeze({ state, safeCode });

/** The reranker's status of a search that did not ask for it, or whose engine has none. */
export const RERANKER_OFF: StageStatus<RerankerSafeCode> = stageStatus(
  'skipped',
  'RERANKER_DISABLED',
);
const SEMANTIC_NOT_USED: StageStatus<SemanticSafeCode> = stageStatus(
  'skipped',
  'SEMANTIC_NOT_USED',
);
const SEMANTIC_DISABLED: StageStatus<SemanticSafeCode> = stageStatus(
  'disabled',
  'SEMANTIC_DISABLED',
);

/**
 * The semantic status of a search without a semantic stage: `skipped` in `file` mode (the stage is
 * not used there), else `disabled` (the engine has no embedder).
 *
 * @param mode - the search's mode.
 * @returns the status.
 */
export function semanticOff(mode: SearchMode): StageStatus<SemanticSafeCode> {
  return mode === 'file' ? SEMANTIC_NOT_USED : SEMANTIC_DISABLED;
}

/** What the semantic stage came to: what it found (`undefined` when it failed) and its status. */
export interface SemanticOutcome<S> {
  readonly found: S | undefined;
  readonly status: StageStatus<SemanticSafeCode>;
}

/**
 * The semantic stage: `find` (embed the query, look up the nearest chunks) within its time limit. A
 * failure or a time-out leaves the lexical ranking standing (`unavailable`); only the search's own
 * abort rejects.
 *
 * @param find - the engine's semantic look-up, given the stage's signal.
 * @param timeoutMs - the stage's time limit.
 * @param signal - the search's signal.
 * @returns what it found and its status.
 */
export async function semanticStage<S>(
  find: (signal: AbortSignal) => Promise<S>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SemanticOutcome<S>> {
  const settled = await withTimeout(find, timeoutMs, signal);
  if (settled.ok)
    return { found: settled.value, status: stageStatus<SemanticSafeCode>('ready', null) };
  return {
    found: undefined,
    status: stageStatus(
      'unavailable',
      settled.timedOut ? 'SEMANTIC_TIMEOUT' : 'SEMANTIC_UNAVAILABLE',
    ),
  };
}

/** An engine's reranker and what it is shown. */
export interface Reranking {
  readonly reranker: KnowledgeReranker;
  /** Candidates the reranker sees. */
  readonly topK: number;
  readonly timeoutMs: number;
  /** A candidate as the reranker is shown it: its file ID and its text. */
  readonly candidateOf: (candidate: Candidate) => { fileId: string; text: string };
}

/**
 * The rerank stage: the top `topK` candidates reordered by the reranker's scores, within its time
 * limit; a failure or a time-out leaves the fused order standing (`unavailable`).
 *
 * @param query - the search's query.
 * @param ranked - candidates, best first.
 * @param reranking - the reranker and its settings.
 * @param signal - the search's signal.
 * @returns the candidates, best first, and the reranker's status.
 */
export async function rerankStage(
  query: string,
  ranked: Candidate[],
  reranking: Reranking,
  signal: AbortSignal,
): Promise<{ ranked: Candidate[]; status: StageStatus<RerankerSafeCode> }> {
  const top = ranked.slice(0, reranking.topK);
  if (top.length === 0) return { ranked, status: stageStatus<RerankerSafeCode>('ready', null) };
  const candidates = top.map(reranking.candidateOf);
  const settled = await withTimeout(
    async (stage) =>
      checkRerankScores(
        await reranking.reranker.rerank(query, candidates, { signal: stage }),
        top.length,
      ),
    reranking.timeoutMs,
    signal,
  );
  if (settled.ok)
    return {
      ranked: applyRerank(ranked, settled.value),
      status: stageStatus<RerankerSafeCode>('ready', null),
    };
  return {
    ranked,
    status: stageStatus(
      'unavailable',
      settled.timedOut ? 'RERANKER_TIMEOUT' : 'RERANKER_UNAVAILABLE',
    ),
  };
}
