import { expect } from 'vitest';
import { isKnowledgeToolError, type KnowledgeToolError } from '../../../src/agent/errors/index.js';
import type { KnowledgeToolErrorCode } from '../../../src/agent/errors/codes.js';

/** Await `promise`, expect a `KnowledgeToolError` with `code` (and a message matching `message`), and return it. */
export async function expectToolError(
  promise: Promise<unknown>,
  code: KnowledgeToolErrorCode,
  message?: RegExp,
): Promise<KnowledgeToolError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(
    isKnowledgeToolError(caught),
    `expected a KnowledgeToolError ${code}, got ${String(caught)}`,
  ).toBe(true);
  const error = caught as KnowledgeToolError;
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
  expect(error.toJSON()).toEqual({
    error: {
      code,
      message: error.message,
      httpStatus: error.httpStatus,
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: error.retryAfterSeconds }),
    },
    requestId: error.requestId,
  });
  return error;
}
