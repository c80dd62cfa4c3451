/**
 * `--version LABEL=FOLDER` (repeatable) and `--default-version LABEL`: the versions of a knowledge
 * base given on the command line, each a folder. One parser for every command that takes them.
 */
import { versionLabelProblem } from '../agent/internals.js';
import { escapeControls } from './problems.js';

/** The option table of the two flags, for `parseCommandArgs`. */
export const VERSION_FLAGS = {
  version: { type: 'string', multiple: true },
  'default-version': { type: 'string' },
} as const;

/** One `--version LABEL=FOLDER`. */
export interface VersionFolder {
  /** The version's label (`3.x`). */
  readonly label: string;
  /** Its folder, as given. */
  readonly folder: string;
}

/** The versions the flags give. */
export interface VersionFlags {
  /** In the order given; empty when no `--version` was given. */
  readonly versions: readonly VersionFolder[];
  /** `--default-version`, else the first version's label; `undefined` without versions. */
  readonly defaultVersion: string | undefined;
}

/** What `readVersionFlags` found: the versions, or every problem (each a sentence naming the flag). */
export type VersionFlagsResult =
  | { readonly ok: true; readonly flags: VersionFlags }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Reads `--version` and `--default-version` from parsed option values (those of `VERSION_FLAGS`).
 * Pure: whether a folder exists is the command's to check. Labels `.` and `..` are refused, since a
 * label also names a folder (a static export's `versions/<label>/`).
 *
 * @param values - the parsed values: `version` (a string or strings), `default-version` (a string).
 * @returns `{ ok: true, flags }`, or `{ ok: false, problems }` with one sentence per problem, without
 *   the command's name (the caller prefixes `knowledge-kit <command>: `).
 * @example
 * ```ts
 * readVersionFlags({ version: ['3.x=./docs', '2.x=./docs-2'], 'default-version': '3.x' });
 * // { ok: true, flags: { versions: [{ label: '3.x', folder: './docs' }, …], defaultVersion: '3.x' } }
 * ```
 */
export function readVersionFlags(values: {
  readonly version?: unknown;
  readonly 'default-version'?: unknown;
}): VersionFlagsResult {
  const given = values.version;
  const texts = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const problems: string[] = [];
  const versions: VersionFolder[] = [];
  for (const text of texts) {
    const equals = text.indexOf('=');
    if (equals <= 0 || equals === text.length - 1) {
      problems.push(
        `--version takes LABEL=FOLDER, such as \`--version 3.x=./docs\`, not \`${escapeControls(text)}\`.`,
      );
      continue;
    }
    const label = text.slice(0, equals);
    const problem =
      label === '.' || label === '..'
        ? 'a version label is not `.` or `..` (it names a folder)'
        : versionLabelProblem(label);
    if (problem !== undefined) {
      problems.push(
        `--version ${JSON.stringify(escapeControls(label))}: ${problem}; use a label such as 3.x, v2 or 2026-10.`,
      );
      continue;
    }
    if (versions.some((version) => version.label === label)) {
      problems.push(
        `--version ${label} is given twice; give each version once, with its own folder.`,
      );
      continue;
    }
    versions.push({ label, folder: text.slice(equals + 1) });
  }
  const named = values['default-version'];
  let defaultVersion = versions[0]?.label;
  if (named !== undefined) {
    const label = String(named);
    if (texts.length === 0)
      problems.push(
        `--default-version ${escapeControls(label)} needs the versions: give each as --version LABEL=FOLDER.`,
      );
    else if (!versions.some((version) => version.label === label))
      problems.push(
        `--default-version ${escapeControls(label)} is not one of the versions (${versions.map((version) => version.label).join(', ')}); name one of them.`,
      );
    else defaultVersion = label;
  }
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, flags: { versions, defaultVersion } };
}
