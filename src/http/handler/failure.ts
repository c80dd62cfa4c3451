/**
 * What a request that failed is answered: a bad argument `400`, a deadline `TIMEOUT` (or the route's
 * own code), a tool error its status, and anything else `INTERNAL`, which the app's `onError` hears.
 * It is the app's `onError` in Hono, so that every stage may throw.
 *
 * @module
 */
import type { Context } from 'hono';
import { isKnowledgeToolError, KNOWLEDGE_TOOL_ERROR_STATUS } from '../../agent/index.js';
import { DeadlineError } from '../deadline.js';
import { ParamError } from '../params.js';
import { errorResponse } from '../respond.js';
import type { KnowledgeHandlerOptions } from '../types.js';
import type { HandlerConfig, HandlerEnv } from './context.js';

/** The app's `onError` hears `error`; its own failure, thrown or rejected, is ignored. */
export function errorReporter(
  onError: KnowledgeHandlerOptions['onError'],
): (error: unknown, requestId: string) => void {
  return (error, requestId) => {
    try {
      const logged: unknown = onError?.(error, { requestId });
      // An async logger that fails must not become an unhandled rejection either.
      if (
        typeof logged === 'object' &&
        logged !== null &&
        typeof (logged as { then?: unknown }).then === 'function'
      ) {
        (logged as PromiseLike<unknown>).then(undefined, () => undefined);
      }
    } catch {
      // The app's logger failing must not change the answer.
    }
  };
}

/** Whatever failed unexpectedly: `onError` hears it, the caller gets `INTERNAL` and nothing more. */
export function internal(config: HandlerConfig, error: unknown, requestId: string): Response {
  config.reportError(error, requestId);
  return errorResponse({
    code: 'INTERNAL',
    message: `The request failed unexpectedly. Try again; if it persists, report request ${requestId}.`,
    requestId,
  });
}

/** The answer to `error`, thrown by a stage of the route in `c`. */
export function failure(config: HandlerConfig, error: unknown, c: Context<HandlerEnv>): Response {
  const { requestId } = c.env;
  if (error instanceof ParamError)
    return errorResponse({ code: 'INVALID_ARGUMENT', message: error.message, requestId });
  const operation = c.get('operation');
  if (error instanceof DeadlineError && operation !== undefined) {
    return errorResponse({
      code: c.get('timeoutCode') ?? 'TIMEOUT',
      message: `\`${operation}\` took longer than ${config.timeoutMs} ms and was stopped. Try again, or narrow the request.`,
      requestId,
    });
  }
  // A code outside the table (another copy of the package, a newer one) is unexpected here.
  if (
    isKnowledgeToolError(error) &&
    error.code !== 'INTERNAL' &&
    Object.hasOwn(KNOWLEDGE_TOOL_ERROR_STATUS, error.code)
  ) {
    return errorResponse({
      code: error.code,
      message: error.message,
      requestId,
      retryAfterSeconds: error.retryAfterSeconds,
    });
  }
  return internal(config, error, requestId);
}
