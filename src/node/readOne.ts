/** One file of a folder: decoded, its front matter split off, parsed, with every problem placed in the file. */
import { fileIssue } from './fileIssue.js';
import { hash } from 'node:crypto';
import type { KnowledgeIssue } from '../errors/codes.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import { parseKnowledgeDocument } from '../parse/parseKnowledgeDocument.js';
import { pagePathProblem } from '../shared/pagePath.js';
import type { KnowledgeDocument } from '../types.js';
import type { JsonObject, KnowledgeFileOptions } from '../agent/index.js';
import { decodeUtf8 } from './decodeUtf8.js';
import { readFrontMatter } from './frontMatter.js';
import { withoutExtension } from './walk.js';
import { CR, LF } from '../markdown/chars.js';

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
    if (b === LF || (b === CR && bytes[i + 1] !== LF)) {
      line++;
      lineStart = i + 1;
    }
  }
  // The file's leading BOM is not a column, as the parser ignores it; a U+FEFF later on is one.
  return {
    line,
    column:
      new TextDecoder('utf-8', { ignoreBOM: lineStart !== 0 }).decode(
        bytes.subarray(lineStart, offset),
      ).length + 1,
  };
}

/** Whether `text` has no lone surrogate (`String.prototype.isWellFormed`, which ES2022's lib lacks). */
export function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/** One file, read: its document and page record, or nothing when it has a problem. */
export interface FileResult {
  /** The document ID the file has (front matter `id` or its path), when its front matter could be read. */
  readonly id?: string;
  readonly document?: KnowledgeDocument;
  readonly page?: KnowledgeFileOptions;
  /**
   * Where its front matter's `id` is, for a duplicate's message (the block's first line when the key
   * cannot be placed); absent when the front matter sets no `id` and the ID is the file's path.
   */
  readonly idPlace?: () => { readonly line: number; readonly column: number };
}

/** Decodes one file's bytes, splits off its front matter and parses it, pushing its problems onto `issues`. */
export function readOne(
  file: string,
  bytes: Uint8Array,
  issues: KnowledgeIssue[],
  hashRevision: boolean,
  warnings: KnowledgeIssue[] = [],
): FileResult {
  const decoded = decodeUtf8(bytes);
  if ('invalidAt' in decoded) {
    issues.push(
      fileIssue(
        'INVALID_ENCODING',
        file,
        placeOfByte(bytes, decoded.invalidAt),
        `byte ${decoded.invalidAt} (0x${bytes[decoded.invalidAt]!.toString(16).toUpperCase().padStart(2, '0')}) is not valid UTF-8. Save the file as UTF-8; Knowledge Kit never guesses an encoding or replaces bytes.`,
      ),
    );
    return {};
  }
  const before = issues.length;
  const front = readFrontMatter(decoded.text, file, issues, warnings);
  const frontOk = issues.length === before;
  const data = front.data;
  const id = typeof data['id'] === 'string' ? data['id'] : withoutExtension(file);
  const idPlace =
    typeof data['id'] === 'string' ? () => front.place('id') ?? { line: 2, column: 1 } : undefined;
  const known = frontOk ? (idPlace === undefined ? { id } : { id, idPlace }) : {};
  // A lone surrogate cannot be percent-encoded (`encodeURIComponent` throws `URIError`): no URL, graph
  // file or cursor could name the document. The path of a file never has one (names are decoded UTF-8).
  if (frontOk && idPlace !== undefined && !isWellFormed(id)) {
    issues.push(
      fileIssue(
        'INVALID_FRONT_MATTER',
        file,
        idPlace(),
        `front matter \`id\` holds a lone surrogate (an unpaired \`\\ud800\`–\`\\udfff\` escape), which no URL can carry. Use a valid Unicode string.`,
      ),
    );
  }
  // NUL names nothing: PostgreSQL cannot store it in text, and every source answers a name holding it
  // NOT_FOUND. Refused here, where the file is named, rather than by a raw error at publish.
  if (frontOk && idPlace !== undefined && id.indexOf('\u0000') !== -1) {
    const { line, column } = idPlace();
    issues.push({
      code: 'INVALID_FRONT_MATTER',
      file,
      line,
      column,
      message: `${file}:${line}:${column}: front matter \`id\` holds a NUL character (\`\\u0000\`), which no ID may hold (a database cannot store it, and no call can name it). Remove it from the \`id\`.`,
    });
  }
  const path = `pages/${file}`;
  const pathProblem = pagePathProblem(path);
  if (pathProblem)
    issues.push({
      code: 'INVALID_INPUT',
      file,
      documentId: id,
      message: `${file}: its page path \`${path}\` ${pathProblem}. Rename the file.`,
    });
  // The body is parsed even when the front matter has a problem, so that one run shows them all.
  // The front matter becomes blank lines, so that every position the parser reports is a file position.
  const text = front.lines === 0 ? front.body : '\n'.repeat(front.lines) + front.body;
  const revision = hashRevision ? `sha256:${hash('sha256', bytes, 'hex')}` : 'not-hashed';
  let document: KnowledgeDocument;
  try {
    const locale = data['locale'];
    document = parseKnowledgeDocument(
      {
        id,
        revision,
        text,
        locale: typeof locale === 'string' ? locale : undefined,
      },
      // In an `.mdx` page an anchor may also be written as an MDX comment.
      { mdx: file.endsWith('.mdx') },
    );
  } catch (error) {
    if (!isKnowledgeError(error)) throw error;
    for (const issue of error.issues)
      issues.push({ ...issue, file, message: placeMessage(issue, file) });
    return known;
  }
  if (issues.length > before) return known;
  const page: { -readonly [K in keyof KnowledgeFileOptions]: KnowledgeFileOptions[K] } = {
    path,
    frontmatter: data as JsonObject,
  };
  if (typeof data['title'] === 'string') page.title = data['title'];
  if (typeof data['description'] === 'string') page.description = data['description'];
  return { ...known, document, page };
}
