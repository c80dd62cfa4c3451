/**
 * Version labels: what names one version of a knowledge base (`3.x`, `v2`, `2026-10`).
 *
 * @module
 */

/** The longest label, in characters. */
export const MAX_VERSION_LABEL_LENGTH = 64;

/** The label of a knowledge base's one version when nothing names it. */
export const DEFAULT_VERSION_LABEL = 'current';

/** Whether `code` is one of `A–Z a–z 0–9 . _ -`. */
function isLabelChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x2d // -
  );
}

/**
 * What is wrong with `label` as a version label, or `undefined` when it is one: 1 to 64 characters of
 * `A–Z a–z 0–9 . _ -`, other than `.` and `..` (a label names a folder and a URI path segment).
 *
 * @param label - the value to check.
 * @returns a sentence naming the problem (for an error message), or `undefined`.
 * @example
 * ```ts
 * versionLabelProblem('3.x'); // undefined
 * versionLabelProblem('3 x'); // 'character 2 (" ") is not one of A–Z a–z 0–9 . _ -'
 * ```
 */
export function versionLabelProblem(label: unknown): string | undefined {
  if (typeof label !== 'string') return `a version label is a string, not ${typeof label}`;
  if (label.length === 0) return 'a version label is not empty';
  // A label names a folder (`versions/<label>/` of a static export) and a URI segment.
  if (label === '.' || label === '..') return `a version label is not \`${label}\``;
  if (label.length > MAX_VERSION_LABEL_LENGTH)
    return `a version label is at most ${MAX_VERSION_LABEL_LENGTH} characters, not ${label.length}`;
  for (let i = 0; i < label.length; i++) {
    const code = label.charCodeAt(i);
    if (!isLabelChar(code))
      return `character ${i + 1} (${JSON.stringify(String.fromCodePoint(label.codePointAt(i)!))}) is not one of A–Z a–z 0–9 . _ -`;
  }
  return undefined;
}
