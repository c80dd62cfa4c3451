/** Reading `check`'s output back: the text lines, and GitHub's workflow-command escaping. */

/** One problem as a text line shows it. */
export interface ProblemLine {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly code: string;
  readonly message: string;
}

const PLACED = /^(.+):(\d+):(\d+) {2}([A-Z][A-Z_]+) {2}(.+)$/;
const UNPLACED = /^(.+?) {2}([A-Z][A-Z_]+) {2}(.+)$/;

/** Parses `file:line:column  CODE  message` (or `file  CODE  message`); `undefined` for any other line. */
export function parseProblemLine(text: string): ProblemLine | undefined {
  const placed = PLACED.exec(text);
  if (placed)
    return {
      file: placed[1]!,
      line: Number(placed[2]),
      column: Number(placed[3]),
      code: placed[4]!,
      message: placed[5]!,
    };
  const unplaced = UNPLACED.exec(text);
  if (unplaced) return { file: unplaced[1]!, code: unplaced[2]!, message: unplaced[3]! };
  return undefined;
}

/** Whether `problems` are in order of file (code units), then line, then column. */
export function isSortedByPlace(problems: readonly ProblemLine[]): boolean {
  for (let i = 1; i < problems.length; i++) {
    const a = problems[i - 1]!;
    const b = problems[i]!;
    if (a.file > b.file) return false;
    if (
      a.file === b.file &&
      ((a.line ?? 0) > (b.line ?? 0) ||
        ((a.line ?? 0) === (b.line ?? 0) && (a.column ?? 0) > (b.column ?? 0)))
    )
      return false;
  }
  return true;
}

/** GitHub's escaping of a workflow command's message: `%`, CR and LF. */
export function githubData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** GitHub's escaping of a workflow command's property value: the data escapes, and `:` and `,`. */
export function githubProperty(text: string): string {
  return githubData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
