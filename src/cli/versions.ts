/**
 * `--version LABEL=FOLDER` (repeatable) and `--default-version LABEL` of the commands that read
 * knowledge: versions of a knowledge base, each a folder. `serve` and `mcp` serve every version;
 * `search`, `read` and `outline` read one, named by a `--version LABEL` without a folder (the default
 * version when none is named). A plain folder has one version, `current`.
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

/** One `--version LABEL=FOLDER`. */
export interface VersionFolder {
  readonly label: string;
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

/** The commands that read one version (`--version LABEL`) rather than serve them all. */
const READERS: ReadonlySet<SourceCommand> = new Set(['search', 'read', 'outline']);

/** An example command line of `command` with two folder versions, for messages. */
function example(command: SourceCommand): string {
  const rest =
    command === 'search' ? ' --version 2.x "return window"' : command === 'read' ? ' returns' : '';
  return `knowledge-kit ${command} --version 3.x=./docs --version 2.x=./docs-v2${rest}`;
}

/** `` `a`, `b` `` of labels. */
function listed(labels: readonly string[]): string {
  return labels.map((label) => `\`${label}\``).join(', ');
}

/**
 * Reads `--version` and `--default-version` of `command`: each `LABEL=FOLDER` checked (a valid label,
 * given once, a folder that exists), `LABEL` alone only where a command reads one version, and
 * `--default-version` among the labels.
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
  const given = values['version'];
  const texts = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const folders: VersionFolder[] = [];
  let read: string | undefined;
  const fail = (message: string): never => {
    throw new CliExit(`knowledge-kit ${command}: ${message}`);
  };
  const checkLabel = (label: string, flag: string): void => {
    const problem = versionLabelProblem(label);
    if (problem !== undefined)
      fail(
        `${flag} ${escapeControls(JSON.stringify(label))}: ${problem}; name versions like 3.x, v2 or 2026-10.`,
      );
  };
  for (const text of texts) {
    const equals = text.indexOf('=');
    if (equals < 0) {
      if (!READERS.has(command))
        fail(
          `--version takes LABEL=FOLDER, such as \`--version 3.x=./docs\` (repeat it for each version), not \`${escapeControls(text)}\`.`,
        );
      checkLabel(text, '--version');
      if (read !== undefined && read !== text)
        fail(
          `--version ${read} and --version ${text} both name the version to read; give one (\`--version LABEL=FOLDER\` gives a version's folder).`,
        );
      read = text;
      continue;
    }
    const label = text.slice(0, equals);
    const dir = text.slice(equals + 1);
    if (label === '')
      fail(
        `--version takes LABEL=FOLDER, such as \`--version 3.x=./docs\`, not \`${escapeControls(text)}\`: the label is missing.`,
      );
    checkLabel(label, '--version');
    if (dir === '')
      fail(
        `--version ${label}= names no folder: give the version's folder after \`=\`, such as \`--version ${label}=./docs\`.`,
      );
    if (folders.some((version) => version.label === label))
      fail(`--version ${label} is given twice; give each version once, with its own folder.`);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      fail(
        `--version ${label}=${escapeControls(dir)}: ${existsSync(dir) ? 'is not a folder' : 'no such folder'}; give the folder of version \`${label}\`'s Markdown files.`,
      );
    folders.push({ label, dir });
  }
  const named = values['default-version'];
  let defaultVersion: string | undefined;
  if (typeof named === 'string') {
    if (folders.length === 0)
      fail(
        `--default-version names one of the versions given with --version LABEL=FOLDER, and none is given; such as \`${example(command)} --default-version 3.x\`.`,
      );
    checkLabel(named, '--default-version');
    if (!folders.some((version) => version.label === named))
      fail(
        `--default-version ${named} is not one of the versions given (${listed(folders.map((version) => version.label))}); name one of them, or leave it out for the first.`,
      );
    defaultVersion = named;
  } else if (folders.length > 0) defaultVersion = folders[0]!.label;
  if (folders.length > 0 && folderGiven)
    fail(
      `--version LABEL=FOLDER names each version's folder: drop the folder argument, or drop --version to read the one folder (such as \`${example(command)}\`).`,
    );
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
