/**
 * Reads a folder of Markdown into documents, page records and every problem found, without throwing
 * for problems in the files: `loadKnowledgeDirectory` and the `check` command share it.
 */
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob } from 'tinyglobby';
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { parseKnowledgeDocument } from '../parse/parseKnowledgeDocument.js';
import { pagePathProblem } from '../agent/files/readFileOptions.js';
import type { KnowledgeCatalog, KnowledgeDocument } from '../types.js';
import type { JsonObject, KnowledgeFileOptions } from '../agent/types.js';
import { decodeUtf8 } from './decodeUtf8.js';
import { readFrontMatter } from './frontMatter.js';
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
}

/** Compares two strings by UTF-16 code units, as the path order and the issue order use. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Checks the options, throwing `INVALID_INPUT` for anything wrong. */
function checkOptions(options: LoadKnowledgeDirectoryOptions | undefined): void {
  if (options === undefined) return;
  const issues: KnowledgeIssue[] = [];
  if (options === null || typeof options !== 'object') {
    issues.push({ code: 'INVALID_INPUT', path: ['options'], message: `${API}: options must be an object such as \`{ exclude: ['drafts/**'] }\`.` });
  } else {
    for (const key of Object.keys(options)) {
      if (key !== 'include' && key !== 'exclude' && key !== 'maxChars') {
        issues.push({ code: 'INVALID_INPUT', path: ['options', key], message: `${API}: unknown option \`${key}\`. The options are \`include\`, \`exclude\` and \`maxChars\`.` });
      }
    }
    for (const key of ['include', 'exclude'] as const) {
      const value: unknown = options[key];
      if (value !== undefined && !(Array.isArray(value) && value.length > 0 && value.every((p) => typeof p === 'string' && p !== ''))) {
        issues.push({ code: 'INVALID_INPUT', path: ['options', key], message: `${API}: \`${key}\` must be a non-empty array of glob strings, such as \`['guides/**']\`.` });
      }
    }
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
}

/** The absolute folder path of `dir`, or a thrown `READ_FAILED` / `INVALID_INPUT`. */
async function folderOf(dir: string | URL): Promise<string> {
  if (!(typeof dir === 'string' && dir !== '') && !(dir instanceof URL)) {
    throw new KnowledgeError([{ code: 'INVALID_INPUT', path: ['dir'], message: `${API}: \`dir\` must be a folder path or a \`file:\` URL, not ${typeof dir === 'string' ? 'an empty string' : typeof dir}.` }]);
  }
  const directory = resolve(dir instanceof URL ? fileURLToPath(dir) : dir);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
    throw new KnowledgeError([{ code: 'READ_FAILED', path: ['dir'], file: directory, message: `${API}: folder \`${directory}\` ${reason}. Pass the folder that holds your Markdown files.` }], { cause: error });
  }
  if (!isDirectory) {
    throw new KnowledgeError([{ code: 'READ_FAILED', path: ['dir'], file: directory, message: `${API}: \`${directory}\` is a file, not a folder. Pass the folder that holds it.` }]);
  }
  return directory;
}

/** `message` with the parser's `parseKnowledgeDocument: \`id\` L:C: ` prefix replaced by `file:L:C: `. */
function placeMessage(issue: KnowledgeIssue, file: string): string {
  const place = issue.line === undefined ? file : `${file}:${issue.line}:${issue.column ?? 1}`;
  const prefix = issue.line === undefined ? undefined : ` ${issue.line}:${issue.column ?? 1}: `;
  const cut = prefix === undefined ? -1 : issue.message.indexOf(prefix);
  return `${place}: ${cut >= 0 && prefix !== undefined ? issue.message.slice(cut + prefix.length) : issue.message}`;
}

/** The line and column (UTF-16 units, as everywhere) of byte `offset`, all of whose predecessors are valid UTF-8. */
function placeOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const b = bytes[i];
    if (b === 10 || (b === 13 && bytes[i + 1] !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  // The file's leading BOM is not a column, as the parser ignores it; a U+FEFF later on is one.
  return { line, column: new TextDecoder('utf-8', { ignoreBOM: lineStart !== 0 }).decode(bytes.subarray(lineStart, offset)).length + 1 };
}

/** One file, read: its document and page record, or nothing when it has a problem. */
interface FileResult {
  /** The document ID the file has (front matter `id` or its path), when its front matter could be read. */
  readonly id?: string;
  readonly document?: KnowledgeDocument;
  readonly page?: KnowledgeFileOptions;
  /** Where its front matter's `id` is, for a duplicate's message. */
  readonly idPlace?: () => { readonly line: number; readonly column: number } | undefined;
}

/** Reads, decodes, splits and parses one file, pushing its problems onto `issues`. */
function readOne(file: string, bytes: Uint8Array, issues: KnowledgeIssue[], hashRevision: boolean): FileResult {
  const decoded = decodeUtf8(bytes);
  if ('invalidAt' in decoded) {
    const { line, column } = placeOfByte(bytes, decoded.invalidAt);
    issues.push({ code: 'INVALID_ENCODING', file, line, column, message: `${file}:${line}:${column}: byte ${decoded.invalidAt} (0x${bytes[decoded.invalidAt]!.toString(16).toUpperCase().padStart(2, '0')}) is not valid UTF-8. Save the file as UTF-8; Knowledge Kit never guesses an encoding or replaces bytes.` });
    return {};
  }
  const before = issues.length;
  const front = readFrontMatter(decoded.text, file, issues);
  const frontOk = issues.length === before;
  const data = front.data;
  const id = typeof data['id'] === 'string' ? data['id'] : file.slice(0, -'.md'.length);
  const known = frontOk ? { id, idPlace: () => front.place('id') } : {};
  const path = `pages/${file}`;
  const pathProblem = pagePathProblem(path);
  if (pathProblem) issues.push({ code: 'INVALID_INPUT', file, documentId: id, message: `${file}: its page path \`${path}\` ${pathProblem}. Rename the file.` });
  // The body is parsed even when the front matter has a problem, so that one run shows them all.
  // The front matter becomes blank lines, so that every position the parser reports is a file position.
  const text = front.lines === 0 ? front.body : '\n'.repeat(front.lines) + front.body;
  const revision = hashRevision ? `sha256:${hash('sha256', bytes, 'hex')}` : 'not-hashed';
  let document: KnowledgeDocument;
  try {
    const locale = data['locale'];
    document = parseKnowledgeDocument({ id, revision, text, locale: typeof locale === 'string' ? locale : undefined });
  } catch (error) {
    if (!isKnowledgeError(error)) throw error;
    for (const issue of error.issues) issues.push({ ...issue, file, message: placeMessage(issue, file) });
    return known;
  }
  if (issues.length > before) return known;
  const page: { -readonly [K in keyof KnowledgeFileOptions]: KnowledgeFileOptions[K] } = { path, frontmatter: data as JsonObject };
  if (typeof data['title'] === 'string') page.title = data['title'];
  if (typeof data['description'] === 'string') page.description = data['description'];
  return { ...known, document, page };
}

/**
 * Reads every Markdown file of `dir` and compiles them, collecting every problem instead of throwing.
 *
 * @param dir - the folder, as a path or a `file:` URL.
 * @param options - `include`, `exclude`, `maxChars`.
 * @param hooks - for the command line: `onProgress(done, total)` after each file (its progress line),
 *   and `hashRevisions: false` when nothing will read the documents' revisions (`check`; default true).
 * @returns what loaded and every problem, sorted by file and place.
 * @throws {KnowledgeError} `INVALID_INPUT` for bad arguments, `READ_FAILED` when the folder or a file
 *   cannot be read.
 */
export async function readKnowledgeDirectory(
  dir: string | URL,
  options?: LoadKnowledgeDirectoryOptions,
  hooks: { readonly onProgress?: (done: number, total: number) => void; readonly hashRevisions?: boolean } = {},
): Promise<DirectoryReading> {
  checkOptions(options);
  const directory = await folderOf(dir);
  const found = await glob(options?.include ? [...options.include] : ['**/*.md'], {
    cwd: directory,
    ignore: ['**/node_modules/**', ...(options?.exclude ?? [])],
    dot: false,
    onlyFiles: true,
    expandDirectories: false,
  });
  // `include` may name a dot folder or node_modules explicitly; they are left out all the same.
  const paths = found.filter((p) => p.endsWith('.md') && !p.split('/').some((s) => s.startsWith('.') || s === 'node_modules')).sort(byCodeUnits);

  const issues: KnowledgeIssue[] = [];
  const results: FileResult[] = [];
  // Synchronous reads: for the small files a knowledge base is made of, `fs/promises` spends more on
  // its file handles than on reading (2,000 files of 1 KB: 140 ms against 16–36 ms here), and the
  // parse after each read blocks the thread anyway.
  for (const file of paths) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(resolve(directory, file));
    } catch (error) {
      throw new KnowledgeError([{ code: 'READ_FAILED', file, message: `${API}: \`${file}\` in \`${directory}\` cannot be read (${(error as Error).message}). Check that it exists and is readable.` }], { cause: error });
    }
    results.push(readOne(file, bytes, issues, hooks.hashRevisions !== false));
    hooks.onProgress?.(results.length, paths.length);
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
      const { line, column } = place ?? { line: 1, column: 1 };
      issues.push({
        code: 'DUPLICATE_DOCUMENT_ID',
        file,
        line,
        column,
        documentId: id,
        message: `${file}:${line}:${column}: document ID \`${id}\` is already used by \`${first}\`${place === undefined ? ' (this file has no `id`, so its ID is its path)' : ''}. Document IDs are unique in a folder: set a different \`id\` in the front matter of one of them.`,
      });
      continue;
    }
    if (document === undefined || page === undefined) continue;
    documents.push(document);
    owners.push(i);
    if (!Object.prototype.hasOwnProperty.call(files, document.id)) Object.defineProperty(files, document.id, { value: page, enumerable: true, writable: true, configurable: true });
  }

  let catalog: KnowledgeCatalog | undefined;
  try {
    catalog = defineKnowledgeCatalog(documents, options?.maxChars === undefined ? {} : { maxChars: options.maxChars });
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

  issues.sort((a, b) => byCodeUnits(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { directory, paths, documents, files, catalog: issues.length === 0 ? catalog : undefined, issues };
}
