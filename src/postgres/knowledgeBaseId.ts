/** The check of a knowledge base ID, shared by every function that takes one. */
import type { KnowledgeIssue } from '../errors/codes.js';
import { describe } from '../shared/values.js';

/**
 * Why `id` is not a knowledge base ID (1 to 200 characters, no control characters), as an issue.
 *
 * @param api - the calling function, for the message.
 * @param id - the value given.
 * @param path - where it was given.
 * @returns the issue, or `undefined` for a valid ID.
 */
export function knowledgeBaseProblem(
  api: string,
  id: unknown,
  path: readonly (string | number)[],
): KnowledgeIssue | undefined {
  let valid = typeof id === 'string' && id.length > 0 && id.length <= 200;
  if (valid) {
    const s = id as string;
    for (let i = 0; i < s.length && valid; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c === 127) valid = false;
    }
  }
  if (valid) return undefined;
  return {
    code: 'INVALID_INPUT',
    path: [...path],
    message: `${api}: \`knowledgeBase\` is ${describe(id)}; pass the knowledge base's ID, a string of 1 to 200 characters without control characters, such as "handbook".`,
  };
}
