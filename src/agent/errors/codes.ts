/**
 * Tool error codes and their HTTP statuses (`shared/spec/agent.md`, "Errors").
 *
 * @module
 */
import type { JsonValue } from '../types.js';

/** Every tool error code with its HTTP status, in the order `docs/errors.md` lists them. */
export const KNOWLEDGE_TOOL_ERROR_STATUS = Object.freeze({
  INVALID_ARGUMENT: 400,
  INVALID_CURSOR: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  STALE_CURSOR: 409,
  EXPLORATION_LIMIT: 409,
  CONTENT_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  TRANSPORT_ERROR: 502,
  SEARCH_UNAVAILABLE: 503,
  SEARCH_TIMEOUT: 504,
  TIMEOUT: 504,
} as const);

/** A tool error code. */
export type KnowledgeToolErrorCode = keyof typeof KNOWLEDGE_TOOL_ERROR_STATUS;

/** Every tool error code, in the order `docs/errors.md` lists them. */
export const KNOWLEDGE_TOOL_ERROR_CODES = Object.freeze(
  Object.keys(KNOWLEDGE_TOOL_ERROR_STATUS) as KnowledgeToolErrorCode[],
);

/**
 * The seed's error shape: what `toJSON()`, every failed tool call (`structuredContent`) and every HTTP
 * error answer give. A JSON object.
 */
export interface KnowledgeToolErrorBody {
  readonly [key: string]: JsonValue;
  readonly error: {
    readonly code: KnowledgeToolErrorCode;
    readonly message: string;
    readonly httpStatus: number;
    readonly retryAfterSeconds?: number;
  };
  readonly requestId: string;
}
