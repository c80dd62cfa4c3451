/**
 * `knowledge-kit export <dir> --out <bundle>`: check and load a folder, then write it as a static
 * bundle; `knowledge-kit export --version LABEL=FOLDER … --out <folder>`: one bundle per version
 * under `versions/<label>/`, and `versions.json` naming them and the default.
 */
import { lstat, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createCatalogSource } from '../../agent/index.js';
import {
  parseVersionsFile,
  versionBundleDir,
  versionsFileText,
  VERSIONS_PATH,
  type BundleVersionEntry,
} from '../../agent/internals.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { exportKnowledgeBundle } from '../../node/index.js';
import { parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder } from '../folder.js';
import { EXPORT_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';
import { escapeControls } from '../problems.js';
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
  if (flags.problems.length > 0) throw refused(flags.problems);
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
  const baseUrl = values['base-url'];
  if (typeof baseUrl === 'string' && !URL.canParse(baseUrl))
    throw new CliExit(
      `knowledge-kit export: --base-url ${JSON.stringify(baseUrl)} is not an absolute URL; pass one such as https://example.com/kb/.`,
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

/** A usage error of `export --version`. */
const usage = (message: string): CliExit => new CliExit(`knowledge-kit export: ${message}`);

/**
 * What `out` holds of an earlier export with versions (`versions.json`), or `undefined` when it is
 * new or empty; anything else (a plain bundle, other files) is refused before anything is written.
 */
async function earlierVersions(out: string): Promise<readonly string[] | undefined> {
  let entries: string[];
  try {
    entries = await readdir(out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw usage(
      `--out ${escapeControls(out)} is not a folder that can be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (entries.length === 0) return undefined;
  if (entries.includes('manifest.json') && !entries.includes(VERSIONS_PATH))
    throw usage(
      `--out ${escapeControls(out)} holds a bundle without versions (manifest.json); export versions into a new or empty folder, or into the folder of an earlier export with --version.`,
    );
  if (!entries.includes(VERSIONS_PATH))
    throw usage(
      `--out ${escapeControls(out)} holds files but no export (no ${VERSIONS_PATH}); pass an empty or new folder, or the folder of an earlier export with --version.`,
    );
  const file = join(out, VERSIONS_PATH);
  const info = await lstat(file);
  const parsed = info.isFile()
    ? parseVersionsFile(await readFile(file, 'utf8'))
    : { problem: 'is not a regular file' };
  if ('problem' in parsed)
    throw usage(
      `${escapeControls(file)} ${parsed.problem}; pass an empty or new folder, or the folder of an earlier export with --version.`,
    );
  const versions = join(out, 'versions');
  const folder = await lstat(versions).catch(() => undefined);
  if (folder !== undefined && !folder.isDirectory())
    throw usage(
      `${escapeControls(versions)} is not a folder (a link or a file); the export writes only into real folders. Remove it or pass another --out.`,
    );
  return parsed.versions.versions.map((v) => v.version);
}

/** `export --version LABEL=FOLDER … --out OUT`: every folder checked and loaded, then written. */
async function exportVersions(
  values: Values,
  versions: readonly VersionFolder[],
  defaultVersion: string,
  outOption: string,
  io: CliIo,
): Promise<number> {
  const baseUrl = values['base-url'];
  if (typeof baseUrl === 'string' && !URL.canParse(baseUrl))
    throw usage(
      `--base-url ${JSON.stringify(baseUrl)} is not an absolute URL; pass one such as https://example.com/kb/.`,
    );
  const out = resolve(outOption);
  const before = await earlierVersions(out);
  const defaultFolder = versions.find((v) => v.label === defaultVersion)!.dir;
  const id = knowledgeBaseId(defaultFolder, values['id']);
  // Every folder is checked and loaded before anything is written.
  const sources = [];
  for (const { label, dir: folder } of versions) {
    const loaded = await loadFolder('export', folder, io, {
      ...folderGlobs(values),
      ...linkRootOption('export', folder, values['link-root']),
    });
    sources.push({
      label,
      source: createCatalogSource(loaded.catalog, {
        id,
        files: loaded.files,
        linkRoot: loaded.linkRoot,
      }),
    });
  }
  try {
    const entries: BundleVersionEntry[] = [];
    for (const { label, source } of sources) {
      const dir = versionBundleDir(label);
      const result = await exportKnowledgeBundle(source, {
        out: join(out, ...dir.split('/').filter((s) => s !== '')),
        id,
        ...(typeof values['title'] === 'string' ? { title: values['title'] } : {}),
        ...(typeof baseUrl === 'string'
          ? { baseUrl: new URL(dir, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href }
          : {}),
      });
      const { counts, activeContentRevision } = result.manifest;
      const publishedAt = (result.manifest as unknown as Record<string, unknown>)['publishedAt'];
      entries.push({
        version: label,
        activeContentRevision,
        ...(typeof publishedAt === 'string' ? { publishedAt } : {}),
      });
      io.stdout.write(
        `exported ${id} version ${label} at revision ${JSON.stringify(activeContentRevision)} to ${result.out}: ${counts.pages} ${counts.pages === 1 ? 'page' : 'pages'}, ${result.written.length} ${result.written.length === 1 ? 'file' : 'files'} written, ${result.unchanged} unchanged, ${result.removed.length} removed\n`,
      );
    }
    // versions.json last, whole or not at all: a reader sees the old versions or the new ones.
    const file = join(out, VERSIONS_PATH);
    const temp = `${file}.${process.pid}.tmp`;
    await rm(temp, { force: true });
    await writeFile(temp, versionsFileText(entries, defaultVersion), { flag: 'wx' });
    await rename(temp, file);
    const gone = (before ?? []).filter((label) => !versions.some((v) => v.label === label));
    for (const label of gone)
      await rm(join(out, 'versions', label), { recursive: true, force: true });
    io.stdout.write(
      `wrote ${file}: ${entries.length} ${entries.length === 1 ? 'version' : 'versions'}, default ${defaultVersion}${gone.length > 0 ? `; removed ${gone.join(', ')}` : ''}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (isKnowledgeError(error)) throw new CliExit(`knowledge-kit export: ${error.message}`);
    throw new CliExit(
      `knowledge-kit export: writing the bundles failed (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}
