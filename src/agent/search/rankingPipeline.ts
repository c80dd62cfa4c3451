/**
 * The one ranking pipeline of both engines: lexical → semantic → fuse → scope → rerank → expand →
 * scope → ranked files. The in-memory engine (`memoryRanker.ts`) and the term-store engine (`termStoreEngine.ts`)
 * differ only in how they read: an index held in memory, or a store's rows read per query. Each
 * gives the pipeline its readers (`PipelineParts`); the order of the stages, their statuses and the
 * ranking they make are the pipeline's, the same for both.
 */
import type { RerankerSafeCode, SemanticSafeCode, StageStatus } from '../types.js';
import { addRelatedPages } from './addRelatedPages.js';
import type { Candidate } from './candidate.js';
import { fuseRanks } from './fuseRanks.js';
import type { LexicalFile } from './lexicalSearch.js';
import type { SearchHit, SearchRelation, SearchRequest } from './port.js';
import {
  RERANKER_OFF,
  rerankStage,
  type Reranking,
  semanticOff,
  semanticStage,
  type SemanticOutcome,
} from './pipelineStages.js';
import type { SemanticFile } from './semantic.js';
import { scopeStage } from './scopeStage.js';
import { type HitContext, toRankedFile } from './toRankedFile.js';

/** What the pipeline is asked: a search request without its paging. */
export type RankRequest = Omit<SearchRequest, 'limit' | 'continuation'>;

/** What the expand stage follows: the relationships of the candidates' pages, by file ID. */
export interface RelationGraph {
  /** A page's relationships, strongest first. */
  readonly relationsOf: (fileId: string) => readonly Pick<SearchRelation, 'fileId' | 'weight'>[];
  /** Page number → file ID. */
  readonly fileIdOf: (page: number) => string;
  /** File ID → page number. */
  readonly pageOf: ReadonlyMap<string, number>;
}

/**
 * Every candidate, best first: fused candidates, or the lexical files alone when no other stage ran
 * (their candidates are made as `fuseRanks` makes them, and only for the hits read).
 */
export type RankedList = readonly Candidate[] | { readonly lexical: readonly LexicalFile[] };

/** The pipeline's answer: the ranked candidates and the optional stages' statuses. */
export interface PipelineResult {
  readonly list: RankedList;
  readonly semanticStatus: StageStatus<SemanticSafeCode>;
  readonly rerankerStatus: StageStatus<RerankerSafeCode>;
}

/** How an engine reads for the pipeline. `S` is what its semantic look-up finds. */
export interface PipelineParts<S> {
  /**
   * The semantic look-up (embed the query, find the nearest chunks), run within
   * `semanticTimeoutMs`; `undefined` when the engine has no embedder.
   */
  readonly semantic: ((signal: AbortSignal) => Promise<S>) | undefined;
  readonly semanticTimeoutMs: number;
  /**
   * The lexical stage, given the semantic stage under way (started first, so the query's embedding
   * overlaps the lexical reads): the pages found lexically and those found semantically.
   */
  lexical(semantic: Promise<SemanticOutcome<S>> | undefined): Promise<{
    readonly lexical: readonly LexicalFile[];
    readonly semantic: readonly SemanticFile[] | undefined;
  }>;
  /** The engine's reranker, or `undefined` without one. */
  readonly reranking: Reranking | undefined;
  /** The relationships graph mode follows from `ranked` (read now when the engine must). */
  graph(ranked: readonly Candidate[]): RelationGraph | Promise<RelationGraph>;
  /** Throws when the search must stop (aborted, past its time limit); called between stages. */
  readonly checkpoint?: (() => void) | undefined;
  /**
   * The search's filters as a test of a candidate's page (`scopeStage.ts`), asked after the lexical
   * stage; `undefined` without filters.
   */
  readonly scope?: ((page: number) => boolean) | undefined;
}

/**
 * The scope stage on a ranked list: the candidates whose page `scope` keeps, in order, scores
 * unchanged.
 *
 * @param list - the ranked list.
 * @param scope - the pages kept, or `undefined` for every page.
 * @returns the list narrowed.
 */
export function scopeRanked(
  list: RankedList,
  scope: ((page: number) => boolean) | undefined,
): RankedList {
  if (scope === undefined) return list;
  return isCandidates(list)
    ? scopeStage(list, scope)
    : { lexical: scopeStage(list.lexical, scope) };
}

/**
 * The expand stage: in `graph` mode, the pages related to the top candidates added below them
 * (`addRelatedPages`); other modes keep the list.
 *
 * @param request - the search request (its mode, depth and fan-out).
 * @param list - the ranked candidates.
 * @param graph - the relationships to follow (asked only in `graph` mode).
 * @returns the candidates, best first.
 */
export function expandStage(
  request: RankRequest,
  list: RankedList,
  graph: (ranked: readonly Candidate[]) => RelationGraph,
): RankedList {
  if (request.mode !== 'graph') return list;
  const ranked = candidatesOf(list);
  const { relationsOf, fileIdOf, pageOf } = graph(ranked);
  return addRelatedPages(
    ranked,
    relationsOf,
    fileIdOf,
    pageOf,
    request.graphDepth,
    request.graphFanout,
  );
}

/** The candidates of a ranked list, every one made. */
function candidatesOf(list: RankedList): readonly Candidate[] {
  return isCandidates(list) ? list : fuseRanks(list.lexical, undefined);
}

function isCandidates(list: RankedList): list is readonly Candidate[] {
  return Array.isArray(list);
}

/**
 * Rank a query through every stage: the semantic stage started first, the lexical stage, the two
 * fused by reciprocal rank fusion, reranked when asked and the engine has a reranker, expanded in
 * `graph` mode.
 *
 * @param request - the search request.
 * @param parts - how the engine reads.
 * @param signal - the search's signal (the stages' time limits run under it).
 * @returns every candidate, ranked, and the stages' statuses.
 * @throws what the engine's readers and `checkpoint` throw, or the signal's reason.
 */
export async function runRankingPipeline<S>(
  request: RankRequest,
  parts: PipelineParts<S>,
  signal: AbortSignal,
): Promise<PipelineResult> {
  const semantic =
    request.mode !== 'file' && parts.semantic !== undefined
      ? semanticStage(parts.semantic, parts.semanticTimeoutMs, signal)
      : undefined;
  semantic?.catch(() => undefined);
  const found = await parts.lexical(semantic);
  const semanticStatus =
    semantic === undefined ? semanticOff(request.mode) : (await semantic).status;
  // Filters narrow the fused ranking of the whole knowledge base: a page kept keeps its score.
  let ranked = scopeStage(fuseRanks(found.lexical, found.semantic), parts.scope);
  let rerankerStatus = RERANKER_OFF;
  if (request.rerank && parts.reranking !== undefined)
    ({ ranked, status: rerankerStatus } = await rerankStage(
      request.query,
      ranked,
      parts.reranking,
      signal,
    ));
  parts.checkpoint?.();
  const graph = request.mode === 'graph' ? await parts.graph(ranked) : undefined;
  // Graph mode adds related pages: those out of scope are left out too.
  const list = scopeRanked(
    expandStage(request, ranked, () => graph!),
    request.mode === 'graph' ? parts.scope : undefined,
  );
  return { list, semanticStatus, rerankerStatus };
}

/**
 * The pipeline when only the lexical stage runs (no embedder, no reranker asked), synchronously:
 * nothing to wait for, and no candidate made but for the hits read.
 *
 * @param request - the search request.
 * @param lexical - the pages found lexically, best first.
 * @param graph - the relationships graph mode follows.
 * @param scope - the search's filters as a test of a page (`undefined` without filters).
 * @returns every candidate, ranked, and the stages' statuses.
 */
export function runLexicalPipeline(
  request: RankRequest,
  lexical: readonly LexicalFile[],
  graph: (ranked: readonly Candidate[]) => RelationGraph,
  scope?: ((page: number) => boolean) | undefined,
): PipelineResult {
  const scoped = { lexical: scopeStage(lexical, scope) };
  return {
    list:
      request.mode === 'graph' ? scopeRanked(expandStage(request, scoped, graph), scope) : scoped,
    semanticStatus: semanticOff(request.mode),
    rerankerStatus: RERANKER_OFF,
  };
}

/** How many candidates a ranked list holds. */
export function rankedCount(list: RankedList): number {
  return isCandidates(list) ? list.length : list.lexical.length;
}

/**
 * The candidates of a ranked list from `from` to `to` (exclusive), made for these only.
 *
 * @param list - the ranked list.
 * @param from - the first place.
 * @param to - the place after the last.
 * @returns the candidates, best first.
 */
export function candidatesBetween(list: RankedList, from: number, to: number): Candidate[] {
  const out: Candidate[] = [];
  const end = Math.min(to, rankedCount(list));
  for (let i = from; i < end; i++)
    out.push(isCandidates(list) ? list[i]! : lexicalCandidate(list.lexical[i]!));
  return out;
}

/** A lexical file's candidate when no other stage ran (what `fuseRanks` makes of it). */
function lexicalCandidate(file: LexicalFile): Candidate {
  return { page: file.page, score: file.score, lexical: file, semantic: undefined, graph: false };
}

/**
 * The ranked files stage: candidates as hits (`toRankedFile`).
 *
 * @param candidates - the candidates, best first.
 * @param context - the chunks, the excerpt size and the pages' file IDs and leads.
 * @returns the hits, in order.
 */
export function rankedFiles(
  candidates: readonly Candidate[],
  context: HitContext,
): readonly SearchHit[] {
  return candidates.map((candidate) => toRankedFile(candidate, context));
}
