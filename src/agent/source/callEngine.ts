/**
 * The source's side of the search port: one call of its engine, with failures mapped to the tool's
 * error codes and the answer checked, so that an engine's mistake is a clear `SEARCH_UNAVAILABLE`,
 * never a wrong page or a crash further on.
 */
import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';
import { abortError } from '../search/limits.js';
import type { SearchAnswer, SearchRequest } from '../search/port.js';
import { hasFilter, inScope } from '../search/scopeStage.js';
import type { PageRecord } from '../model.js';
import type { CallScope } from './callScope.js';
import type { SourceState } from './state.js';

const SEMANTIC: Readonly<Record<string, readonly (string | null)[]>> = {
  ready: [null],
  disabled: ['SEMANTIC_DISABLED'],
  skipped: ['SEMANTIC_NOT_USED'],
  unavailable: ['SEMANTIC_UNAVAILABLE', 'SEMANTIC_TIMEOUT'],
};
const RERANKER: Readonly<Record<string, readonly (string | null)[]>> = {
  ready: [null],
  skipped: ['RERANKER_DISABLED'],
  unavailable: ['RERANKER_UNAVAILABLE', 'RERANKER_TIMEOUT'],
};

function validStatus(
  status: unknown,
  allowed: Readonly<Record<string, readonly (string | null)[]>>,
): boolean {
  if (typeof status !== 'object' || status === null) return false;
  const { state, safeCode } = status as { state?: unknown; safeCode?: unknown };
  return (
    typeof state === 'string' &&
    Object.hasOwn(allowed, state) &&
    allowed[state]!.includes(safeCode as string | null)
  );
}

/** What is wrong with an engine's answer, or `undefined` when nothing is. */
function problemOf(
  state: SourceState,
  request: SearchRequest,
  answer: unknown,
): string | undefined {
  if (typeof answer !== 'object' || answer === null) return 'it is not an object';
  const { hits, continuation, semanticStatus, rerankerStatus } = answer as Partial<SearchAnswer>;
  if (!Array.isArray(hits)) return '`hits` is not an array';
  if (hits.length > request.limit)
    return `it has ${hits.length} hits for a \`limit\` of ${request.limit}`;
  if (continuation !== null && (typeof continuation !== 'string' || continuation.length === 0))
    return '`continuation` is neither `null` nor a non-empty string';
  if (continuation !== null && hits.length === 0)
    return 'it has no hits but a `continuation` (an empty page must be the last)';
  if (!validStatus(semanticStatus, SEMANTIC)) return '`semanticStatus` is not a known status';
  if (!validStatus(rerankerStatus, RERANKER)) return '`rerankerStatus` is not a known status';
  const seen = new Set<string>();
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i] as unknown as Record<string, unknown> | null;
    const fileId = hit?.['fileId'];
    const record = typeof fileId === 'string' ? state.table.byId(fileId) : undefined;
    if (typeof fileId !== 'string' || record?.kind !== 'page')
      return `hit ${i} names ${JSON.stringify(fileId)}, which is not a page of this source`;
    if (hasFilter(request.filter) && !inScope(record as PageRecord, request.filter))
      return `hit ${i} names ${JSON.stringify(fileId)}, which the request's filters leave out`;
    if (seen.has(fileId)) return `hit ${i} repeats ${JSON.stringify(fileId)}`;
    seen.add(fileId);
    const score = hit!['score'];
    if (typeof score !== 'number' || !Number.isFinite(score) || score <= 0)
      return `hit ${i} has score ${String(score)}, not a positive finite number`;
    if (
      !Array.isArray(hit!['matchedFields']) ||
      !Array.isArray(hit!['evidenceTypes']) ||
      !Array.isArray(hit!['sectionIds']) ||
      typeof hit!['sourceExcerpt'] !== 'string'
    )
      return `hit ${i} lacks \`matchedFields\`, \`evidenceTypes\`, \`sectionIds\` or \`sourceExcerpt\``;
  }
  return undefined;
}

/**
 * Ask the source's engine for one page.
 *
 * @param state - the source.
 * @param scope - the call.
 * @param request - the checked request.
 * @returns the engine's answer, checked.
 * @throws {KnowledgeToolError} the engine's own `KnowledgeToolError`; `TIMEOUT` when the caller
 *   aborted; `SEARCH_UNAVAILABLE` for any other failure or an answer that breaks the port's rules.
 */
export async function callEngine(
  state: SourceState,
  scope: CallScope,
  request: SearchRequest,
): Promise<SearchAnswer> {
  let answer: SearchAnswer;
  try {
    answer = await state.engine.search(request);
  } catch (error) {
    throw engineFailure(scope, error, 'The search');
  }
  const problem = problemOf(state, request, answer);
  if (problem !== undefined)
    throw scope.fail(
      'SEARCH_UNAVAILABLE',
      `Search could not run: the search engine's answer breaks the search port's rules (${problem}). Browse with list_tree and read index.md instead; the engine needs fixing.`,
    );
  return answer;
}

/**
 * What a failure of the engine (its `search` or `warm`) rejects with: its own `KnowledgeToolError` as
 * it is; `TIMEOUT` when the caller aborted; else `SEARCH_UNAVAILABLE`, with the failure as `cause`.
 *
 * @param scope - the call.
 * @param error - what the engine threw.
 * @param what - the call, for the messages (`The search`, `Warming search`).
 * @returns the error to throw.
 */
export function engineFailure(scope: CallScope, error: unknown, what: string): KnowledgeToolError {
  if (isKnowledgeToolError(error)) return error;
  if (scope.signal?.aborted === true) return abortError(scope.signal, what);
  return new KnowledgeToolError(
    'SEARCH_UNAVAILABLE',
    `${what} could not run: the search engine failed. Browse with list_tree and read index.md instead, or try again.`,
    { requestId: scope.requestId, cause: error },
  );
}
