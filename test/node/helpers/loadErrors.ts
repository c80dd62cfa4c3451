/** Checking the `KnowledgeError`s of `knowledge-kit/node`: code, file, line, column and message prefix. */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { isKnowledgeError, type KnowledgeError, type KnowledgeIssue } from '../../../src/index.js';

/** Awaits `promise`, expects it to reject with a `KnowledgeError`, and returns the error. */
export async function catchLoadError(promise: Promise<unknown>): Promise<KnowledgeError> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    if (isKnowledgeError(error)) return error;
    throw new Error(`expected a KnowledgeError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a KnowledgeError, but it resolved to ${typeof result}`);
}

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

/** The 1-based line and UTF-16 column of index `at` in `text`, counting LF, CRLF and a lone CR as line ends. */
export function placeAt(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

/** The place of the first `needle` in `text`, plus `shift` code units (to point inside the needle). */
export function placeOf(text: string, needle: string, shift = 0): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`placeOf: ${JSON.stringify(needle)} is not in the text`);
  return placeAt(text, at + shift);
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
