import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';

/** Throw one `KnowledgeError` carrying every issue, if there are any. */
export function throwIfIssues(issues: readonly KnowledgeIssue[]): void {
  if (issues.length > 0) throw new KnowledgeError(issues);
}

/** Throw one `KnowledgeError` carrying `issues` (at least one). */
export function fail(...issues: KnowledgeIssue[]): never {
  throw new KnowledgeError(issues);
}

/**
 * Run `fn`, turning anything but a `KnowledgeError` that escapes while reading caller input (a getter
 * or proxy that throws, say) into `INVALID_INPUT` with the original as `cause`: callers only ever
 * have to handle `KnowledgeError`.
 */
export function guardInput<T>(api: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof KnowledgeError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new KnowledgeError(
      [
        {
          code: 'INVALID_INPUT',
          message: `${api}: reading the input threw (${detail}). Pass plain data: objects, arrays and strings without getters or proxies.`,
        },
      ],
      { cause: error },
    );
  }
}
