import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';

/** Throw one `KnowledgeError` carrying every issue, if there are any. */
export function throwIfIssues(issues: readonly KnowledgeIssue[]): void {
  if (issues.length > 0) throwIssues(issues);
}

/** Throw one `KnowledgeError` carrying a single issue. */
export function fail(issue: KnowledgeIssue): never {
  return throwIssues([issue]);
}

/**
 * Throw one `KnowledgeError` carrying `issues` (at least one; an array, never spread into arguments,
 * which would overflow for a text with a million problems). The issues are the library's own, so they
 * are frozen in place rather than copied.
 */
export function throwIssues(issues: readonly KnowledgeIssue[]): never {
  for (const issue of issues) {
    if (issue.path) Object.freeze(issue.path);
    if (issue.related) Object.freeze(issue.related);
    if (issue.suggestions) Object.freeze(issue.suggestions);
    Object.freeze(issue);
  }
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
