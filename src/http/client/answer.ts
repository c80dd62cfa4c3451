/**
 * How the client reads an answer: a 200 must have its operation's shape; an error is the server's
 * own (`code`, `message`, `requestId`, `retryAfterSeconds` or `Retry-After`); anything else is
 * `TRANSPORT_ERROR`, never an empty result.
 *
 * @module
 */
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  KnowledgeToolError,
  type KnowledgeToolErrorCode,
} from '../../agent/index.js';
import type { ResponseShape } from '../../agent/internals.js';
import { isPlainObject } from '../../shared/values.js';
import { requestIdFrom } from '../respond.js';

/** Whether `body` has the keys of `shape`, each of its type. */
export function hasShape(body: Record<string, unknown>, shape: ResponseShape): boolean {
  for (const [key, type] of Object.entries(shape)) {
    const value = body[key];
    if (
      type === 'array'
        ? !Array.isArray(value)
        : type === 'object'
          ? !isPlainObject(value)
          : typeof value !== 'string'
    )
      return false;
  }
  return true;
}

/** The server's error, as it sent it; an answer not in the error shape is a transport failure. */
export function fromErrorBody(
  operation: string,
  status: number,
  body: unknown,
  requestId: string,
  retryHeader: string | null,
): KnowledgeToolError {
  const error = isPlainObject(body) ? body['error'] : undefined;
  if (!isPlainObject(error))
    return transport(operation, `the server answered ${status} without the error shape`, requestId);
  const code = error['code'];
  const message = error['message'];
  if (
    typeof code !== 'string' ||
    !Object.hasOwn(KNOWLEDGE_TOOL_ERROR_STATUS, code) ||
    typeof message !== 'string' ||
    status < 400 ||
    status > 599
  ) {
    return transport(
      operation,
      `the server answered ${status} with an error this client does not know`,
      requestId,
    );
  }
  // The body's wait, else the `Retry-After` header's (whole seconds; an HTTP date is not used).
  const retry =
    error['retryAfterSeconds'] ??
    (retryHeader !== null && /^\d{1,10}$/.test(retryHeader.trim())
      ? Number(retryHeader.trim())
      : undefined);
  const serverId =
    isPlainObject(body) &&
    typeof body['requestId'] === 'string' &&
    requestIdFrom(body['requestId']) === body['requestId']
      ? body['requestId']
      : requestId;
  return new KnowledgeToolError(code as KnowledgeToolErrorCode, message, {
    requestId: serverId,
    httpStatus: status,
    retryAfterSeconds:
      typeof retry === 'number' && Number.isFinite(retry) && retry >= 0 ? retry : undefined,
  });
}

/** `TRANSPORT_ERROR` for `operation`, saying why. */
export function transport(
  operation: string,
  why: string,
  requestId: string,
  cause?: unknown,
): KnowledgeToolError {
  return new KnowledgeToolError(
    'TRANSPORT_ERROR',
    `\`${operation}\` failed: ${why}. Try again later; the knowledge base itself may be fine.`,
    {
      requestId,
      cause,
    },
  );
}
