/**
 * Problems as the command line prints them: `file:line:column  CODE  message` for people, one JSON
 * object for machines, and GitHub Actions workflow commands for pull-request annotations.
 */
import { posix } from 'node:path';
import type { KnowledgeIssue } from '../errors/codes.js';
import { CR, DEL, LF, LINE_SEPARATOR, PARAGRAPH_SEPARATOR, SPACE, TAB } from '../markdown/chars.js';

/** One problem with the file as the user named it (relative to the working folder when they did). */
export interface Problem {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly code: string;
  /** The message without the `file:line:column: ` it starts with. */
  readonly message: string;
  readonly issue: KnowledgeIssue;
}

/** The three output formats of `check`. */
export type ProblemFormat = 'text' | 'json' | 'github';

/**
 * The problems of one loaded folder, with files shown under `shownAs` (the folder as the user gave it).
 *
 * @param issues - the loader's issues, each with `file` relative to the folder.
 * @param shownAs - the folder argument, such as `./knowledge`.
 */
export function toProblems(issues: readonly KnowledgeIssue[], shownAs: string): Problem[] {
  const base = shownAs.split('\\').join('/');
  return issues.map((issue) => {
    const file =
      issue.file === undefined
        ? posix.normalize(base)
        : posix.isAbsolute(issue.file)
          ? issue.file
          : posix.join(base, issue.file);
    let message = issue.message;
    const prefix =
      issue.file === undefined
        ? undefined
        : issue.line === undefined
          ? `${issue.file}: `
          : `${issue.file}:${issue.line}:${issue.column ?? 1}: `;
    if (prefix !== undefined && message.startsWith(prefix)) message = message.slice(prefix.length);
    return {
      file,
      line: issue.line,
      column: issue.line === undefined ? undefined : (issue.column ?? 1),
      code: issue.code,
      message,
      issue,
    };
  });
}

/** `file:line:column` of a problem, or just `file` when it has no place in the text. */
export function placeOf(problem: Problem): string {
  return problem.line === undefined
    ? problem.file
    : `${problem.file}:${problem.line}:${problem.column ?? 1}`;
}

/**
 * `text` with every control character but the tab written as an escape (`\n`, `\r`, `\x1b`,
 * `\u2028`…), so that a file name or a quoted line can neither end the output line (and start, say, a
 * GitHub workflow command `::warning …` of its own) nor send a terminal escape sequence.
 */
export function escapeControls(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      !(c < SPACE
        ? c !== TAB
        : (c >= DEL && c <= 0x9f) /* DEL and the C1 controls */ ||
          c === LINE_SEPARATOR ||
          c === PARAGRAPH_SEPARATOR)
    )
      continue;
    out += text.slice(from, i);
    out +=
      c === LF
        ? '\\n'
        : c === CR
          ? '\\r'
          : c <= 0xff
            ? `\\x${c.toString(16).padStart(2, '0')}`
            : `\\u${c.toString(16)}`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The line `file:line:column  CODE  message`, control characters escaped (`escapeControls`). */
export function textLine(problem: Problem): string {
  return escapeControls(`${placeOf(problem)}  ${problem.code}  ${problem.message}`);
}

/** Escapes data of a GitHub workflow command (`%`, CR, LF). */
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escapes a property of a GitHub workflow command (also `:` and `,`). */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** The workflow command `::error file=…,line=…,col=…,title=CODE::message`. */
export function githubLine(problem: Problem): string {
  const properties = [`file=${escapeProperty(problem.file)}`];
  if (problem.line !== undefined)
    properties.push(`line=${problem.line}`, `col=${problem.column ?? 1}`);
  properties.push(`title=${escapeProperty(problem.code)}`);
  return `::error ${properties.join(',')}::${escapeData(`${problem.code}: ${problem.message}`)}`;
}

/** The plain-data form of a problem, for `--format json`. */
export function problemJson(problem: Problem): Record<string, unknown> {
  const { issue } = problem;
  const out: Record<string, unknown> = { file: problem.file };
  if (problem.line !== undefined)
    Object.assign(out, { line: problem.line, column: problem.column });
  Object.assign(out, { code: problem.code, message: problem.message });
  for (const key of [
    'documentId',
    'sectionId',
    'related',
    'suggestions',
    'actual',
    'limit',
  ] as const) {
    if (issue[key] !== undefined) out[key] = issue[key];
  }
  return out;
}

/** Sorts problems by file, line and column (code-unit order of files), stably. */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** `n thing` or `n things`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
