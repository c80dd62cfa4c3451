/**
 * `loadKnowledgeFiles`: a folder loaded file by file (seed 002, "each document indexed on its own"):
 * the files that load are served, a broken file keeps its previous version when there is one, and the
 * rest are listed as unavailable. `loadKnowledgeDirectory` stays all-or-nothing.
 */
import { fileIssue } from './fileIssue.js';
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { deepFreeze } from '../shared/deepFreeze.js';
import { graphFilePath } from '../shared/pagePath.js';
import type { KnowledgeDocument } from '../types.js';
import type { KnowledgeFileOptions, KnowledgeUnavailableFile } from '../agent/index.js';
import { linkRootOf } from './linkRootOf.js';
import { byPlace, readKnowledgeDirectory } from './readKnowledgeDirectory.js';
import { isWellFormed } from './readOne.js';
import { withoutExtension } from './walk.js';
import type {
  KnowledgeFileLoadStatus,
  LoadedKnowledgeFiles,
  LoadKnowledgeDirectoryOptions,
} from './types.js';

/** One version of a file that can be served. */
interface Version {
  readonly document: KnowledgeDocument;
  readonly page: KnowledgeFileOptions;
  readonly idPlace: (() => { readonly line: number; readonly column: number }) | undefined;
}

/**
 * Loads every Markdown file under `dir` as `loadKnowledgeDirectory` does, but file by file: a file
 * with problems does not stop the others. Each file is `current_available` (it loaded cleanly),
 * `previous_available` (it has problems, and `previous` served a version of it, which is served
 * again) or `unavailable` (listed by the agent tools, never read). When two files have one document
 * ID, the file served by `previous` keeps it (else the first in path order) and the other is
 * `DUPLICATE_DOCUMENT_ID`, naming both.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * @param options - as `loadKnowledgeDirectory`'s.
 * @param previous - the previous load of the same folder (what a watcher served until now), whose
 *   versions of files that have problems now are served again.
 * @returns the frozen `{ catalog, documents, files, directory, paths, linkRoot, publishedAt, status,
 *   issues, fileStatus }`; pass `files`, `linkRoot`, `publishedAt` (the load time) and `fileStatus`
 *   to `createCatalogSource`.
 * @throws {KnowledgeError} `READ_FAILED` when the folder cannot be read (a file that cannot be read
 *   is a `READ_FAILED` problem of that file, which is then not current); `INVALID_INPUT`
 *   for bad arguments. Problems in files are never thrown: they are in `issues` and `status`.
 * @example
 * ```ts
 * import { loadKnowledgeFiles } from 'knowledge-kit/node';
 * import { createCatalogSource } from 'knowledge-kit/agent';
 * const loaded = await loadKnowledgeFiles('./knowledge');
 * for (const issue of loaded.issues) console.error(issue.message);
 * const source = createCatalogSource(loaded.catalog, {
 *   files: loaded.files,
 *   linkRoot: loaded.linkRoot,
 *   fileStatus: loaded.fileStatus,
 * });
 * ```
 */
export async function loadKnowledgeFiles(
  dir: string | URL,
  options?: LoadKnowledgeDirectoryOptions,
  previous?: LoadedKnowledgeFiles,
): Promise<LoadedKnowledgeFiles> {
  const reading = await readKnowledgeDirectory(dir, options);
  const { directory, paths, results } = reading;
  const linkRoot = linkRootOf(directory, options?.linkRoot);

  // Problems by file; a duplicate ID is decided again below, where the previous load is known.
  const own = new Map<string, KnowledgeIssue[]>();
  const listed = new Set(paths);
  const elsewhere: KnowledgeIssue[] = [];
  for (const issue of reading.issues) {
    if (issue.code === 'DUPLICATE_DOCUMENT_ID') continue;
    if (issue.file === undefined || !listed.has(issue.file)) elsewhere.push(issue);
    else (own.get(issue.file) ?? own.set(issue.file, []).get(issue.file)!).push(issue);
  }

  // The versions the previous load served, by file.
  const before = new Map<string, Version>();
  if (previous !== undefined && previous.directory === directory) {
    for (const id of previous.catalog.ids)
      before.set(previous.paths[id]!, {
        document: previous.catalog.document(id),
        page: previous.files[id]!,
        idPlace: undefined,
      });
  }

  // Files served before claim their IDs first, then the others, each group in path order.
  const order = paths.map((_, i) => i);
  order.sort((a, b) => Number(!before.has(paths[a]!)) - Number(!before.has(paths[b]!)) || a - b);
  const claimed = new Map<string, string>();
  const served = new Map<string, { version: Version; current: boolean }>();
  for (const i of order) {
    const file = paths[i]!;
    const result = results[i]!;
    const problems = own.get(file) ?? [];
    const fresh: Version | undefined =
      problems.length === 0 && result.document !== undefined && result.page !== undefined
        ? { document: result.document, page: result.page, idPlace: result.idPlace }
        : undefined;
    if (fresh !== undefined) {
      const holder = claimed.get(fresh.document.id);
      if (holder === undefined) {
        claimed.set(fresh.document.id, file);
        served.set(file, { version: fresh, current: true });
        continue;
      }
      const place = fresh.idPlace?.();
      problems.push(
        fileIssue(
          'DUPLICATE_DOCUMENT_ID',
          file,
          place ?? { line: 1, column: 1 },
          `document ID \`${fresh.document.id}\` is already used by \`${holder}\`, which was loaded first${place === undefined ? ' (this file has no `id`, so its ID is its path)' : ''}, so only \`${holder}\` is served. Document IDs are unique in a folder: set a different \`id\` in the front matter of one of them.`,
          fresh.document.id,
        ),
      );
      own.set(file, problems);
    }
    const old = before.get(file);
    if (old !== undefined && !claimed.has(old.document.id)) {
      claimed.set(old.document.id, file);
      served.set(file, { version: old, current: false });
    }
  }

  // Unavailable files are listed under their path without `.md`, or their page path when a served
  // page or a navigation file has that ID.
  const taken = new Set<string>(['index.md']);
  for (const id of claimed.keys()) {
    taken.add(id);
    if (isWellFormed(id)) taken.add(graphFilePath(id));
  }
  const served_: { file: string; version: Version }[] = [];
  const status: Record<string, KnowledgeFileLoadStatus> = {};
  const previousProblems: Record<string, string> = {};
  const unavailable: KnowledgeUnavailableFile[] = [];
  for (const file of paths) {
    const problems = own.get(file) ?? [];
    const entry = served.get(file);
    if (entry !== undefined) {
      served_.push({ file, version: entry.version });
      const documentId = entry.version.document.id;
      if (!entry.current) previousProblems[documentId] = summary(problems);
      define(status, file, {
        generatedOutputStatus: entry.current ? 'current_available' : 'previous_available',
        documentId,
        issues: problems,
      });
      continue;
    }
    let fileId: string | undefined = withoutExtension(file);
    if (taken.has(fileId)) fileId = taken.has(`pages/${file}`) ? undefined : `pages/${file}`;
    if (fileId !== undefined) {
      taken.add(fileId);
      unavailable.push({ fileId, path: `pages/${file}`, problem: summary(problems) });
    }
    define(status, file, {
      generatedOutputStatus: 'unavailable',
      ...(fileId === undefined ? {} : { fileId }),
      issues: problems,
    });
  }

  const catalog = defineKnowledgeCatalog(
    served_.map((s) => s.version.document),
    options?.maxChars === undefined ? {} : { maxChars: options.maxChars },
  );
  const files: Record<string, KnowledgeFileOptions> = {};
  const pathsById: Record<string, string> = {};
  for (const { file, version } of served_) {
    define(files, version.document.id, version.page);
    define(pathsById, version.document.id, file);
  }
  const issues = [...elsewhere, ...[...own.values()].flat()].sort(byPlace);
  return deepFreeze({
    catalog,
    documents: catalog.ids.map((id) => catalog.document(id)),
    files,
    directory,
    paths: pathsById,
    linkRoot,
    publishedAt: new Date().toISOString(),
    status,
    issues,
    warnings: reading.warnings,
    fileStatus: { previous: previousProblems, unavailable },
  });
}

/** A file's problems in one sentence for the agent tools: the first, and how many more. */
function summary(problems: readonly KnowledgeIssue[]): string {
  const first = problems[0]?.message ?? 'it could not be loaded.';
  return problems.length > 1 ? `${first} (and ${problems.length - 1} more)` : first;
}

/** Sets an own enumerable key (`__proto__` included) on a record. */
function define<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
