/**
 * On the parser's error path only: an unmatched anchor whose pair is inside a fenced code block (code,
 * so not an anchor) is explained by naming that line and the fence's opener. A second scan of the text
 * finds the anchor lines inside fences; the first scan never pays for it.
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import type { FencedPair } from './parseIssues.js';
import { OPEN, scanText } from './scanText.js';

/** An issue whose explanation may lie in a fence: its ID, its line, and how to rebuild it. */
export interface PairingProblem {
  readonly issue: KnowledgeIssue;
  readonly id: string;
  readonly line: number;
  /** `open`: the issue is at a close, look for its open before it; `close`: the other way round. */
  readonly wants: 'open' | 'close';
  readonly rebuild: (pair: FencedPair) => KnowledgeIssue;
}

/**
 * `issues` with each of `problems` whose pair is inside a fence rebuilt to say so. Linear in the text,
 * plus a binary search per problem.
 */
export function explainFencedPairs(
  text: string,
  issues: readonly KnowledgeIssue[],
  problems: readonly PairingProblem[],
): readonly KnowledgeIssue[] {
  const opens = new Map<string, FencedPair[]>();
  const closes = new Map<string, FencedPair[]>();
  scanText(
    text,
    () => {},
    undefined,
    (kind, id, line, fenceLine) => {
      const byId = kind === OPEN ? opens : closes;
      let list = byId.get(id);
      if (list === undefined) byId.set(id, (list = []));
      list.push({ line, fenceLine });
    },
  );
  if (opens.size === 0 && closes.size === 0) return issues;
  const replaced = new Map<KnowledgeIssue, KnowledgeIssue>();
  for (const problem of problems) {
    const pair =
      problem.wants === 'open'
        ? lastBefore(opens.get(problem.id), problem.line)
        : firstAfter(closes.get(problem.id), problem.line);
    if (pair !== undefined) replaced.set(problem.issue, problem.rebuild(pair));
  }
  return replaced.size === 0 ? issues : issues.map((issue) => replaced.get(issue) ?? issue);
}

/** The last of `list` (in line order) before `line`. */
function lastBefore(list: readonly FencedPair[] | undefined, line: number): FencedPair | undefined {
  if (list === undefined) return undefined;
  const i = firstAtOrAfter(list, line);
  return i === 0 ? undefined : list[i - 1];
}

/** The first of `list` (in line order) after `line`. */
function firstAfter(list: readonly FencedPair[] | undefined, line: number): FencedPair | undefined {
  return list === undefined ? undefined : list[firstAtOrAfter(list, line + 1)];
}

/** The index of the first of `list` on `line` or later (`list.length` when none). */
function firstAtOrAfter(list: readonly FencedPair[], line: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
