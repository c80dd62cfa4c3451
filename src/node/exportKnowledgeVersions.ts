/**
 * A knowledge base with versions as static files: one bundle per version under `versions/<label>/`,
 * and `versions.json` naming them and the default, which `createStaticSource` reads as a source with
 * versions.
 *
 * @module
 */
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { writeWhole } from './writeWhole.js';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VersionedKnowledgeSource } from '../agent/index.js';
import {
  parseVersionsFile,
  versionBundleDir,
  versionsFileText,
  versionView,
  VERSIONS_PATH,
  type BundleVersionEntry,
} from '../agent/internals.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import {
  exportKnowledgeBundle,
  type ExportedKnowledgeBundle,
  type ExportKnowledgeBundleOptions,
} from './exportKnowledgeBundle.js';

const API = 'exportKnowledgeVersions';

/** What an export of versions did. */
export interface ExportedKnowledgeVersions {
  /** The folder, as an absolute path. */
  readonly out: string;
  /** Each version's bundle, in the source's order. */
  readonly versions: readonly {
    readonly version: string;
    readonly bundle: ExportedKnowledgeBundle;
  }[];
  /** The default version's label, as `versions.json` names it. */
  readonly defaultVersion: string;
  /** Labels of an earlier export's versions removed (no longer in the source). */
  readonly removed: readonly string[];
}

const outProblem = (message: string): KnowledgeError =>
  new KnowledgeError([
    { code: 'INVALID_INPUT', path: ['options', 'out'], message: `${API}: ${message}` },
  ]);

/**
 * The labels of an earlier export with versions in `out` (`versions.json`), or `[]` when `out` is
 * new or empty; anything else (a plain bundle, other files) is refused before anything is written.
 */
async function earlierVersions(out: string): Promise<readonly string[]> {
  let entries: string[];
  try {
    entries = await readdir(out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw outProblem(
      `\`${out}\` is not a folder that can be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (entries.length === 0) return [];
  if (entries.includes('manifest.json') && !entries.includes(VERSIONS_PATH))
    throw outProblem(
      `\`${out}\` holds a bundle without versions (manifest.json); export versions into a new or empty folder, or into the folder of an earlier export of versions. Nothing was written.`,
    );
  if (!entries.includes(VERSIONS_PATH))
    throw outProblem(
      `\`${out}\` holds files but no export (no ${VERSIONS_PATH}); pass an empty or new folder, or the folder of an earlier export of versions. Nothing was written.`,
    );
  const file = join(out, VERSIONS_PATH);
  const info = await lstat(file);
  const parsed = info.isFile()
    ? parseVersionsFile(await readFile(file, 'utf8'))
    : { problem: 'is not a regular file' };
  if ('problem' in parsed)
    throw outProblem(
      `\`${file}\` ${parsed.problem}; pass an empty or new folder, or the folder of an earlier export of versions. Nothing was written.`,
    );
  const folder = await lstat(join(out, 'versions')).catch(() => undefined);
  if (folder !== undefined && !folder.isDirectory())
    throw outProblem(
      `\`${join(out, 'versions')}\` is not a folder (a link or a file); the export writes only into real folders. Remove it or pass another folder. Nothing was written.`,
    );
  return parsed.versions.versions.map((v) => v.version);
}

/**
 * Export a source with versions (`createVersionedSource`) as static files: each version's bundle
 * (as `exportKnowledgeBundle` writes it, from a view of the source that reads that version only)
 * under `versions/<label>/`, then `versions.json` (the versions in the source's order, each with its
 * revision and `publishedAt`, and the default), written whole by a rename, so a reader sees the old
 * versions or the new ones. Into the folder of an earlier export of versions, each version's bundle
 * is updated as `exportKnowledgeBundle` updates one, and the versions no longer in the source are
 * removed after `versions.json` is written. `createStaticSource({ baseUrl })` over the folder serves
 * every version.
 *
 * @param source - a source with versions (`createVersionedSource`).
 * @param options - `out`, and `id`, `title`, `baseUrl` (each version's `llms.txt` links under
 *   `versions/<label>/` of it), `signal`, as `exportKnowledgeBundle`'s.
 * @returns each version's bundle, the default and the versions removed.
 * @throws {KnowledgeError} `INVALID_INPUT` at `options.out` when `out` holds a bundle without
 *   versions, other files, or a `versions.json` or `versions` that is not what an export writes
 *   (nothing is written); what `exportKnowledgeBundle` throws.
 * @example
 * ```ts
 * const source = createVersionedSource({ versions: { '3.x': three, '2.x': two }, default: '3.x' });
 * await exportKnowledgeVersions(source, { out: './public/kb', id: 'handbook' });
 * ```
 */
export async function exportKnowledgeVersions(
  source: VersionedKnowledgeSource,
  options: ExportKnowledgeBundleOptions,
): Promise<ExportedKnowledgeVersions> {
  const labels: unknown = source?.versionLabels;
  if (!Array.isArray(labels) || typeof source.defaultVersion !== 'string')
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['source'],
        message: `${API}: pass a source with versions (\`createVersionedSource\`); export a source without versions with \`exportKnowledgeBundle\`.`,
      },
    ]);
  const outOption: unknown = options?.out;
  if (typeof outOption !== 'string' && !(outOption instanceof URL))
    throw outProblem(
      'pass `out`, the folder to write the versions into (a path or a `file:` URL).',
    );
  const out = resolve(outOption instanceof URL ? fileURLToPath(outOption) : outOption);
  const before = await earlierVersions(out);
  const { baseUrl } = options;
  const versions: { version: string; bundle: ExportedKnowledgeBundle }[] = [];
  for (const label of labels as readonly string[]) {
    const dir = versionBundleDir(label);
    const bundle = await exportKnowledgeBundle(versionView(source, label), {
      ...options,
      out: join(out, ...dir.split('/').filter((segment) => segment !== '')),
      // Each version's links under its folder: `https://example.com/kb/` → `…/kb/versions/3.x/`
      // (a label is URL-safe; a relative base such as `/kb` stays relative, as a plain export's).
      ...(baseUrl === undefined
        ? {}
        : { baseUrl: `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}${dir}` }),
    });
    versions.push({ version: label, bundle });
  }
  const entries: BundleVersionEntry[] = versions.map(({ version, bundle }) => ({
    version,
    activeContentRevision: bundle.manifest.activeContentRevision,
    ...(bundle.manifest.publishedAt === undefined
      ? {}
      : { publishedAt: bundle.manifest.publishedAt }),
  }));
  // versions.json last, whole or not at all.
  const file = join(out, VERSIONS_PATH);
  await writeWhole(file, versionsFileText(entries, source.defaultVersion));
  const removed = before.filter((label) => !labels.includes(label));
  for (const label of removed)
    await rm(join(out, 'versions', label), { recursive: true, force: true });
  return { out, versions, defaultVersion: source.defaultVersion, removed };
}
