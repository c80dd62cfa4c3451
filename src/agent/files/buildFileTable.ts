/**
 * The file table of a catalog source: one page per document, `index.md` and one graph file per page,
 * the directory tree, lookups by ID and path, and `activeContentRevision`. Built once, stage by
 * stage: the pages (`readPages`), the navigation files, the lookups with their collisions
 * (`indexFiles`), the directory tree (`directoryTree`), the content revision. Immutable.
 */
import stringify from 'fast-json-stable-stringify';
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import { didYouMean, suggest } from '../../shared/suggest.js';
import type { KnowledgeCatalog } from '../../types.js';
import { digest64 } from '../../shared/digest.js';
import type {
  DirectoryRecord,
  FileRecord,
  FileTable,
  NavRecord,
  PageRecord,
  UnavailableRecord,
} from '../model.js';
import type { CatalogSourceOptions } from '../source/catalogSourceOptions.js';
import { checkFilesEntry } from './checkFilesEntry.js';
import { readFileStatus, type FileStatus } from './readFileStatus.js';
import { graphFilePath, pagePathProblem } from '../../shared/pagePath.js';
import { compareCodePoints } from '../../shared/codePoints.js';
import { isMdxPath } from '../../markdown/pageText.js';
import { summarize } from './summarize.js';

const API = 'createCatalogSource';

/**
 * Build the file table of a catalog: a page per document (path, title, description and front matter
 * from `options.files`, else from the text), `index.md`, a graph file per page, the directory tree,
 * lookups, and `activeContentRevision`.
 *
 * @param catalog - the compiled catalog.
 * @param options - the source options (`files`, `fileStatus` and `revision` are read), as
 *   `readSourceOptions` (or `publishKnowledge`) checked them: `files` a plain object or a function,
 *   `revision` a non-empty string or a safe integer. What only the catalog can tell is checked here.
 * @returns a frozen table whose lookups are `Map` reads.
 * @throws {KnowledgeError} `INVALID_INPUT` with one issue per problem (invalid or colliding paths, a
 *   document ID taken by a navigation file, invalid `files` entries, `files` naming a document the
 *   catalog lacks, an invalid `fileStatus`), each naming the document.
 * @example
 * ```ts
 * const table = buildFileTable(catalog, { files: { faq: { path: 'pages/help/faq.md' } } });
 * table.byPath('pages/help/faq.md')?.fileId; // 'faq'
 * ```
 */
export function buildFileTable(
  catalog: KnowledgeCatalog,
  options: CatalogSourceOptions,
): FileTable {
  const issues: KnowledgeIssue[] = [];
  unknownDocuments(catalog, options, issues);
  const status = readFileStatus(catalog, options.fileStatus, issues);
  const pages = readPages(catalog, options, status, issues);
  const nav = navigationFiles(pages);
  const unavailable: UnavailableRecord[] = status.unavailable.map((u) =>
    Object.freeze({
      kind: 'unavailable',
      fileId: u.fileId,
      path: u.path,
      title: u.path.slice(u.path.lastIndexOf('/') + 1),
      problem: u.problem,
    }),
  );
  const { byId, byPath } = indexFiles(catalog, pages, nav, unavailable, issues);
  const tree = directoryTree([...nav, ...pages, ...unavailable], byId, byPath, issues);
  if (issues.length > 0) throw new KnowledgeError(issues);

  const files = [...nav, ...pages, ...unavailable.filter((f) => byPath.get(f.path) === f)].sort(
    (a, b) => compareCodePoints(a.path, b.path),
  );
  const { records, lists } = tree;
  return Object.freeze({
    activeContentRevision: options.revision ?? contentRevision(pages, status, unavailable),
    pages: Object.freeze(pages),
    files: Object.freeze(files),
    byId: (id: string) => byId.get(id),
    byPath: (path: string) => byPath.get(path),
    directory: (path: string) => records.get(path),
    children: (path: string) => lists.get(path),
    closestIds: (id: string, n: number) => suggest(id, byId.keys()).slice(0, n),
    closestPaths: (path: string, n: number) =>
      suggest(path, [...byPath.keys(), ...records.keys()]).slice(0, n),
  });
}

/** An issue for each key of a `files` record that names no document of the catalog. */
function unknownDocuments(
  catalog: KnowledgeCatalog,
  options: CatalogSourceOptions,
  issues: KnowledgeIssue[],
): void {
  const files = options.files;
  if (files === undefined || typeof files === 'function') return;
  const known = new Set(catalog.ids);
  for (const key of Object.keys(files)) {
    if (known.has(key)) continue;
    issues.push({
      code: 'INVALID_INPUT',
      documentId: key,
      path: ['files', key],
      message: `${API}: \`options.files\` names the document \`${key}\`, which is not in the catalog.${didYouMean(suggest(key, catalog.ids))} Remove the entry or fix its key.`,
    });
  }
}

/** A page per document, sorted by path: its `files` entry, else its default path and its text's summary. */
function readPages(
  catalog: KnowledgeCatalog,
  options: CatalogSourceOptions,
  status: FileStatus,
  issues: KnowledgeIssue[],
): PageRecord[] {
  const pages: PageRecord[] = [];
  for (const id of catalog.ids) {
    let opts;
    try {
      opts = checkFilesEntry(options, id, issues);
    } catch (error) {
      issues.push({
        code: 'INVALID_INPUT',
        documentId: id,
        path: ['files', id],
        message: `${API}: reading \`files[${JSON.stringify(id)}]\` threw (${error instanceof Error ? error.message : String(error)}). Pass plain data without getters or proxies.`,
      });
      opts = checkFilesEntry({}, id, issues);
    }
    let path = opts.path;
    if (path === undefined) {
      path = `pages/${id}.md`;
      const why = pagePathProblem(path);
      if (why) {
        issues.push({
          code: 'INVALID_INPUT',
          documentId: id,
          path: ['files', id, 'path'],
          message: `${API}: document \`${id}\` needs an explicit \`files[${JSON.stringify(id)}].path\`: its default path ${JSON.stringify(path)} ${why}.`,
        });
      }
    }
    const doc = catalog.document(id);
    const needText = opts.title === undefined || opts.description === undefined;
    const found = needText
      ? summarize(
          catalog.read({
            documentId: id,
            selection: { mode: 'document' },
            maxChars: Number.MAX_SAFE_INTEGER,
          }).content,
          isMdxPath(path),
        )
      : { title: undefined, description: undefined };
    pages.push(
      Object.freeze({
        kind: 'page',
        fileId: id,
        path,
        title: opts.title ?? found.title ?? id,
        description: opts.description ?? found.description ?? null,
        frontmatter: opts.frontmatter,
        tags: opts.tags,
        revision: doc.revision,
        locale: doc.locale ?? null,
        status: status.previous.has(id) ? 'previous_available' : 'current_available',
      }),
    );
  }
  return pages.sort((a, b) => compareCodePoints(a.path, b.path));
}

/** `index.md` and a graph file per page. */
function navigationFiles(pages: readonly PageRecord[]): NavRecord[] {
  const nav: NavRecord[] = [
    Object.freeze({
      kind: 'index',
      fileId: 'index.md',
      path: 'index.md',
      title: 'Index',
      description:
        'Lists every page with its title and description, by directory: for discovery, not evidence.',
      pageId: null,
    }),
  ];
  for (const page of pages) {
    const path = graphFilePath(page.fileId);
    nav.push(
      Object.freeze({
        kind: 'graph',
        fileId: path,
        path,
        title: `Relationships of ${page.title}`,
        description: `Lists the pages related to \`${page.path}\` (links both ways and shared tags): for discovery, not evidence.`,
        pageId: page.fileId,
      }),
    );
  }
  return nav;
}

/**
 * The pages and unavailable files by ID and by path, with an issue for each collision: two files on
 * one path, an ID taken by a navigation file, an unavailable file on another's ID or path.
 */
function indexFiles(
  catalog: KnowledgeCatalog,
  pages: readonly PageRecord[],
  nav: readonly NavRecord[],
  unavailable: readonly UnavailableRecord[],
  issues: KnowledgeIssue[],
): { byId: Map<string, FileRecord>; byPath: Map<string, FileRecord> } {
  const byPath = new Map<string, FileRecord>();
  const byId = new Map<string, FileRecord>();
  const navIds = new Set(nav.map((n) => n.fileId));
  for (const page of pages) {
    const other = byPath.get(page.path);
    if (other !== undefined) {
      issues.push({
        code: 'INVALID_INPUT',
        documentId: page.fileId,
        path: ['files', page.fileId, 'path'],
        message: `${API}: documents \`${other.fileId}\` and \`${page.fileId}\` both have the path \`${page.path}\`. Give one of them another \`files[…].path\`.`,
      });
    } else byPath.set(page.path, page);
    if (navIds.has(page.fileId)) {
      issues.push({
        code: 'INVALID_INPUT',
        documentId: page.fileId,
        path: ['catalog', 'ids', catalog.ids.indexOf(page.fileId)],
        message: `${API}: the document ID \`${page.fileId}\` is also the file ID of a navigation file (\`index.md\` and \`_graph/by-file/…\` are generated). Give the document another ID.`,
      });
    }
    byId.set(page.fileId, page);
  }
  unavailable.forEach((file, i) => {
    const other = byId.get(file.fileId) ?? (navIds.has(file.fileId) ? file : undefined);
    const sameId = other !== undefined;
    const samePath = byPath.get(file.path);
    if (sameId || samePath !== undefined) {
      issues.push({
        code: 'INVALID_INPUT',
        path: ['fileStatus', 'unavailable', i],
        message: `${API}: the unavailable file \`${file.path}\` has ${sameId ? `the file ID \`${file.fileId}\`` : 'the path'} of ${samePath !== undefined && !sameId ? `\`${samePath.fileId}\`` : 'another file'}. Give it a file ID and path no other file has.`,
      });
      return;
    }
    byId.set(file.fileId, file);
    byPath.set(file.path, file);
  });
  return { byId, byPath };
}

/** A directory being built: its subdirectories and files so far. */
interface DirectoryDraft {
  path: string;
  name: string;
  fileCount: number;
  dirs: Set<string>;
  files: FileRecord[];
}

/**
 * The directory tree of the files the lookups keep (adding the navigation files to them), with an
 * issue for each page whose path is also a directory of others.
 */
function directoryTree(
  all: readonly FileRecord[],
  byId: Map<string, FileRecord>,
  byPath: Map<string, FileRecord>,
  issues: KnowledgeIssue[],
): {
  records: Map<string, DirectoryRecord>;
  lists: Map<string, { directories: readonly DirectoryRecord[]; files: readonly FileRecord[] }>;
} {
  const directories = new Map<string, DirectoryDraft>();
  const dir = (path: string) => {
    let d = directories.get(path);
    if (d === undefined) {
      d = {
        path,
        name: path.slice(path.lastIndexOf('/') + 1),
        fileCount: 0,
        dirs: new Set(),
        files: [],
      };
      directories.set(path, d);
    }
    return d;
  };
  dir('');
  for (const file of all) {
    if (file.kind === 'unavailable') {
      if (byPath.get(file.path) !== file) continue;
    } else if (file.kind !== 'page') {
      byPath.set(file.path, file);
      byId.set(file.fileId, file);
    } else if (byPath.get(file.path) !== file) continue;
    let parent = '';
    const segments = file.path.split('/');
    dir('').fileCount++;
    for (let i = 0; i < segments.length - 1; i++) {
      const path = segments.slice(0, i + 1).join('/');
      dir(parent).dirs.add(path);
      dir(path).fileCount++;
      parent = path;
    }
    dir(parent).files.push(file);
  }
  for (const d of directories.values()) {
    const clash = byPath.get(d.path);
    if (d.path !== '' && clash !== undefined) {
      issues.push({
        code: 'INVALID_INPUT',
        documentId: clash.fileId,
        path: ['files', clash.fileId, 'path'],
        message: `${API}: the path \`${d.path}\` of document \`${clash.fileId}\` is also a directory of other pages. Give it another \`files[…].path\`.`,
      });
    }
  }
  const lists = new Map<
    string,
    { directories: readonly DirectoryRecord[]; files: readonly FileRecord[] }
  >();
  const records = new Map<string, DirectoryRecord>();
  for (const d of directories.values())
    records.set(d.path, Object.freeze({ path: d.path, name: d.name, fileCount: d.fileCount }));
  for (const d of directories.values()) {
    // Each file's name cut once, not at every comparison (a folder may hold thousands).
    const named = d.files.map((f) => ({ f, name: f.path.slice(f.path.lastIndexOf('/') + 1) }));
    named.sort((a, b) => compareCodePoints(a.name, b.name));
    lists.set(
      d.path,
      Object.freeze({
        directories: Object.freeze(
          [...d.dirs].map((p) => records.get(p)!).sort((a, b) => compareCodePoints(a.name, b.name)),
        ),
        files: Object.freeze(named.map((n) => n.f)),
      }),
    );
  }
  return { records, lists };
}

/**
 * A digest of what the pages are (IDs, revisions, locales, paths, titles, descriptions, front matter)
 * and, only when some file is not current, of the file status: `rev-` and 16 hex digits.
 */
function contentRevision(
  pages: readonly PageRecord[],
  status: FileStatus,
  unavailable: readonly UnavailableRecord[],
): string {
  return `rev-${digest64(
    pagesText(pages) +
      // Only when some file is not current, so that a source without `fileStatus` keeps its revision.
      (status.previous.size > 0 || unavailable.length > 0
        ? stringify([
            [...status.previous].sort((a, b) => compareCodePoints(a[0], b[0])),
            unavailable.map((u) => [u.fileId, u.path, u.problem]),
          ])
        : ''),
  )}`;
}

/**
 * `fast-json-stable-stringify` of `pages.map((p) => [p.fileId, p.revision, p.locale, p.path, p.title,
 * p.description, p.frontmatter])`, written out: the strings as `JSON.stringify` writes them (as that
 * library does), `null` as `null`, and the library only for a front matter with keys. The library's
 * walk over every page's array was most of the revision's cost on a folder of small pages. Exported
 * for the property that both give the same text.
 *
 * @param pages - the pages, in path order.
 * @returns the text the revision digests.
 */
export function pagesText(pages: readonly PageRecord[]): string {
  const json = (text: string | null): string => (text === null ? 'null' : JSON.stringify(text));
  let out = '[';
  for (let i = 0; i < pages.length; i++) {
    const p = pages[i]!;
    const fm = p.frontmatter;
    out +=
      `${i === 0 ? '' : ','}[${json(p.fileId)},${json(p.revision)},${json(p.locale)},` +
      `${json(p.path)},${json(p.title)},${json(p.description)},` +
      `${Object.keys(fm).length === 0 ? '{}' : stringify(fm)}]`;
  }
  return `${out}]`;
}
