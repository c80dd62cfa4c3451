/**
 * `loadKnowledgeDirectory`: a folder of Markdown in, a catalog and page records out, or one error with
 * every problem of every file.
 */
import type { KnowledgeFileOptions } from '../agent/index.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { deepFreeze } from '../shared/deepFreeze.js';
import { linkRootOf } from './linkRootOf.js';
import { readKnowledgeDirectory } from './readKnowledgeDirectory.js';
import type { LoadedKnowledgeDirectory, LoadKnowledgeDirectoryOptions } from './types.js';

/**
 * Loads every Markdown file under `dir` into a catalog, as the seed's `knowledge.mjs` does by hand.
 *
 * Files are `**\/*.md` (never under `node_modules` or a dot folder), refined by `include` and `exclude`,
 * read in path order as strict UTF-8. A YAML front matter block gives `id` (default: the path without
 * `.md`), `locale`, `title`, `description` and `tags`; all its keys become the page's `frontmatter`. The
 * page path is `pages/<path>`, the revision `sha256:` and the hex SHA-256 of the file's bytes.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * Nothing outside the folder's real path is read, and nothing but regular files: symbolic links are not
 * followed unless `followLinks` is true, and then only those whose real target is inside the folder.
 *
 * @param options - `include` and `exclude` globs, relative to `dir`; `maxChars`, the catalog's default
 *   limit; `followLinks` (default false); `linkRoot`, the folder a site-root link's `/` stands for
 *   (default `dir`); `maxFileBytes`, the largest file read (default 64 MiB; a larger file is a
 *   `REFUSED_FILE` problem).
 * @returns the frozen `{ catalog, documents, files, directory, paths, linkRoot, publishedAt }` (the
 *   load time); pass `files`, `linkRoot` and `publishedAt` to `createCatalogSource`.
 * @throws {KnowledgeError} with every problem of every file, each issue carrying `file` (relative to
 *   `dir`) and a file line and column: `INVALID_ENCODING` (also a file name that is not UTF-8),
 *   `INVALID_FRONT_MATTER` (also YAML nested too deeply, an `id` the agent layer cannot serve), every
 *   parse code, `DUPLICATE_DOCUMENT_ID`, `REFUSED_FILE` (a link or special file not read, no line).
 *   `REFUSED_FILE` also for a file swapped between the walk and its read; `READ_FAILED` (with `file`)
 *   for a file that cannot be read, or thrown alone (`path: ['dir']`) when the folder cannot be;
 *   `INVALID_INPUT` for bad arguments.
 * @example
 * ```ts
 * import { loadKnowledgeDirectory } from 'knowledge-kit/node';
 * import { createCatalogSource } from 'knowledge-kit/agent';
 * const { catalog, files, linkRoot } = await loadKnowledgeDirectory('./knowledge');
 * const source = createCatalogSource(catalog, { id: 'handbook', files, linkRoot });
 * ```
 */
export async function loadKnowledgeDirectory(
  dir: string | URL,
  options?: LoadKnowledgeDirectoryOptions,
): Promise<LoadedKnowledgeDirectory> {
  return loadKnowledgeDirectoryWith(dir, options);
}

/**
 * `loadKnowledgeDirectory` with the command line's hooks: `onProgress(done, total)` after each file
 * (its progress line on a terminal).
 *
 * @param dir - the folder.
 * @param options - as `loadKnowledgeDirectory` takes them.
 * @param hooks - `onProgress`.
 * @returns as `loadKnowledgeDirectory`.
 * @throws {KnowledgeError} as `loadKnowledgeDirectory`.
 */
export async function loadKnowledgeDirectoryWith(
  dir: string | URL,
  options?: LoadKnowledgeDirectoryOptions,
  hooks: { readonly onProgress?: (done: number, total: number) => void } = {},
): Promise<LoadedKnowledgeDirectory> {
  const reading = await readKnowledgeDirectory(dir, options, hooks);
  const linkRoot = linkRootOf(reading.directory, options?.linkRoot);
  if (reading.catalog === undefined) throw new KnowledgeError(reading.issues);
  const catalog = reading.catalog;
  const files: Record<string, KnowledgeFileOptions> = {};
  const paths: Record<string, string> = {};
  for (const id of catalog.ids) {
    const page = reading.files[id]!;
    Object.defineProperty(files, id, { value: page, enumerable: true });
    Object.defineProperty(paths, id, {
      value: page.path!.slice('pages/'.length),
      enumerable: true,
    });
  }
  return deepFreeze({
    catalog,
    documents: catalog.ids.map((id) => catalog.document(id)),
    files,
    directory: reading.directory,
    paths,
    linkRoot,
    publishedAt: new Date().toISOString(),
    warnings: reading.warnings,
  });
}
