/**
 * Turning outcomes into `KnowledgeToolResult`s: success, a `KnowledgeToolError`, or anything else
 * thrown (which becomes `INTERNAL` with a message that leaks nothing).
 *
 * @module
 */
import { isPlainObject } from '../../shared/values.js';
import { isKnowledgeToolError, KnowledgeToolError } from '../errors/index.js';
import type { KnowledgeToolErrorBody } from '../errors/codes.js';
import type { JsonObject, KnowledgeCallContext } from '../types.js';
import type { KnowledgeToolCallOptions, KnowledgeToolResult } from './knowledgeToolDefinition.js';

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

function errorJson(error: unknown, requestId: string | undefined): KnowledgeToolErrorBody {
  if (isKnowledgeToolError(error)) {
    try {
      const json = error.toJSON();
      if (typeof json.error.code === 'string' && typeof json.error.message === 'string')
        return json as KnowledgeToolErrorBody;
    } catch {
      // A broken error object: fall through to INTERNAL.
    }
  }
  const internal = new KnowledgeToolError(
    'INTERNAL',
    'The knowledge source failed unexpectedly. Retry once; if it fails again, answer from the sources already read and report the requestId.',
    { requestId },
  );
  return internal.toJSON() as KnowledgeToolErrorBody;
}

/** `INVALID_ARGUMENT` for arguments that are not a JSON object. */
export function notAnObject(
  toolName: string,
  input: unknown,
  requestId: string | undefined,
): KnowledgeToolResult {
  return errorResult(
    new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`${toolName}\` takes a JSON object of arguments, got ${describe(input)}. Call it again with an object such as {} or {"fileId": "…"}.`,
      {
        requestId,
      },
    ),
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

/** Whether `value` is a plain object (the core's check: a JSON object, not an array, class instance or null). */
export { isPlainObject };

/** The call context of `execute`'s options: a real `AbortSignal` and a string `requestId`, nothing else. */
export function callContext(options: unknown): KnowledgeCallContext {
  if (typeof options !== 'object' || options === null) return {};
  const { signal, requestId } = options as { signal?: unknown; requestId?: unknown };
  return {
    ...(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal ? { signal } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
  };
}

/**
 * A tool's `execute`: absent arguments mean `{}`, anything but a JSON object is `INVALID_ARGUMENT`,
 * `run`'s output is the success result, and anything thrown is an error result. Never throws.
 *
 * @param name - the tool's name, for messages.
 * @param run - the tool's work, given the arguments and the call context.
 */
export function toolExecute(
  name: string,
  run: (args: Record<string, unknown>, context: KnowledgeCallContext) => Promise<JsonObject>,
): (input: unknown, options?: KnowledgeToolCallOptions) => Promise<KnowledgeToolResult> {
  return async (input, options) => {
    let requestId: string | undefined;
    try {
      const context = callContext(options);
      requestId = context.requestId;
      const args = input === undefined ? {} : input;
      if (!isPlainObject(args)) return notAnObject(name, input, requestId);
      return successResult(await run(args, context));
    } catch (error) {
      return errorResult(error, requestId);
    }
  };
}
