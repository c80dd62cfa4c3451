import { KnowledgeError } from './KnowledgeError.js';

/**
 * Type guard for errors thrown by Knowledge Kit.
 *
 * @param value - anything caught.
 * @returns `true` when `value` is a {@link KnowledgeError}.
 * @example
 * ```ts
 * catch (error) { if (isKnowledgeError(error) && error.code === 'MAX_CHARS_EXCEEDED') … }
 * ```
 */
export function isKnowledgeError(value: unknown): value is KnowledgeError {
  return value instanceof KnowledgeError;
}
