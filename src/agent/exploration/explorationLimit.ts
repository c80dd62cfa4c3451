/**
 * The `EXPLORATION_LIMIT` errors: one per rule of the flow, each stating the rule and what to do instead.
 */
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import type { KnowledgeCallContext } from '../types.js';
import type { ExplorationStatus } from './types.js';

/** The rules a call can break. */
export type ExplorationRule =
  | 'first_search_is_question'
  | 'search_first'
  | 'new_page_before_follow_up'
  | 'follow_ups_exhausted'
  | 'reads_exhausted';

const quote = (text: string): string =>
  JSON.stringify([...text].length > 80 ? `${[...text].slice(0, 79).join('')}…` : text);

/**
 * The message of each rule. Words are neutral between the session API and its tools: "a search with
 * no query" is `session.search()` and `search_files` with `query: null`.
 */
function message(
  rule: ExplorationRule,
  question: string,
  status: ExplorationStatus,
  limit: number,
): string {
  switch (rule) {
    case 'first_search_is_question':
      return (
        `The first search must be the complete question ${quote(question)}. Search first with the complete question ` +
        '(a search with no query uses it); follow-up searches come after reading pages.'
      );
    case 'search_first':
      return 'Exploration starts with a search. Search first with the complete question (a search with no query uses it), then read the candidates it returns.';
    case 'new_page_before_follow_up':
      return (
        'A follow-up search needs at least one new page read since the previous search. Read a new page ' +
        'from the candidates before a follow-up search, or answer from the sources read.'
      );
    case 'follow_ups_exhausted':
      return (
        `All ${limit} follow-up searches are used. Answer from the sources read` +
        (status.readsLeft > 0
          ? `, or read candidates already found (${status.readsLeft} reads left).`
          : '.')
      );
    case 'reads_exhausted':
      return `All ${limit} reads are used. Answer from the sources read; rereading a page already read costs nothing.`;
  }
}

/**
 * A `KnowledgeToolError` `EXPLORATION_LIMIT` (409, never retried as is) for a broken rule.
 *
 * @param rule - the rule the call broke; also in `details.rule`.
 * @param question - the session's question, quoted by `first_search_is_question`.
 * @param status - the session's status at the refusal; also in `details.status`.
 * @param limit - the budget the rule concerns (`maxFollowUps` or `maxReads`).
 * @param context - the call's context, whose `requestId` the error carries.
 * @returns the error, to be thrown.
 */
export function explorationLimit(
  rule: ExplorationRule,
  question: string,
  status: ExplorationStatus,
  limit: number,
  context: KnowledgeCallContext | undefined,
): KnowledgeToolError {
  const requestId =
    typeof context?.requestId === 'string' && context.requestId !== ''
      ? context.requestId
      : undefined;
  return new KnowledgeToolError('EXPLORATION_LIMIT', message(rule, question, status, limit), {
    requestId,
    details: { rule, status: { ...status } },
  });
}
