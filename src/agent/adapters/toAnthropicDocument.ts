/**
 * A read as Anthropic `document` and `search_result` content blocks with citations enabled, so the
 * model's answer cites exactly the text that was read.
 *
 * @module
 */
import type { KnowledgeSnapshot } from '../../types.js';
import type { ReadFileOutput } from '../tools/readFile/types.js';
import { citableRead, type CitableFile } from './citableRead.js';

/** A plain-text `document` block (`DocumentBlockParam` of `@anthropic-ai/sdk`). Fresh. */
export interface AnthropicDocumentBlock {
  readonly type: 'document';
  readonly source: {
    readonly type: 'text';
    readonly media_type: 'text/plain';
    readonly data: string;
  };
  readonly title: string;
  /** Names the snapshot, revision and path, so a citation maps back to exactly what was read. */
  readonly context: string;
  readonly citations: { readonly enabled: true };
}

/** A `search_result` block (`SearchResultBlockParam` of `@anthropic-ai/sdk`). Fresh. */
export interface AnthropicSearchResultBlock {
  readonly type: 'search_result';
  /** The file's content route (`readActions.fileContentById`, else `fileContentByPath`), else its path. */
  readonly source: string;
  readonly title: string;
  readonly content: { type: 'text'; text: string }[];
  readonly citations: { readonly enabled: true };
}

/**
 * A page read as a citable `document` block.
 *
 * @param read - a `read_file` output of a page; or a core snapshot, with `file` given.
 * @param file - with a snapshot: the file it was read from (`title`, `path`).
 * @returns a fresh block for a user message or a `tool_result`'s content.
 * @throws {TypeError} for a navigation file read (`snapshotId` null): navigation is never evidence.
 * @example
 * ```ts
 * const read = await source.readFile({ path: 'pages/renewals.md' });
 * messages.push({ role: 'user', content: [toAnthropicDocument(read), { type: 'text', text: question }] });
 * ```
 */
export function toAnthropicDocument(read: ReadFileOutput): AnthropicDocumentBlock;
export function toAnthropicDocument(
  snapshot: KnowledgeSnapshot,
  file: CitableFile,
): AnthropicDocumentBlock;
export function toAnthropicDocument(
  readOrSnapshot: ReadFileOutput | KnowledgeSnapshot,
  file?: CitableFile,
): AnthropicDocumentBlock {
  const read = citableRead('toAnthropicDocument', readOrSnapshot, file);
  return {
    type: 'document',
    source: { type: 'text', media_type: 'text/plain', data: read.content },
    title: read.title,
    context: `Knowledge Kit snapshot ${read.snapshotId} of ${read.path} (revision ${read.revision}).`,
    citations: { enabled: true },
  };
}

/**
 * A page read as a citable `search_result` block (for a `tool_result`'s content, or a user message).
 *
 * @param read - a `read_file` output of a page; or a core snapshot, with `file` given.
 * @param file - with a snapshot: the file it was read from (`title`, `path`, optional `readActions`).
 * @returns a fresh block whose `source` is the file's content route, else its path.
 * @throws {TypeError} for a navigation file read (`snapshotId` null).
 * @example
 * ```ts
 * content.push({ type: 'tool_result', tool_use_id: block.id, content: [toAnthropicSearchResult(read)] });
 * ```
 */
export function toAnthropicSearchResult(read: ReadFileOutput): AnthropicSearchResultBlock;
export function toAnthropicSearchResult(
  snapshot: KnowledgeSnapshot,
  file: CitableFile,
): AnthropicSearchResultBlock;
export function toAnthropicSearchResult(
  readOrSnapshot: ReadFileOutput | KnowledgeSnapshot,
  file?: CitableFile,
): AnthropicSearchResultBlock {
  const read = citableRead('toAnthropicSearchResult', readOrSnapshot, file);
  return {
    type: 'search_result',
    source: read.readActions.fileContentById ?? read.readActions.fileContentByPath ?? read.path,
    title: read.title,
    content: [{ type: 'text', text: read.content }],
    citations: { enabled: true },
  };
}
