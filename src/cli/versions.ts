/**
 * `--version LABEL=FOLDER` (repeatable) and `--default-version LABEL` of the commands that read
 * knowledge: versions of a knowledge base, each a folder. `serve` and `mcp` serve every version;
 * `search`, `read` and `outline` read one, named by a `--version LABEL` without a folder (the default
 * version when none is named). A plain folder has one version, `current`. The one parser of these
 * flags (`readVersionFlags`, and `versionFlag` for the database commands' one label) and the one check of their folders (`versionFolderProblems`), for these
 * commands and `export` and `diff` too.
 */
import { existsSync, statSync } from 'node:fs';
import {
  DEFAULT_VERSION_LABEL,
  versionLabelProblem,
  versionNotFound,
  type VersionListed,
} from '../agent/internals.js';
import { CliExit } from './io.js';
import type { SourceCommand } from './flags.js';
import { escapeControls } from './problems.js';

/** The option table of `--version` (repeatable) and `--default-version`, for `parseCommandArgs`. */
export const VERSION_FLAGS = {
  version: { type: 'string', multiple: true },
  'default-version': { type: 'string' },
} as const;

/** One `--version LABEL=FOLDER`. */
export interface VersionFolder {
  /** The version's label (`3.x`). */
  readonly label: string;
  /** Its folder, as given. */
  readonly dir: string;
}

/** What `--version` and `--default-version` say. */
export interface VersionArgs {
  /** The `--version LABEL=FOLDER` flags, in the order given (none for a plain folder). */
  readonly folders: readonly VersionFolder[];
  /** The version a call that names none reads: `--default-version`, else the first folder's. */
  readonly defaultVersion: string | undefined;
  /** `--version LABEL` without a folder (`search`, `read`, `outline`): the version to read. */
  readonly read: string | undefined;
}

/** What `readVersionFlags` read: the versions, and every problem found (none when they are right). */
export interface VersionFlagsRead extends VersionArgs {
  /**
   * One sentence per problem, in the order of the command line, each naming its flag and the fix,
   * without the command's name (the caller prefixes `knowledge-kit <command>: `).
   */
  readonly problems: readonly string[];
}

/** The commands that read one version (`--version LABEL`) rather than serve them all. */
const READERS: ReadonlySet<SourceCommand> = new Set(['search', 'read', 'outline']);

/** What each command adds after its versions in an example command line. */
const EXAMPLE_REST: Readonly<Record<string, string>> = {
  search: ' --version 2.x "return window"',
  read: ' returns',
  export: ' --out ./public/kb',
};

/** An example command line of `command` with two folder versions, for messages. */
function example(command: string): string {
  return `knowledge-kit ${command} --version 3.x=./docs --version 2.x=./docs-v2${EXAMPLE_REST[command] ?? ''}`;
}

/** `` `a`, `b` `` of labels. */
function listed(labels: readonly string[]): string {
  return labels.map((label) => `\`${label}\``).join(', ');
}

/** The problem of `label` given to `flag`, or `undefined` for a valid label: the one message of it. */
function labelProblem(label: string, flag: string): string | undefined {
  const problem = versionLabelProblem(label);
  return problem === undefined
    ? undefined
    : `${flag} ${escapeControls(JSON.stringify(label))}: ${problem}; name versions like 3.x, v2 or 2026-10.`;
}

/**
 * Reads `--version` and `--default-version` from parsed option values (those of `VERSION_FLAGS`): each
 * `LABEL=FOLDER` with a valid label (`versionLabelProblem`), given once, and a folder named; `LABEL`
 * alone only where `labelAlone` (the commands that read one version), once; `--default-version` among
 * the labels. Pure: whether each folder exists is `versionFolderProblems`'s to say. The one parser of
 * these flags, for every command that takes them.
 *
 * @param values - the parsed values: `version` (a string or strings), `default-version` (a string).
 * @param labelAlone - whether `--version LABEL` without a folder names the version to read.
 * @returns the versions read (a refused one left out) and every problem, in the order given.
 * @example
 * ```ts
 * readVersionFlags({ version: ['3.x=./docs', '2.x=./docs-2'], 'default-version': '3.x' }, false);
 * // { folders: [{ label: '3.x', dir: './docs' }, …], defaultVersion: '3.x', read: undefined, problems: [] }
 * ```
 */
export function readVersionFlags(
  values: { readonly [name: string]: unknown },
  labelAlone: boolean,
): VersionFlagsRead {
  const given = values['version'];
  const texts = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const folders: VersionFolder[] = [];
  const problems: string[] = [];
  let read: string | undefined;
  for (const text of texts) {
    const equals = text.indexOf('=');
    if (equals < 0) {
      const problem = labelAlone
        ? labelProblem(text, '--version')
        : `--version takes LABEL=FOLDER, such as \`--version 3.x=./docs\` (repeat it for each version), not \`${escapeControls(text)}\`.`;
      if (problem !== undefined) problems.push(problem);
      else if (read !== undefined && read !== text)
        problems.push(
          `--version ${read} and --version ${text} both name the version to read; give one (\`--version LABEL=FOLDER\` gives a version's folder).`,
        );
      else read = text;
      continue;
    }
    const label = text.slice(0, equals);
    const dir = text.slice(equals + 1);
    const problem =
      label === ''
        ? `--version takes LABEL=FOLDER, such as \`--version 3.x=./docs\`, not \`${escapeControls(text)}\`: the label is missing.`
        : (labelProblem(label, '--version') ??
          (dir === ''
            ? `--version ${label}= names no folder: give the version's folder after \`=\`, such as \`--version ${label}=./docs\`.`
            : folders.some((version) => version.label === label)
              ? `--version ${label} is given twice; give each version once, with its own folder.`
              : undefined));
    if (problem !== undefined) problems.push(problem);
    else folders.push({ label, dir });
  }
  const named = values['default-version'];
  let defaultVersion = folders[0]?.label;
  // Without a version read (none given, or every one refused already), the default names nothing.
  if (named !== undefined && (folders.length > 0 || problems.length === 0)) {
    const label = String(named);
    const problem =
      folders.length === 0
        ? '--default-version names one of the versions given with --version LABEL=FOLDER, and none is given; such as `--version 3.x=./docs --version 2.x=./docs-v2 --default-version 3.x`.'
        : (labelProblem(label, '--default-version') ??
          (folders.some((version) => version.label === label)
            ? undefined
            : `--default-version ${escapeControls(label)} is not one of the versions given (${listed(folders.map((version) => version.label))}); name one of them, or leave it out for the first.`));
    if (problem !== undefined) problems.push(problem);
    else defaultVersion = label;
  }
  return { folders, defaultVersion, read, problems };
}

/**
 * The label of a one-label version flag (`--version LABEL`, `--default-version LABEL`) of a database
 * command (`publish`, `unpublish`, `versions`), checked with the message of `readVersionFlags`.
 *
 * @param command - the command, for messages.
 * @param flag - the flag's name, without dashes.
 * @param value - what was given (`undefined` when absent).
 * @returns the label, or `undefined` when the flag was not given.
 * @throws {CliExit} exit 2 for a value that is not a version label, naming the flag and the fix.
 */
export function versionFlag(command: string, flag: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const label = String(value);
  const problem = labelProblem(label, `--${flag}`);
  if (problem === undefined) return label;
  throw new CliExit(`knowledge-kit ${command}: ${problem}`);
}

/**
 * What is wrong with each version's folder: one that does not exist or is not a folder, a sentence
 * each (without the command's name), in the order given.
 *
 * @param folders - the versions read by `readVersionFlags`.
 * @returns the problems; none when every folder is one.
 */
export function versionFolderProblems(folders: readonly VersionFolder[]): string[] {
  const problems: string[] = [];
  for (const { label, dir } of folders)
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      problems.push(
        `--version ${label}=${escapeControls(dir)}: ${existsSync(dir) ? 'is not a folder' : 'no such folder'}; give the folder of version \`${label}\`'s Markdown files.`,
      );
  return problems;
}

/**
 * The refusal of a folder argument given with `--version LABEL=FOLDER`, which replaces it.
 *
 * @param command - the command, for the message and its example.
 * @returns the exit to throw (exit 2).
 */
export function versionsWithFolder(command: string): CliExit {
  return new CliExit(
    `knowledge-kit ${command}: --version LABEL=FOLDER names each version's folder: drop the folder argument, or drop --version to read the one folder (such as \`${example(command)}\`).`,
  );
}

/**
 * Reads `--version` and `--default-version` of `command` (`readVersionFlags`, then each folder checked
 * with `versionFolderProblems`), refusing the first problem; `LABEL` alone only where a command reads
 * one version.
 *
 * @param command - the command, for messages.
 * @param values - the parsed command line.
 * @param folderGiven - whether a folder argument was given too (which `--version LABEL=FOLDER` replaces).
 * @returns the versions; no folders for a plain folder.
 * @throws {CliExit} exit 2, naming the flag and the fix.
 */
export function versionArgs(
  command: SourceCommand,
  values: { readonly [name: string]: unknown },
  folderGiven: boolean,
): VersionArgs {
  const { folders, defaultVersion, read, problems } = readVersionFlags(
    values,
    READERS.has(command),
  );
  const first = problems[0] ?? versionFolderProblems(folders)[0];
  if (first !== undefined) throw new CliExit(`knowledge-kit ${command}: ${first}`);
  if (folders.length > 0 && folderGiven) throw versionsWithFolder(command);
  return { folders, defaultVersion, read };
}

/**
 * The refusal of a `--version` a knowledge base does not have, as the command prints a tool's error:
 * `knowledge-kit <command>: VERSION_NOT_FOUND: …`, listing its versions (exit 2, as `NOT_FOUND`).
 *
 * @param command - the command.
 * @param tool - the tool the command calls, for the message.
 * @param asked - the label asked for.
 * @param versions - the versions there are, the default marked.
 * @returns the exit to throw.
 */
export function versionRefused(
  command: SourceCommand,
  tool: string,
  asked: string,
  versions: readonly VersionListed[],
): CliExit {
  return new CliExit(
    `knowledge-kit ${command}: VERSION_NOT_FOUND: ${versionNotFound(tool, asked, versions).message} (On the command line: \`--version LABEL\`.)`,
  );
}

/** The tool each reading command calls first, named in a refusal. */
export const READ_TOOL: Readonly<Record<SourceCommand, string>> = {
  serve: 'list_tree',
  mcp: 'list_tree',
  search: 'search_files',
  read: 'read_file',
  outline: 'list_tree',
};

/** The one version of a plain folder: `current`. */
export const FOLDER_VERSION = DEFAULT_VERSION_LABEL;
