/**
 * `knowledge-kit diff --version A=DIR --version B=DIR [A B]`: what changed between two versions of a
 * knowledge base, each a folder: pages by path, and a changed page's sections and headings.
 */
import { createCatalogSource, type KnowledgeSource } from '../../agent/index.js';
import {
  diffSources,
  type KnowledgePartChanges,
  type KnowledgeVersionDiff,
  versionLabelProblem,
} from '../../agent/internals.js';
import { parseCommandArgs, type ParsedArgs } from '../args.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';
import { knowledgeBaseId, loadFolder } from '../folder.js';
import { DIFF_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { escapeControls } from '../problems.js';
import {
  readVersionFlags,
  VERSION_FLAGS,
  versionFolderProblems,
  type VersionFolder,
} from '../versions.js';

/** `a, b` of a list of IDs, with a sign before each. */
function signed(sign: string, ids: readonly string[]): string[] {
  return ids.map((id) => `${sign} ${escapeControls(id)}`);
}

/** One line of a changed page's parts (`sections: ~ a, + b`), or none when nothing changed. */
function partsLine(name: string, changes: KnowledgePartChanges): string[] {
  const all = [
    ...signed('+', changes.added),
    ...signed('-', changes.removed),
    ...signed('~', changes.changed),
  ];
  return all.length === 0 ? [] : [`    ${name}: ${all.join(', ')}`];
}

/** The differences as lines for a person: a summary, then `+`, `-` and `~` pages. */
export function diffText(diff: KnowledgeVersionDiff): string {
  const pages = (n: number) => `${n} ${n === 1 ? 'page' : 'pages'}`;
  const lines = [
    `${diff.from} → ${diff.to}: ${pages(diff.added.length)} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.unchanged} unchanged`,
    ...signed('+', diff.added),
    ...signed('-', diff.removed),
  ];
  for (const page of diff.changed) {
    lines.push(`~ ${escapeControls(page.path)}${page.frontmatterChanged ? ' (front matter)' : ''}`);
    lines.push(...partsLine('sections', page.sections), ...partsLine('headings', page.headings));
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `diff`. */
export async function diff(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'diff',
    argv,
    {
      version: VERSION_FLAGS.version,
      database: { type: 'string' },
      kb: { type: 'string' },
      schema: { type: 'string' },
      json: { type: 'boolean' },
      'exit-code': { type: 'boolean' },
      ...FOLDER_GLOB_OPTIONS,
    },
    2,
  );
  if (values['help'] === true) {
    io.stdout.write(`${DIFF_HELP}\n`);
    return EXIT.ok;
  }
  const given = values['version'];
  if (typeof values['database'] === 'string') return diffStore(values, positionals, given, io);
  const { folders: versions, problems } = readVersionFlags(values, false);
  if (problems.length > 0) throw new CliExit(`knowledge-kit diff: ${problems[0]!}`);
  if (versions.length < 2)
    throw new CliExit(
      'knowledge-kit diff: needs two versions, each `--version LABEL=FOLDER`, such as `knowledge-kit diff --version 2.x=./docs-v2 --version 3.x=./docs`. Run `knowledge-kit diff --help`.',
    );
  if (positionals.length === 1)
    throw new CliExit(
      `knowledge-kit diff: name both versions to compare, older first (such as \`${versions[0]!.label} ${versions[1]!.label}\`), or neither.`,
    );
  if (positionals.length === 0 && versions.length > 2)
    throw new CliExit(
      `knowledge-kit diff: ${versions.length} versions are given: name the two to compare, older first (such as \`${versions[0]!.label} ${versions[1]!.label}\`).`,
    );
  const [fromLabel, toLabel] =
    positionals.length === 2
      ? [positionals[0]!, positionals[1]!]
      : [versions[0]!.label, versions[1]!.label];
  const named = (label: string): VersionFolder => {
    const found = versions.find((version) => version.label === label);
    if (found === undefined)
      throw new CliExit(
        `knowledge-kit diff: no version \`${escapeControls(label)}\`; the versions given are ${versions.map((v) => `\`${v.label}\``).join(', ')}.`,
      );
    return found;
  };
  const from = named(fromLabel);
  const to = named(toLabel);
  const missing = versionFolderProblems(from === to ? [from] : [from, to])[0];
  if (missing !== undefined) throw new CliExit(`knowledge-kit diff: ${missing}`);
  const globs = folderGlobs(values);
  const open = async (version: VersionFolder): Promise<KnowledgeSource> => {
    const loaded = await loadFolder('diff', version.dir, io, globs);
    return createCatalogSource(loaded.catalog, {
      id: knowledgeBaseId(version.dir, undefined),
      files: loaded.files,
      linkRoot: loaded.linkRoot,
    });
  };
  const result = await diffSources(
    { label: from.label, source: await open(from) },
    { label: to.label, source: await open(to) },
  );
  return printDiff(result, values, io);
}

/** Print `result` as text or JSON; the exit code. */
function printDiff(result: KnowledgeVersionDiff, values: ParsedArgs['values'], io: CliIo): number {
  io.stdout.write(
    values['json'] === true ? `${JSON.stringify(result, null, 2)}\n` : diffText(result),
  );
  const differs = result.added.length + result.removed.length + result.changed.length > 0;
  return values['exit-code'] === true && differs ? EXIT.problems : EXIT.ok;
}

/**
 * `diff --database <url> --kb <id> FROM TO`: two versions of a knowledge base in a store, each read
 * through its own `createPostgresSource` (its active revision).
 */
async function diffStore(
  values: ParsedArgs['values'],
  positionals: readonly string[],
  given: unknown,
  io: CliIo,
): Promise<number> {
  const url = values['database'] as string;
  const knowledgeBase = values['kb'];
  if (given !== undefined || values['include'] !== undefined || values['exclude'] !== undefined)
    throw new CliExit(
      'knowledge-kit diff: --database compares two versions of a knowledge base of the store: drop --version LABEL=DIR (and the folder flags), and name the versions, such as `knowledge-kit diff --database postgres://localhost/kb --kb handbook 2.x 3.x`.',
    );
  if (typeof knowledgeBase !== 'string' || positionals.length !== 2)
    throw new CliExit(
      'knowledge-kit diff: --database needs --kb and the two versions to compare, older first, such as `knowledge-kit diff --database postgres://localhost/kb --kb handbook 2.x 3.x`.',
    );
  const [fromLabel, toLabel] = [positionals[0]!, positionals[1]!];
  for (const label of [fromLabel, toLabel]) {
    const problem = versionLabelProblem(label);
    if (problem !== undefined)
      throw new CliExit(
        `knowledge-kit diff: ${JSON.stringify(label)} is not a version label (${problem}); name two versions of ${knowledgeBase}, such as 2.x 3.x.`,
      );
  }
  const [
    { openDatabase, storeOptions, storeUnreadable },
    { createPostgresSource, listKnowledgeVersions },
  ] = await Promise.all([import('../openDatabase.js'), import('../../postgres/index.js')]);
  const store = storeOptions(values);
  const { db, close } = await openDatabase('diff', url);
  try {
    let versions;
    try {
      versions = await listKnowledgeVersions(db, { knowledgeBase, ...store });
    } catch (error) {
      throw storeUnreadable('diff', error);
    }
    if (versions.length === 0)
      throw new CliExit(
        `knowledge-kit diff: the store has no knowledge base \`${escapeControls(knowledgeBase)}\`; check --kb, or publish it first with \`knowledge-kit publish <folder> --database … --kb ${escapeControls(knowledgeBase)} --version LABEL\`.`,
      );
    for (const label of [fromLabel, toLabel])
      if (!versions.some((v) => v.version === label))
        throw new CliExit(
          `knowledge-kit diff: no version \`${label}\` in ${escapeControls(knowledgeBase)}; its versions are ${versions.map((v) => `\`${v.version}\``).join(', ')} (\`knowledge-kit versions --database … --kb ${escapeControls(knowledgeBase)}\` lists them).`,
        );
    const source = (version: string) =>
      createPostgresSource(db, { knowledgeBase, version, ...store });
    const result = await diffSources(
      { label: fromLabel, source: source(fromLabel) },
      { label: toLabel, source: source(toLabel) },
    );
    return printDiff(result, values, io);
  } finally {
    await close();
  }
}
