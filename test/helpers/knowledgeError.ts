import { expect } from 'vitest';
import { isKnowledgeError, type KnowledgeError, type KnowledgeIssue } from '../../src/index.js';

/** Run `fn`, expect it to throw a `KnowledgeError`, and return it. */
export function catchKnowledgeError(fn: () => unknown): KnowledgeError {
  try {
    fn();
  } catch (error) {
    if (isKnowledgeError(error)) return error;
    throw new Error(`expected a KnowledgeError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a KnowledgeError, but nothing was thrown');
}

/**
 * Expect `fn` to throw a `KnowledgeError` whose first issue matches `expected` (code and place), and
 * whose message names the code's fix. Returns the error for further checks.
 */
export function expectKnowledgeError(
  fn: () => unknown,
  expected: Partial<KnowledgeIssue> & Pick<KnowledgeIssue, 'code'>,
): KnowledgeError {
  const error = catchKnowledgeError(fn);
  expect(error.name).toBe('KnowledgeError');
  expect(error.code).toBe(expected.code);
  expect(error.issues[0]).toMatchObject(expected);
  return error;
}
