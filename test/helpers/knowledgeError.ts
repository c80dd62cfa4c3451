/**
 * The one error expecter of the tests: `expectKnowledgeError(fn or promise, { code, … })` catches a
 * `KnowledgeError` (the core's, with issues and places) or a `KnowledgeToolError` (the agent's, with an
 * HTTP status and a request ID), sync or async, checks the code and whatever else `expected` names, and
 * returns the error. Which of the two it expects follows from the code (the two code lists are disjoint).
 */
import { expect } from 'vitest';
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorCode,
} from '../../src/agent/errors/codes.js';
import { isKnowledgeToolError, type KnowledgeToolError } from '../../src/agent/errors/index.js';
import { isKnowledgeError, type KnowledgeError, type KnowledgeIssue } from '../../src/index.js';

/** What a `KnowledgeError` is expected to be: its code, and fields its first issue must match. */
export type ExpectedKnowledgeError = Partial<KnowledgeIssue> & Pick<KnowledgeIssue, 'code'>;

/** What a `KnowledgeToolError` is expected to be. */
export interface ExpectedToolError {
  readonly code: KnowledgeToolErrorCode;
  /** Matched against the message. */
  readonly message?: RegExp | string;
  readonly requestId?: string;
  readonly httpStatus?: number;
  readonly retryAfterSeconds?: number;
}

type AnyKnowledgeError = KnowledgeError | KnowledgeToolError;
const TOOL_CODES = new Set<string>(Object.keys(KNOWLEDGE_TOOL_ERROR_STATUS));

function isAnyKnowledgeError(value: unknown): value is AnyKnowledgeError {
  return isKnowledgeError(value) || isKnowledgeToolError(value);
}

function notThrown(what: string): Error {
  return new Error(`expected a KnowledgeError or KnowledgeToolError, but ${what}`);
}

function wrong(error: unknown): Error {
  return new Error(`expected a KnowledgeError or KnowledgeToolError, got ${String(error)}`, {
    cause: error,
  });
}

function catchAny(
  fn: Promise<unknown> | (() => unknown),
): AnyKnowledgeError | Promise<AnyKnowledgeError> {
  let result: unknown;
  try {
    result = typeof fn === 'function' ? fn() : fn;
  } catch (error) {
    if (isAnyKnowledgeError(error)) return error;
    throw wrong(error);
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        throw notThrown(`it resolved to ${typeof value}`);
      },
      (error: unknown) => {
        if (isAnyKnowledgeError(error)) return error;
        throw wrong(error);
      },
    );
  }
  throw notThrown('nothing was thrown');
}

function onlyCore(error: AnyKnowledgeError): KnowledgeError {
  if (isKnowledgeError(error)) return error;
  throw new Error(
    `expected a KnowledgeError, got the KnowledgeToolError ${error.code}: ${error.message}`,
    {
      cause: error,
    },
  );
}

/**
 * Run `fn` (or await the promise, or `fn`'s promise), expect it to throw or reject with a
 * `KnowledgeError`, and return it, for tests that check several issues.
 */
export function catchKnowledgeError(
  fn: Promise<unknown> | (() => Promise<unknown>),
): Promise<KnowledgeError>;
export function catchKnowledgeError(fn: () => unknown): KnowledgeError;
export function catchKnowledgeError(
  fn: Promise<unknown> | (() => unknown),
): KnowledgeError | Promise<KnowledgeError> {
  const caught = catchAny(fn);
  return caught instanceof Promise ? caught.then(onlyCore) : onlyCore(caught);
}

function check(error: AnyKnowledgeError, expected: ExpectedKnowledgeError | ExpectedToolError) {
  if (TOOL_CODES.has(expected.code)) {
    const tool = expected as ExpectedToolError;
    expect(
      isKnowledgeToolError(error),
      `expected a KnowledgeToolError ${tool.code}, got ${String(error)}`,
    ).toBe(true);
    const e = error as KnowledgeToolError;
    expect(e.name).toBe('KnowledgeToolError');
    expect(e.code).toBe(tool.code);
    if (tool.httpStatus !== undefined) expect(e.httpStatus).toBe(tool.httpStatus);
    if (tool.message !== undefined) expect(e.message).toMatch(tool.message);
    if (tool.requestId !== undefined) expect(e.requestId).toBe(tool.requestId);
    if (tool.retryAfterSeconds !== undefined)
      expect(e.retryAfterSeconds).toBe(tool.retryAfterSeconds);
    // The body every failed call serializes to: the seed's shape, nothing more.
    expect(e.toJSON()).toEqual({
      error: {
        code: tool.code,
        message: e.message,
        httpStatus: e.httpStatus,
        ...(e.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: e.retryAfterSeconds }),
      },
      requestId: e.requestId,
    });
  } else {
    const core = expected as ExpectedKnowledgeError;
    expect(
      isKnowledgeError(error),
      `expected a KnowledgeError ${core.code}, got ${String(error)}`,
    ).toBe(true);
    const e = error as KnowledgeError;
    expect(e.name).toBe('KnowledgeError');
    expect(e.code).toBe(core.code);
    expect(e.issues[0]).toMatchObject(core);
  }
}

/**
 * Expect `fn` to throw (or the promise, or `fn`'s promise, to reject with) the error `expected`
 * describes, and return it for further checks.
 *
 * - A `KnowledgeError` code: the error's code, and its first issue matches `expected` (message, place,
 *   file, path… whatever it names).
 * - A `KnowledgeToolError` code: the code; the status, the message (a pattern), the request ID and
 *   `retryAfterSeconds` when named, and `toJSON()` in the
 *   seed's shape.
 *
 * @example
 * expectKnowledgeError(() => parse('<!-- agent-section:a -->'), { code: 'UNCLOSED_SECTION', line: 1 });
 * await expectKnowledgeError(source.getFile({ fileId: 'nope' }), { code: 'NOT_FOUND' });
 */
export function expectKnowledgeError(
  fn: Promise<unknown> | (() => Promise<unknown>),
  expected: ExpectedToolError,
): Promise<KnowledgeToolError>;
export function expectKnowledgeError(
  fn: Promise<unknown> | (() => Promise<unknown>),
  expected: ExpectedKnowledgeError,
): Promise<KnowledgeError>;
export function expectKnowledgeError(
  fn: () => unknown,
  expected: ExpectedToolError,
): KnowledgeToolError;
export function expectKnowledgeError(
  fn: () => unknown,
  expected: ExpectedKnowledgeError,
): KnowledgeError;
export function expectKnowledgeError(
  fn: Promise<unknown> | (() => unknown),
  expected: ExpectedKnowledgeError | ExpectedToolError,
): AnyKnowledgeError | Promise<AnyKnowledgeError> {
  const caught = catchAny(fn);
  if (caught instanceof Promise)
    return caught.then((error) => {
      check(error, expected);
      return error;
    });
  check(caught, expected);
  return caught;
}
