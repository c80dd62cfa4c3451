/**
 * The `send` stage of the client: one operation as `GET` requests, each with its own request ID,
 * timeout and the caller's signal, retried after `RATE_LIMITED` (while `Retry-After` is short enough);
 * the answer is read by `answer.ts`.
 *
 * @module
 */
import {
  isKnowledgeToolError,
  KnowledgeToolError,
  type KnowledgeCallContext,
} from '../../agent/index.js';
import type { ResponseShape } from '../../agent/internals.js';
import { newRequestId } from '../../shared/requestId.js';
import { isPlainObject } from '../../shared/values.js';
import { linkAbort } from '../linkAbort.js';
import { requestIdFrom } from '../respond.js';
import { fromErrorBody, hasShape, transport } from './answer.js';
import type { ClientConfig } from './options.js';

/** One operation: `GET url`, with retries after `RATE_LIMITED`. */
export async function get(
  config: ClientConfig,
  operation: string,
  shape: ResponseShape,
  url: string,
  context: KnowledgeCallContext | undefined,
): Promise<Record<string, unknown>> {
  const signal = context?.signal;
  const callerId =
    typeof context?.requestId === 'string' && context.requestId !== ''
      ? requestIdFrom(context.requestId)
      : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce(config, operation, shape, url, signal, callerId);
    } catch (error) {
      if (
        isKnowledgeToolError(error) &&
        error.code === 'RATE_LIMITED' &&
        attempt < config.maxRetries &&
        error.retryAfterSeconds !== undefined &&
        error.retryAfterSeconds <= config.maxRetryAfterSeconds
      ) {
        await sleep(error.retryAfterSeconds * 1000, signal, operation, error.requestId);
        continue;
      }
      throw error;
    }
  }
}

/** One `GET`: its answer's JSON object, or the error it is. */
async function attemptOnce(
  config: ClientConfig,
  operation: string,
  shape: ResponseShape,
  url: string,
  signal: AbortSignal | undefined,
  callerId: string | undefined,
): Promise<Record<string, unknown>> {
  const requestId = callerId ?? newRequestId();
  if (signal?.aborted)
    throw new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted before it was sent.`, {
      requestId,
      cause: signal.reason,
    });
  const { timeoutMs } = config;
  const headers = new Headers(config.headers);
  headers.set('Accept', 'application/json');
  headers.set('X-Request-Id', requestId);
  // One controller for the attempt: the timeout and the caller's signal both abort it, and its
  // abort ends the race too, so a `fetch` that ignores its signal cannot hang the call.
  const timer = new AbortController();
  let timedOut = false;
  const expired = new Promise<never>((_, reject) => {
    timer.signal.addEventListener(
      'abort',
      () => reject(new Error(timedOut ? `no answer within ${timeoutMs} ms` : 'aborted')),
      { once: true },
    );
  });
  expired.catch(() => undefined);
  const timeout = setTimeout(() => {
    timedOut = true;
    timer.abort();
  }, timeoutMs);
  const unlink = linkAbort(timer, signal);
  let status: number;
  let text: string;
  let answerId: string | null;
  let retryHeader: string | null;
  try {
    const response = await Promise.race([
      config.fetch(new Request(url, { method: 'GET', headers, signal: timer.signal })),
      expired,
    ]);
    status = response.status;
    answerId = response.headers.get('x-request-id');
    retryHeader = response.headers.get('retry-after');
    text = await Promise.race([response.text(), expired]);
  } catch (cause) {
    if (signal?.aborted)
      throw new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted.`, {
        requestId,
        cause: signal.reason,
      });
    const why = timedOut
      ? `no answer within ${timeoutMs} ms`
      : cause instanceof Error
        ? cause.message
        : String(cause);
    throw transport(operation, `could not reach ${config.base.origin} (${why})`, requestId, cause);
  } finally {
    clearTimeout(timeout);
    unlink();
  }
  const id = answerId !== null && requestIdFrom(answerId) === answerId ? answerId : requestId;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw transport(
      operation,
      `the server answered ${status} with a body that is not JSON`,
      id,
      cause,
    );
  }
  if (status === 200) {
    if (!isPlainObject(body) || !hasShape(body, shape)) {
      throw transport(
        operation,
        `the server answered 200 with JSON that is not a \`${operation}\` result`,
        id,
      );
    }
    return body;
  }
  throw fromErrorBody(operation, status, body, id, retryHeader);
}

/** Waits `ms`, or rejects with `TIMEOUT` when `signal` aborts first. */
function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  operation: string,
  requestId: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(
        new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted while waiting to retry.`, {
          requestId,
          cause: signal.reason,
        }),
      );
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(
        new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted while waiting to retry.`, {
          requestId,
          cause: signal?.reason,
        }),
      );
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
