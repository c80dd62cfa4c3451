import type { KnowledgeErrorCode, KnowledgeIssue } from './codes.js';

/** How many issues the message lists before it points to `error.issues` for the rest. */
const LISTED_ISSUES = 20;

/**
 * The one error Knowledge Kit throws. It carries every problem found, not just the first.
 *
 * @example
 * ```ts
 * try {
 *   parseKnowledgeDocument({ id: 'guide', revision: 'r1', text });
 * } catch (error) {
 *   if (isKnowledgeError(error)) for (const issue of error.issues) console.log(issue.line, issue.code);
 * }
 * ```
 */
export class KnowledgeError extends Error {
  override readonly name = 'KnowledgeError';
  /** The first issue's code. */
  readonly code: KnowledgeErrorCode;
  /** Every problem found, in input or text order. Never empty; deep-frozen copies. */
  readonly issues: readonly KnowledgeIssue[];

  /**
   * @param issues - at least one issue; each is copied and frozen unless it is deeply frozen already.
   * @param options - `cause`, as for `Error`.
   * @throws {TypeError} when `issues` is empty.
   */
  constructor(issues: readonly KnowledgeIssue[], options?: { readonly cause?: unknown }) {
    const first = issues[0];
    if (first === undefined) throw new TypeError('KnowledgeError needs at least one issue');
    super(summarize(issues), options);
    this.code = first.code;
    this.issues = Object.freeze(issues.map(freezeIssue));
  }
}

/** A frozen copy of `issue`, or `issue` itself when it is already deeply frozen (as the library's own are). */
function freezeIssue(issue: KnowledgeIssue): KnowledgeIssue {
  const frozen = (value: object | undefined): boolean =>
    value === undefined || Object.isFrozen(value);
  if (
    Object.isFrozen(issue) &&
    frozen(issue.path) &&
    frozen(issue.related) &&
    frozen(issue.suggestions)
  )
    return issue;
  const copy: { -readonly [K in keyof KnowledgeIssue]: KnowledgeIssue[K] } = { ...issue };
  if (issue.path) copy.path = Object.freeze([...issue.path]);
  if (issue.related) copy.related = Object.freeze({ ...issue.related });
  if (issue.suggestions) copy.suggestions = Object.freeze([...issue.suggestions]);
  return Object.freeze(copy);
}

function summarize(issues: readonly KnowledgeIssue[]): string {
  if (issues.length === 1) return issues[0]!.message;
  const lines = [`${issues.length} problems:`];
  const listed = Math.min(issues.length, LISTED_ISSUES);
  for (let i = 0; i < listed; i++) lines.push(`  - ${issues[i]!.message}`);
  if (issues.length > listed)
    lines.push(`  … and ${issues.length - listed} more: see \`error.issues\`.`);
  return lines.join('\n');
}
