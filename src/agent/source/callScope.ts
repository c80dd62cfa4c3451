/**
 * One call of a source method: its tool name, request ID, action base and knowledge base, and the one
 * way it builds errors, so every rejection carries the caller's request ID.
 */
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import type { KnowledgeToolErrorCode } from '../errors/codes.js';
import { isKnowledgeToolError, KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import { newRequestId } from '../../shared/requestId.js';
import type { JsonValue, KnowledgeCallContext } from '../types.js';

/** The per-call state every tool implementation receives. */
export interface CallScope {
  /** The tool's name (`search_files`). */
  readonly tool: string;
  readonly requestId: string;
  readonly actionBase: string;
  readonly knowledgeBaseId: string;
  readonly signal: AbortSignal | undefined;
  /** A `KnowledgeToolError` for this call (to be thrown by the caller). */
  fail(code: KnowledgeToolErrorCode, message: string, details?: JsonValue): KnowledgeToolError;
}

/** Defaults of the source, used where the call's context gives none. */
export interface ScopeDefaults {
  readonly actionBase: string;
  readonly knowledgeBaseId: string;
}

/** Build the scope of one call, checking the context it was given. */
export function openScope(tool: string, context: unknown, defaults: ScopeDefaults): CallScope {
  const ctx = (
    typeof context === 'object' && context !== null ? context : {}
  ) as KnowledgeCallContext;
  // A fresh request ID is made only when something needs it (an error): a UUID per successful
  // call would cost more than a small read itself.
  let requestId =
    typeof ctx.requestId === 'string' && ctx.requestId.length > 0 ? ctx.requestId : undefined;
  const scope: CallScope = {
    tool,
    get requestId() {
      return (requestId ??= newRequestId());
    },
    actionBase: ctx.actionBase ?? defaults.actionBase,
    knowledgeBaseId: ctx.knowledgeBaseId ?? defaults.knowledgeBaseId,
    signal: ctx.signal,
    fail: (code, message, details) =>
      new KnowledgeToolError(code, message, { requestId: scope.requestId, details }),
  };
  if (context !== undefined && (typeof context !== 'object' || context === null)) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `The context of \`${tool}\` must be an object { signal?, requestId?, actionBase?, knowledgeBaseId? }.`,
    );
  }
  for (const key of ['actionBase', 'knowledgeBaseId'] as const) {
    if (ctx[key] !== undefined && typeof ctx[key] !== 'string') {
      throw scope.fail('INVALID_ARGUMENT', `\`context.${key}\` of \`${tool}\` must be a string.`);
    }
  }
  return scope;
}

const MAPPED: Readonly<Record<string, KnowledgeToolErrorCode>> = {
  UNKNOWN_DOCUMENT: 'NOT_FOUND',
  UNKNOWN_SECTION: 'NOT_FOUND',
  INVALID_SELECTION: 'INVALID_ARGUMENT',
  DUPLICATE_SELECTION: 'INVALID_ARGUMENT',
  MAX_CHARS_EXCEEDED: 'CONTENT_TOO_LARGE',
};

/**
 * What a method rejects with for anything it caught: a `KnowledgeToolError` as it is, a catalog
 * `KnowledgeError` mapped by meaning with its issues in `details`, anything else `INTERNAL` with a
 * message that leaks no stack, path or source text.
 */
export function toToolError(scope: CallScope, error: unknown): KnowledgeToolError {
  if (isKnowledgeToolError(error)) {
    // Errors made below the source (search, embedder, timers) carry their own fresh ID: the caller's wins.
    if (error.requestId === scope.requestId) return error;
    return new KnowledgeToolError(error.code, error.message, {
      requestId: scope.requestId,
      retryAfterSeconds: error.retryAfterSeconds,
      details: error.details,
      cause: error.cause,
      httpStatus: error.httpStatus,
    });
  }
  if (isKnowledgeError(error)) {
    const code = MAPPED[error.code] ?? 'INTERNAL';
    const details = JSON.parse(JSON.stringify(error.issues)) as JsonValue;
    const message =
      code === 'INTERNAL'
        ? `\`${scope.tool}\` failed unexpectedly (${error.code}).`
        : `\`${scope.tool}\`: ${error.message}`;
    return new KnowledgeToolError(code, message, {
      requestId: scope.requestId,
      details,
      cause: error,
    });
  }
  return new KnowledgeToolError(
    'INTERNAL',
    `\`${scope.tool}\` failed unexpectedly. Try again; if it persists, report request ${scope.requestId}.`,
    {
      requestId: scope.requestId,
      cause: error,
    },
  );
}
