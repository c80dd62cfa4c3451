/**
 * The six methods every `KnowledgeSource` has, and the one check of them that exploration and the
 * HTTP handler use on what the app hands them.
 *
 * @module
 */

/** The six read methods of a `KnowledgeSource` (`warm` is optional). */
export const KNOWLEDGE_SOURCE_METHODS = [
  'listTree',
  'getFile',
  'readFile',
  'searchFiles',
  'readRelated',
  'expandGraph',
] as const;

/**
 * The first `KnowledgeSource` method `value` lacks, for an error message; `undefined` when it has all six.
 *
 * @param value - anything the app passed as a source.
 */
export function missingSourceMethod(
  value: unknown,
): (typeof KNOWLEDGE_SOURCE_METHODS)[number] | undefined {
  for (const method of KNOWLEDGE_SOURCE_METHODS) {
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as Record<string, unknown>)[method] !== 'function'
    )
      return method;
  }
  return undefined;
}
