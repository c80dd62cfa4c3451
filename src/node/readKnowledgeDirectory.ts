/**
 * Reads a folder of Markdown into documents, page records and every problem found, without throwing
 * for problems in the files: `loadKnowledgeDirectory` and the `check` command share it.
 */
import { fileIssue } from './fileIssue.js';
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import type { KnowledgeCatalog, KnowledgeDocument } from '../types.js';
import type { KnowledgeFileOptions } from '../agent/index.js';
import { checkOptions, folderOf } from './folderOf.js';
import { graphFilePath } from '../shared/pagePath.js';
import { isWellFormed, readOne, type FileResult } from './readOne.js';
import { byCodeUnits, walkFolder } from './walk.js';
import { readListed } from './readListed.js';
import { DEFAULT_MAX_FILE_BYTES } from './readRegular.js';
import type { LoadKnowledgeDirectoryOptions } from './types.js';

const API = 'loadKnowledgeDirectory';

/** Everything read from a folder: what loaded, and every problem. */
export interface DirectoryReading {
  /** The folder, absolute. */
  readonly directory: string;
  /** Relative paths of the Markdown files read, in path order. */
  readonly paths: readonly string[];
  /** The documents that parsed, in path order. */
  readonly documents: readonly KnowledgeDocument[];
  /** Page records of those documents, by document ID. */
  readonly files: { readonly [documentId: string]: KnowledgeFileOptions };
  /** The catalog, when there was no problem at all. */
  readonly catalog: KnowledgeCatalog | undefined;
  /** Every problem, sorted by file, line and column. */
  readonly issues: readonly KnowledgeIssue[];
  /**
   * Every warning (a front matter key left out for its type), sorted by file, line and column: the
   * pages load without the key, so warnings never clear `catalog`.
   */
  readonly warnings: readonly KnowledgeIssue[];
  /**
   * What each file of `paths` gave, in the same order: its ID, and its document and page record when
   * the file itself parsed cleanly (a document ID taken by an earlier file, or by a navigation file, is
   * reported in `issues` but does not clear these).
   */
  readonly results: readonly FileResult[];
}

/**
 * Reads every Markdown file of `dir` and compiles them, collecting every problem instead of throwing.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * @param options - `include`, `exclude`, `maxChars`, `followLinks`, `linkRoot`, `maxFileBytes`.
 * @param hooks - for the command line: `onProgress(done, total)` after each file (its progress line),
 *   and `hashRevisions: false` when nothing will read the documents' revisions (`check`; default true).
 * @returns what loaded and every problem, sorted by file and place.
 * @throws {KnowledgeError} `INVALID_INPUT` for bad arguments, `READ_FAILED` when the folder cannot be
 *   read (a file that cannot be read is a `READ_FAILED` issue of that file, not thrown).
 */
export async function readKnowledgeDirectory(
  dir: string | URL,
  options?: LoadKnowledgeDirectoryOptions,
  hooks: {
    readonly onProgress?: (done: number, total: number) => void;
    readonly hashRevisions?: boolean;
  } = {},
): Promise<DirectoryReading> {
  checkOptions(options);
  const directory = await folderOf(dir);
  const walked = await walkFolder(directory, API, options ?? {});
  const paths = walked.paths;

  const issues: KnowledgeIssue[] = [...walked.refused];
  const results: FileResult[] = [];
  const warnings: KnowledgeIssue[] = [];
  // Synchronous reads: for the small files a knowledge base is made of, `fs/promises` spends more on
  // its file handles than on reading (2,000 files of 1 KB: 140 ms against 16–36 ms here), and the
  // parse after each read blocks the thread anyway. Each file is read from the handle checked to be
  // the regular file the walk saw (a FIFO opens without waiting), and a file that cannot be read is a
  // problem of that file.
  let gone = false;
  const maxBytes = options?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  for (const file of paths) {
    const read = readListed(directory, file, walked.seen.get(file), maxBytes, API);
    if ('issue' in read) {
      issues.push(read.issue);
      gone ||= read.gone;
      results.push({});
    } else results.push(readOne(file, read.bytes, issues, hooks.hashRevisions !== false, warnings));
    hooks.onProgress?.(results.length, paths.length);
  }
  // Files vanish when the whole folder does: that is the folder's `READ_FAILED`, as a watch expects.
  if (gone) await folderOf(directory);

  // IDs the agent layer gives its navigation files (`index.md`, a graph file per page): a document
  // with one of them could not be served (`createCatalogSource` refuses the catalog), so it is a
  // problem here, where `check` shows it.
  const navigation = new Set<string>(['index.md']);
  for (const result of results)
    if (result.id !== undefined && isWellFormed(result.id))
      navigation.add(graphFilePath(result.id));
  for (let i = 0; i < results.length; i++) {
    const { id, idPlace } = results[i]!;
    if (id === undefined || !navigation.has(id)) continue;
    const file = paths[i]!;
    const why = `document ID \`${id}\` is also the file ID of a navigation file (\`index.md\` and \`_graph/by-file/<id>.json\` are generated for the agent tools), so it could not be served.`;
    if (idPlace === undefined) {
      issues.push({
        code: 'INVALID_INPUT',
        file,
        documentId: id,
        message: `${file}: its ${why} Rename the file, or set another \`id\` in its front matter.`,
      });
      continue;
    }
    issues.push(
      fileIssue(
        'INVALID_FRONT_MATTER',
        file,
        idPlace(),
        `front matter \`id\`: ${why} Set another \`id\`.`,
        id,
      ),
    );
  }

  const documents: KnowledgeDocument[] = [];
  const owners: number[] = [];
  const files: Record<string, KnowledgeFileOptions> = {};
  // Two files with one ID are found here, over every file whose ID is known (one with a parse problem
  // too), so that fixing one problem never reveals another.
  const firstFileOf = new Map<string, string>();
  for (let i = 0; i < results.length; i++) {
    const { id, idPlace, document, page } = results[i]!;
    if (id === undefined) continue;
    const first = firstFileOf.get(id);
    if (first === undefined) firstFileOf.set(id, paths[i]!);
    else {
      const file = paths[i]!;
      const place = idPlace?.();
      issues.push(
        fileIssue(
          'DUPLICATE_DOCUMENT_ID',
          file,
          place ?? { line: 1, column: 1 },
          `document ID \`${id}\` is already used by \`${first}\`${place === undefined ? ' (this file has no `id`, so its ID is its path)' : ''}. Document IDs are unique in a folder: set a different \`id\` in the front matter of one of them.`,
          id,
        ),
      );
      continue;
    }
    if (document === undefined || page === undefined) continue;
    documents.push(document);
    owners.push(i);
    if (!Object.prototype.hasOwnProperty.call(files, document.id))
      Object.defineProperty(files, document.id, {
        value: page,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }

  let catalog: KnowledgeCatalog | undefined;
  try {
    catalog = defineKnowledgeCatalog(
      documents,
      options?.maxChars === undefined ? {} : { maxChars: options.maxChars },
    );
  } catch (error) {
    if (!isKnowledgeError(error)) throw error;
    for (const issue of error.issues) {
      const index = issue.path?.[0];
      if (typeof index !== 'number') {
        issues.push(issue);
        continue;
      }
      // Documents that parsed compile cleanly but for a bad option; this keeps any other issue placed.
      const file = paths[owners[index]!]!;
      issues.push({ ...issue, file, message: `${file}: ${issue.message}` });
    }
  }

  issues.sort(byPlace);
  warnings.sort(byPlace);
  return {
    directory,
    paths,
    documents,
    files,
    catalog: issues.length === 0 ? catalog : undefined,
    issues,
    warnings,
    results,
  };
}

/** Orders issues by file, line and column. */
export const byPlace = (a: KnowledgeIssue, b: KnowledgeIssue): number =>
  byCodeUnits(a.file ?? '', b.file ?? '') ||
  (a.line ?? 0) - (b.line ?? 0) ||
  (a.column ?? 0) - (b.column ?? 0);
