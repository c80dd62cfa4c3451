/**
 * A catalog source's state (`SourceState`) rebuilt from the rows one call read: the revision's file
 * table from the stored page records (with the agent layer's own `buildFileTable`), and only the
 * documents, section sizes and relationships the call asked for. Whatever the call did not ask for
 * is missing, and touching it throws `NotRead` (the source then answers from the whole revision),
 * never a wrong answer.
 */
import { defineKnowledgeCatalog } from '../../catalog/defineKnowledgeCatalog.js';
import { buildFileTable } from '../files/buildFileTable.js';
import { renderIndexMarkdown } from '../files/renderIndexMarkdown.js';
import type { FileTable, PageRecord, RelationRecord, RelationTable } from '../model.js';
import type { SearchEngine } from '../search/port.js';
import type { ActiveContentRevision, KnowledgeFileOptions } from '../types.js';
import type { KnowledgeCatalog, KnowledgeDocument } from '../../types.js';
import { openScope, type ScopeDefaults } from './callScope.js';
import type { CursorSigner } from './cursorKey.js';
import { relatedItems } from '../tools/readRelated/run.js';
import type { SectionSize, SourceState } from './state.js';
import { notRead } from './notRead.js';

/** One page row as a call read it: the record always, the rest when the call asked for it. */
export interface StoredPage {
  readonly record: Omit<PageRecord, 'kind'>;
  readonly document: KnowledgeDocument | undefined;
  readonly sectionSizes: readonly SectionSize[] | undefined;
  readonly relations: readonly RelationRecord[] | undefined;
}

/** What every state of a stored source's calls carries. */
export interface StoredContext {
  readonly defaults: ScopeDefaults;
  readonly maxReadChars: number;
  readonly cursors: CursorSigner;
  /**
   * The source's version label (`options.version`, default `current`): the label of every answer
   * whose read names none (a store serving a knowledge base's default version names its label).
   */
  readonly version: string;
  /** When the source was created (ISO 8601): `publishedAt` of a revision whose store names no time. */
  readonly createdAt: string;
}

/**
 * `version` and `publishedAt` of a read's revision: the label and time the store gave with it, else
 * the source's label and when the source was created.
 *
 * @param context - the source's settings.
 * @param read - the read (its `version` and `publishedAt`, when the store gave them).
 */
export function servedAs(
  context: StoredContext,
  read: { readonly version?: string | undefined; readonly publishedAt?: string | undefined },
): { readonly version: string; readonly publishedAt: string } {
  return {
    version: read.version ?? context.version,
    publishedAt: read.publishedAt ?? context.createdAt,
  };
}

const missing = (what: string, fileId: string): never =>
  notRead(`${what} of ${JSON.stringify(fileId)}`);

/**
 * The file table of stored page records: `buildFileTable` over a catalog that knows each page's
 * document revision and locale, with each record's path, title, description and front matter as the
 * page's file options (a page without a description is summarized from an empty text, which gives none).
 *
 * @param pages - the revision's page records.
 * @param revision - the revision's `activeContentRevision`.
 */
export function storedTable(
  pages: readonly Omit<PageRecord, 'kind'>[],
  revision: ActiveContentRevision,
): FileTable {
  const byId = new Map(pages.map((p) => [p.fileId, p]));
  const catalog = {
    ids: pages.map((p) => p.fileId),
    document: (id: string) => {
      const p = byId.get(id)!;
      return p.locale === null
        ? { id, revision: p.revision, parts: [] }
        : { id, revision: p.revision, locale: p.locale, parts: [] };
    },
    read: () => ({ content: '' }),
  } as unknown as KnowledgeCatalog;
  const files = (id: string): KnowledgeFileOptions => {
    const p = byId.get(id)!;
    return {
      path: p.path,
      title: p.title,
      ...(p.description === null ? {} : { description: p.description }),
      frontmatter: p.frontmatter,
    };
  };
  return buildFileTable(catalog, { files, revision });
}

/**
 * The state of one call.
 *
 * @param pages - the rows the call read.
 * @param read - the revision they belong to, its version's label and when the store published it
 *   (each when the store gave it).
 * @param engine - the search engine of that revision (a stub for calls that do not search).
 * @param context - the source's action base, knowledge base ID, read limit, cursor key and version.
 */
export function storedState(
  pages: readonly StoredPage[],
  read: {
    readonly revision: ActiveContentRevision;
    readonly version?: string | undefined;
    readonly publishedAt?: string | undefined;
  },
  engine: SearchEngine,
  context: StoredContext,
): SourceState {
  const { revision } = read;
  const { defaults, maxReadChars, cursors } = context;
  const table = storedTable(
    pages.map((p) => p.record),
    revision,
  );
  const rows = new Map(pages.map((p) => [p.record.fileId, p]));
  const documents = pages.flatMap((p) => (p.document === undefined ? [] : [p.document]));
  const catalog = defineKnowledgeCatalog(documents);
  const relations: RelationTable = {
    get: (fileId) => {
      const row = rows.get(fileId);
      if (row === undefined) return undefined;
      return row.relations ?? missing('the relationships', fileId);
    },
  };
  const state: SourceState = {
    catalog,
    table,
    relations,
    engine,
    defaults,
    cursors,
    ...servedAs(context, read),
    maxReadChars,
    navText(fileId) {
      const file = table.byId(fileId)!;
      if (file.kind !== 'graph') return renderIndexMarkdown(table);
      const scope = openScope('read_related', undefined, defaults);
      const { items } = relatedItems(state, scope, file.pageId!);
      return `${JSON.stringify({ fileId: file.pageId, items, nextCursor: null }, null, 2)}\n`;
    },
    sectionSizes(documentId) {
      return rows.get(documentId)?.sectionSizes ?? missing('the section sizes', documentId);
    },
  };
  return state;
}
