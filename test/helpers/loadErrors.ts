/** Checking the `KnowledgeError`s of `knowledge-kit/node`: code, file, line, column and message prefix. */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { KnowledgeIssue } from '../../src/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { catchKnowledgeError } from './knowledgeError.js';

/** A place in a file: the file relative to the folder, a 1-based line and a 1-based UTF-16 column. */
export interface FilePlace {
  readonly code: KnowledgeIssue['code'];
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Expects `issue` to have `expected`'s code and place, and a message starting with `file:line:column: `. */
export function expectPlacedIssue(issue: KnowledgeIssue | undefined, expected: FilePlace): void {
  expect(issue).toMatchObject(expected);
  expect(
    issue?.message.startsWith(`${expected.file}:${expected.line}:${expected.column}: `),
    issue?.message,
  ).toBe(true);
}

/** `sha256:` and the hex SHA-256 of `bytes`. */
export function sha256Revision(bytes: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Issues ordered by file (UTF-16 code units), then line, then column. */
export function sortedIssues(issues: readonly KnowledgeIssue[]): KnowledgeIssue[] {
  const units = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...issues].sort(
    (a, b) =>
      units(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** The issues of a folder's load that must fail. */
export async function loadIssues(
  dir: string,
  options?: Parameters<typeof loadKnowledgeDirectory>[1],
): Promise<readonly KnowledgeIssue[]> {
  return (await catchKnowledgeError(loadKnowledgeDirectory(dir, options))).issues;
}
