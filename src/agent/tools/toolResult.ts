/**
 * Turning outcomes into `KnowledgeToolResult`s: success, a `KnowledgeToolError`, or anything else
 * thrown (which becomes `INTERNAL` with a message that leaks nothing).
 *
 * @module
 */
import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';
import type { JsonObject, KnowledgeToolErrorJson, KnowledgeToolResult } from '../types.js';

/** A successful result carrying `output`. */
export function successResult(output: JsonObject): KnowledgeToolResult {
  return { isError: false, structuredContent: output };
}

/**
 * An error result for anything thrown. A `KnowledgeToolError` keeps its code, message and request ID;
 * anything else is `INTERNAL` with a fixed message (no stack, no path, no foreign message).
 *
 * @param error - what was thrown.
 * @param requestId - the caller's request ID, used when the error carries none.
 */
export function errorResult(error: unknown, requestId: string | undefined): KnowledgeToolResult {
  return { isError: true, structuredContent: errorJson(error, requestId) };
}

function errorJson(error: unknown, requestId: string | undefined): KnowledgeToolErrorJson {
  if (isKnowledgeToolError(error)) {
    try {
      const json = error.toJSON();
      if (typeof json.error.code === 'string' && typeof json.error.message === 'string') return json as KnowledgeToolErrorJson;
    } catch {
      // A broken error object: fall through to INTERNAL.
    }
  }
  const internal = new KnowledgeToolError(
    'INTERNAL',
    'The knowledge source failed unexpectedly. Retry once; if it fails again, answer from the sources already read and report the requestId.',
    { requestId },
  );
  return internal.toJSON() as KnowledgeToolErrorJson;
}

/** `INVALID_ARGUMENT` for arguments that are not a JSON object. */
export function notAnObject(toolName: string, input: unknown, requestId: string | undefined): KnowledgeToolResult {
  return errorResult(
    new KnowledgeToolError('INVALID_ARGUMENT', `\`${toolName}\` takes a JSON object of arguments, got ${describe(input)}. Call it again with an object such as {} or {"fileId": "…"}.`, {
      requestId,
    }),
    requestId,
  );
}

/** A short, safe name for the kind of a value (never its content). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'a non-plain object';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** Whether `value` is a plain object (a JSON object, not an array, class instance or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
