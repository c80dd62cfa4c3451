/**
 * `knowledge-kit export <dir> --out <bundle>`: check and load a folder, then write it as a static
 * bundle; `knowledge-kit export --version LABEL=FOLDER … --out <folder>`: one bundle per version
 * under `versions/<label>/`, and `versions.json` naming them and the default.
 */
import { join } from 'node:path';
import {
  createCatalogSource,
  createVersionedSource,
  type KnowledgeSource,
} from '../../agent/index.js';
import { VERSIONS_PATH } from '../../agent/internals.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { exportKnowledgeBundle, exportKnowledgeVersions } from '../../node/index.js';
import { parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder } from '../folder.js';
import { EXPORT_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';
import {
  readVersionFlags,
  VERSION_FLAGS,
  versionFolderProblems,
  versionsWithFolder,
  type VersionFolder,
} from '../versions.js';

/** Runs `export`. */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'export',
    argv,
    {
      out: { type: 'string' },
      id: { type: 'string' },
      title: { type: 'string' },
      'base-url': { type: 'string' },
      ...LINK_ROOT_FLAG,
      ...FOLDER_GLOB_OPTIONS,
      ...VERSION_FLAGS,
    },
    1,
  );
  if (values['help'] === true) {
    io.stdout.write(`${EXPORT_HELP}\n`);
    return EXIT.ok;
  }
  const [dir] = positionals;
  const out = values['out'];
  // Every problem of the flags at once, then every folder's.
  const flags = readVersionFlags(values, false);
  const refused = (problems: readonly string[]): CliExit =>
    new CliExit(problems.map((problem) => `knowledge-kit export: ${problem}`).join('\n'));
  const baseUrl = values['base-url'];
  const problems = [...flags.problems];
  if (typeof baseUrl === 'string' && !URL.canParse(baseUrl))
    problems.push(
      `--base-url ${JSON.stringify(baseUrl)} is not an absolute URL; pass one such as https://example.com/kb/.`,
    );
  if (problems.length > 0) throw refused(problems);
  if (flags.folders.length > 0) {
    if (dir !== undefined) throw versionsWithFolder('export');
    if (typeof out !== 'string')
      throw new CliExit(
        'knowledge-kit export: needs --out, the folder to write the versions into, such as `knowledge-kit export --version 3.x=./docs --version 2.x=./docs-2 --out ./public/kb`.',
      );
    const missing = versionFolderProblems(flags.folders);
    if (missing.length > 0) throw refused(missing);
    return exportVersions(values, flags.folders, flags.defaultVersion!, out, io);
  }
  if (dir === undefined || typeof out !== 'string')
    throw new CliExit(
      'knowledge-kit export: needs a folder and --out, such as `knowledge-kit export ./knowledge --out ./public/kb`. Run `knowledge-kit export --help`.',
    );
  const loaded = await loadFolder('export', dir, io, {
    ...folderGlobs(values),
    ...linkRootOption('export', dir, values['link-root']),
  });
  const id = knowledgeBaseId(dir, values['id']);
  const source = createCatalogSource(loaded.catalog, {
    id,
    files: loaded.files,
    linkRoot: loaded.linkRoot,
    publishedAt: loaded.publishedAt,
  });
  try {
    const result = await exportKnowledgeBundle(source, {
      out,
      id,
      ...(typeof values['title'] === 'string' ? { title: values['title'] } : {}),
      ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    });
    const { counts, activeContentRevision } = result.manifest;
    io.stdout.write(
      `exported ${id} at revision ${JSON.stringify(activeContentRevision)} to ${result.out}: ${counts.pages} ${counts.pages === 1 ? 'page' : 'pages'}, ${result.written.length} ${result.written.length === 1 ? 'file' : 'files'} written, ${result.unchanged} unchanged, ${result.removed.length} removed\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (isKnowledgeError(error)) throw new CliExit(`knowledge-kit export: ${error.message}`);
    throw new CliExit(
      `knowledge-kit export: writing the bundle failed (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

type Values = Parameters<typeof folderGlobs>[0] & {
  readonly [name: string]: string | boolean | (string | boolean)[] | undefined;
};

/** `export --version LABEL=FOLDER … --out OUT`: every folder checked and loaded, then written. */
async function exportVersions(
  values: Values,
  versions: readonly VersionFolder[],
  defaultVersion: string,
  out: string,
  io: CliIo,
): Promise<number> {
  const baseUrl = values['base-url'];
  const defaultFolder = versions.find((v) => v.label === defaultVersion)!.dir;
  const id = knowledgeBaseId(defaultFolder, values['id']);
  // Every folder is checked and loaded before anything is written.
  const sources: Record<string, KnowledgeSource> = {};
  for (const { label, dir: folder } of versions) {
    const loaded = await loadFolder('export', folder, io, {
      ...folderGlobs(values),
      ...linkRootOption('export', folder, values['link-root']),
    });
    sources[label] = createCatalogSource(loaded.catalog, {
      id,
      files: loaded.files,
      linkRoot: loaded.linkRoot,
      version: label,
    });
  }
  try {
    const result = await exportKnowledgeVersions(
      createVersionedSource({ versions: sources, default: defaultVersion }),
      {
        out,
        id,
        ...(typeof values['title'] === 'string' ? { title: values['title'] } : {}),
        ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
      },
    );
    for (const { version, bundle } of result.versions) {
      const { counts, activeContentRevision } = bundle.manifest;
      io.stdout.write(
        `exported ${id} version ${version} at revision ${JSON.stringify(activeContentRevision)} to ${bundle.out}: ${counts.pages} ${counts.pages === 1 ? 'page' : 'pages'}, ${bundle.written.length} ${bundle.written.length === 1 ? 'file' : 'files'} written, ${bundle.unchanged} unchanged, ${bundle.removed.length} removed\n`,
      );
    }
    const { removed } = result;
    io.stdout.write(
      `wrote ${join(result.out, VERSIONS_PATH)}: ${result.versions.length} ${result.versions.length === 1 ? 'version' : 'versions'}, default ${result.defaultVersion}${removed.length > 0 ? `; removed ${removed.join(', ')}` : ''}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (isKnowledgeError(error)) throw new CliExit(`knowledge-kit export: ${error.message}`);
    throw new CliExit(
      `knowledge-kit export: writing the bundles failed (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}
