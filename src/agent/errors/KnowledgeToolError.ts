import type { JsonValue } from '../types.js';
import { newRequestId } from '../../shared/requestId.js';
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorBody,
  type KnowledgeToolErrorCode,
} from './codes.js';

/** Options of `KnowledgeToolError`. */
export interface KnowledgeToolErrorOptions {
  /** The caller's request ID; default a fresh `req-<uuid>`. */
  readonly requestId?: string | undefined;
  /** Seconds to wait before retrying (`RATE_LIMITED`). */
  readonly retryAfterSeconds?: number | undefined;
  /** Machine-readable detail, such as the catalog's issues. */
  readonly details?: JsonValue | undefined;
  readonly cause?: unknown;
  /**
   * The HTTP status, when it is not the code's own: a server's answer kept as it came (414 is
   * `INVALID_ARGUMENT` for a URL over the limit). Default `KNOWLEDGE_TOOL_ERROR_STATUS[code]`.
   */
  readonly httpStatus?: number | undefined;
}

/**
 * The one error every `KnowledgeSource` method rejects with: a stable `code`, its `httpStatus`, and a
 * message that says what was wrong and what to call instead.
 *
 * @example
 * ```ts
 * try {
 *   await source.readFile({ path: 'pages/missing.md' });
 * } catch (error) {
 *   if (isKnowledgeToolError(error)) console.log(error.code, error.toJSON());
 * }
 * ```
 */
export class KnowledgeToolError extends Error {
  override readonly name = 'KnowledgeToolError';
  /** Stable, machine-readable code. */
  readonly code: KnowledgeToolErrorCode;
  /** The HTTP status of `code`. */
  readonly httpStatus: number;
  /** Seconds to wait before retrying, for `RATE_LIMITED`. */
  readonly retryAfterSeconds: number | undefined;
  /** Machine-readable detail, such as the catalog issues behind a mapped error. */
  readonly details: JsonValue | undefined;
  /** The caller's request ID, or a fresh `req-<uuid>`. */
  readonly requestId: string;

  /**
   * @param code - one of `KNOWLEDGE_TOOL_ERROR_CODES`.
   * @param message - what was wrong and what to call instead.
   * @param options - `requestId`, `retryAfterSeconds`, `details`, `cause`, `httpStatus`.
   */
  constructor(
    code: KnowledgeToolErrorCode,
    message: string,
    options: KnowledgeToolErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.httpStatus = options.httpStatus ?? KNOWLEDGE_TOOL_ERROR_STATUS[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
    this.requestId = options.requestId ?? newRequestId();
  }

  /** The seed's error shape `{ error: { code, message, httpStatus, retryAfterSeconds? }, requestId }`. */
  toJSON(): KnowledgeToolErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        httpStatus: this.httpStatus,
        ...(this.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: this.retryAfterSeconds }),
      },
      requestId: this.requestId,
    };
  }
}

/**
 * Whether `value` is a `KnowledgeToolError`.
 *
 * @param value - anything caught.
 * @returns `true` for a `KnowledgeToolError`, also one from another copy of the package.
 */
export function isKnowledgeToolError(value: unknown): value is KnowledgeToolError {
  return (
    value instanceof KnowledgeToolError ||
    (value instanceof Error && value.name === 'KnowledgeToolError' && 'httpStatus' in value)
  );
}
