import { lstat, mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeWhole } from './writeWhole.js';
import { createCatalogSource, type KnowledgeSource } from '../agent/index.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_PATHS,
  buildKnowledgeBundle,
  type BundleManifest,
  type EarlierExport,
  type KnowledgeBundleOptions,
} from '../agent/internals.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { loadKnowledgeDirectory } from './loadKnowledgeDirectory.js';
import { kindOf, readRegularText } from './readRegular.js';
import type { LoadKnowledgeDirectoryOptions } from './types.js';

const API = 'exportKnowledgeBundle';

/** Options of `exportKnowledgeBundle`: where to write, and the bundle's own options. */
export interface ExportKnowledgeBundleOptions extends KnowledgeBundleOptions {
  /** The bundle's folder (a path or a `file:` URL): created, or a bundle exported before. */
  readonly out: string | URL;
}

/** What an export did. */
export interface ExportedKnowledgeBundle {
  readonly manifest: BundleManifest;
  /** The folder, as an absolute path. */
  readonly out: string;
  /** Bundle paths written (new or changed), in path order. */
  readonly written: readonly string[];
  /** How many files were already as they should be. */
  readonly unchanged: number;
  /** Bundle paths of an earlier export removed (no longer in the bundle). */
  readonly removed: readonly string[];
}

/** The top-level names a bundle owns in its folder: what an export may remove. */
const OWNED = new Set(['pages', '_index', '_graph', ...Object.values(BUNDLE_PATHS)]);

const outProblem = (message: string): KnowledgeError =>
  new KnowledgeError([
    { code: 'INVALID_INPUT', path: ['options', 'out'], message: `${API}: ${message}` },
  ]);

/** Whether a path of the folder is the bundle's (an export may write or remove it). */
const owned = (path: string): boolean => OWNED.has(path.split('/')[0]!) || OWNED.has(path);

/** The refusal of an entry in the bundle's part of the folder that is not a real file or folder. */
const notReal = (at: string, kind: string): KnowledgeError =>
  outProblem(
    `\`${at}\` is ${kind} inside the output folder, and an export writes only real files and folders there (through a link it would write somewhere else). Remove the ${kind === 'a symbolic link' ? 'link' : 'entry'}, or pass another folder; nothing was written.`,
  );

/**
 * Every file under `dir`, as `/`-separated paths relative to it (explicit stack). A symbolic link or
 * special file where the bundle writes is refused; links elsewhere are other files, left alone.
 */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let entries;
    try {
      entries = await readdir(join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const e of entries) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) stack.push(path);
      else if (e.isFile() || !owned(path)) out.push(path);
      else
        throw notReal(
          join(dir, ...path.split('/')),
          e.isSymbolicLink() ? 'a symbolic link' : kindOf(await lstat(join(dir, rel, e.name))),
        );
    }
  }
  return out.sort();
}

/**
 * Makes the folders from `out` down to `dir` (inside it), one at a time, checking that each is a real
 * folder and not a link that would lead the write elsewhere (once per export: `checked`).
 */
async function realFolders(out: string, dir: string, checked: Set<string>): Promise<void> {
  let at = out;
  for (const segment of dir.slice(out.length + 1).split(sep)) {
    if (segment === '') continue;
    at = join(at, segment);
    if (checked.has(at)) continue;
    checked.add(at);
    try {
      await mkdir(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = await lstat(at);
    if (!stat.isDirectory()) throw notReal(at, kindOf(stat));
  }
}

/**
 * Export a knowledge source as a static bundle (`docs/static.md`): every page's text as `read_file`
 * returns it under `pages/`, `index.md`, `_index/files.json`, the sharded search index under
 * `_index/search/`, `_graph/by-file/*.json` and `_graph/index.json`, `llms.txt`, `llms-full.txt` and
 * `manifest.json`. Deterministic: the same knowledge (content and `publishedAt`) gives the same bytes;
 * the manifest records the source's `publishedAt`, and a folder holding an export of the same revision
 * keeps its own. Into a folder that holds an
 * earlier export, only the files whose content changed are written (`manifest.json` last), then the
 * files no longer in the bundle are removed; other files in the folder are left alone.
 *
 * @param source - any `KnowledgeSource` (`createCatalogSource`, `createPostgresSource`, an HTTP client).
 * @param options - `out`, and `id`, `title`, `baseUrl` (absolute links in `llms.txt`), `signal`.
 * @returns the manifest and what was written, left and removed.
 * @throws {KnowledgeError} `INVALID_INPUT` when `out` holds files but no bundle (nothing is written),
 *   when a symbolic link, FIFO or other special file is where the bundle writes (`out/pages` a link:
 *   nothing is written through it, nothing is removed), or when the source cannot be exported (a file not `current_available`, a change of revision during
 *   the export). What the source's methods and the file system throw.
 * @example
 * ```ts
 * const { catalog, files, linkRoot } = await loadKnowledgeDirectory('./knowledge');
 * const source = createCatalogSource(catalog, { files, linkRoot, id: 'handbook' });
 * await exportKnowledgeBundle(source, { out: './public/kb', id: 'handbook' });
 * ```
 */
export async function exportKnowledgeBundle(
  source: KnowledgeSource,
  options: ExportKnowledgeBundleOptions,
): Promise<ExportedKnowledgeBundle> {
  const outOption: unknown = options?.out;
  if (typeof outOption !== 'string' && !(outOption instanceof URL))
    throw outProblem('pass `out`, the folder to write the bundle into (a path or a `file:` URL).');
  const out = resolve(outOption instanceof URL ? fileURLToPath(outOption) : outOption);
  const before = await filesUnder(out);
  if (before.length > 0 && !before.includes(BUNDLE_PATHS.manifest))
    throw outProblem(
      `\`${out}\` holds files but no bundle (no ${BUNDLE_PATHS.manifest}); pass an empty or new folder, or the folder of an earlier export.`,
    );
  let earlier: EarlierExport | undefined;
  if (before.includes(BUNDLE_PATHS.manifest)) {
    let format: unknown;
    try {
      const manifest = await readRegularText(join(out, BUNDLE_PATHS.manifest));
      const parsed =
        'text' in manifest
          ? (JSON.parse(manifest.text) as {
              format?: unknown;
              activeContentRevision?: unknown;
              publishedAt?: unknown;
            })
          : undefined;
      format = parsed?.format;
      const revision = parsed?.activeContentRevision;
      if (
        (typeof revision === 'string' || typeof revision === 'number') &&
        typeof parsed?.publishedAt === 'string'
      )
        earlier = { activeContentRevision: revision, publishedAt: parsed.publishedAt };
    } catch {
      format = undefined;
    }
    if (format !== BUNDLE_FORMAT)
      throw outProblem(
        `\`${join(out, BUNDLE_PATHS.manifest)}\` is not a bundle's manifest; pass an empty or new folder, or the folder of an earlier export.`,
      );
  }
  const { out: _out, ...bundleOptions } = options;
  const bundle = await buildKnowledgeBundle(source, bundleOptions, earlier);

  // `out` itself may be new, or a link the caller chose; the folders below it are checked one by one.
  await mkdir(out, { recursive: true });
  const written: string[] = [];
  const checked = new Set<string>();
  let unchanged = 0;
  const put = async (path: string, text: string): Promise<void> => {
    const file = join(out, ...path.split('/'));
    if (!file.startsWith(out + sep))
      throw outProblem(`the bundle path \`${path}\` leaves the folder.`);
    await realFolders(out, dirname(file), checked);
    let old: string | undefined;
    try {
      const read = await readRegularText(file);
      if ('refused' in read)
        throw notReal(file, read.refused === 'special' ? read.kind : 'a symbolic link');
      old = read.text;
    } catch (error) {
      if (error instanceof KnowledgeError) throw error;
      old = undefined;
    }
    if (old === text) {
      unchanged++;
      return;
    }
    // Whole or not at all: a reader never sees half a file.
    await writeWhole(file, text);
    written.push(path);
  };
  for (const [path, text] of bundle.files)
    if (path !== BUNDLE_PATHS.manifest) await put(path, text);
  await put(BUNDLE_PATHS.manifest, bundle.files.get(BUNDLE_PATHS.manifest)!);

  const removed: string[] = [];
  for (const path of before) {
    if (bundle.files.has(path) || !owned(path)) continue;
    await rm(join(out, ...path.split('/')), { force: true });
    removed.push(path);
    // Remove the folders it leaves empty.
    for (
      let dir = dirname(join(out, ...path.split('/')));
      dir.startsWith(out + sep);
      dir = dirname(dir)
    ) {
      try {
        await rmdir(dir);
      } catch {
        break;
      }
    }
  }
  return { manifest: bundle.manifest, out, written: written.sort(), unchanged, removed };
}

/** Options of `exportKnowledgeDirectory`: the loader's and the export's. */
export interface ExportKnowledgeDirectoryOptions
  extends ExportKnowledgeBundleOptions, LoadKnowledgeDirectoryOptions {}

/**
 * Export a folder of Markdown as a static bundle: `loadKnowledgeDirectory`, `createCatalogSource`
 * (with the folder's page records and link root), then `exportKnowledgeBundle`. What
 * `knowledge-kit export <folder> --out <dir>` runs.
 *
 * @param dir - the knowledge folder (a path or a `file:` URL).
 * @param options - `out`, the loader's options, and `id` (default the folder's name), `title`,
 *   `baseUrl`, `signal`.
 * @returns what `exportKnowledgeBundle` returns.
 * @throws {KnowledgeError} what `loadKnowledgeDirectory` and `exportKnowledgeBundle` throw.
 * @example
 * ```ts
 * await exportKnowledgeDirectory('./knowledge', { out: './public/kb' });
 * ```
 */
export async function exportKnowledgeDirectory(
  dir: string | URL,
  options: ExportKnowledgeDirectoryOptions,
): Promise<ExportedKnowledgeBundle> {
  const { include, exclude, maxChars, followLinks, linkRoot, maxFileBytes, ...exportOptions } =
    options;
  const loaded = await loadKnowledgeDirectory(dir, {
    include,
    exclude,
    maxChars,
    followLinks,
    linkRoot,
    maxFileBytes,
  });
  const folder = loaded.directory;
  const id = exportOptions.id ?? (folder.slice(folder.lastIndexOf(sep) + 1) || 'knowledge');
  const source = createCatalogSource(loaded.catalog, {
    id,
    files: loaded.files,
    linkRoot: loaded.linkRoot,
    publishedAt: loaded.publishedAt,
  });
  return exportKnowledgeBundle(source, { ...exportOptions, id });
}
