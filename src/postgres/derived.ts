/**
 * What a revision's whole-revision calls read, derived once at publish from its file table (schema
 * version 2): the directories with their counts, the direct children of each in `list_tree`'s order,
 * and `index.md`'s rendered text. Written by `publishKnowledge`, and by `migrateKnowledgeStore` for the
 * revisions stored before version 2.
 */
import {
  renderIndexMarkdown,
  type FileTable,
  type StoredPage,
  storedTable,
} from '../agent/internals.js';
import { backfillRevisions } from './backfill.js';
import type { KnowledgeDatabase } from './types.js';

/** Rows per `INSERT … SELECT FROM unnest(…)`: arrays of this many values per column. */
const BATCH = 5_000;

/** The derived rows of one revision, column by column. */
export interface DerivedRows {
  readonly directories: {
    readonly path: string[];
    readonly record: string[];
    readonly directoryCount: number[];
    readonly fileCount: number[];
  };
  readonly tree: {
    readonly parent: string[];
    readonly position: number[];
    readonly fileId: (string | null)[];
    readonly entry: (string | null)[];
  };
  readonly nav: { readonly fileId: string; readonly record: string; readonly content: string };
}

/**
 * The derived rows of a file table: every directory (walked from the root with an explicit stack),
 * its children (directories, then files, as `table.children` orders them; a page by ID, anything else
 * by its record), and `index.md`.
 *
 * @param table - the revision's file table (`buildFileTable`).
 */
export function deriveRows(table: FileTable): DerivedRows {
  const directories: DerivedRows['directories'] = {
    path: [],
    record: [],
    directoryCount: [],
    fileCount: [],
  };
  const tree: DerivedRows['tree'] = { parent: [], position: [], fileId: [], entry: [] };
  const stack = [''];
  while (stack.length > 0) {
    const path = stack.pop()!;
    const children = table.children(path)!;
    directories.path.push(path);
    directories.record.push(JSON.stringify(table.directory(path)));
    directories.directoryCount.push(children.directories.length);
    directories.fileCount.push(children.files.length);
    let position = 0;
    for (const dir of children.directories) {
      tree.parent.push(path);
      tree.position.push(position++);
      tree.fileId.push(null);
      tree.entry.push(JSON.stringify(dir));
      stack.push(dir.path);
    }
    for (const file of children.files) {
      tree.parent.push(path);
      tree.position.push(position++);
      tree.fileId.push(file.kind === 'page' ? file.fileId : null);
      tree.entry.push(file.kind === 'page' ? null : JSON.stringify(file));
    }
  }
  const index = table.files.find((f) => f.kind === 'index')!;
  return {
    directories,
    tree,
    nav: {
      fileId: index.fileId,
      record: JSON.stringify(index),
      content: renderIndexMarkdown(table),
    },
  };
}

/**
 * Runs `sql` once per `BATCH` rows of `columns` (arrays of one length, one per column), with `first`
 * as its leading parameters and each column's slice after them.
 */
async function insertColumns(
  session: KnowledgeDatabase,
  sql: string,
  first: readonly unknown[],
  columns: readonly (readonly unknown[])[],
): Promise<void> {
  const rows = columns[0]?.length ?? 0;
  for (let at = 0; at < rows; at += BATCH)
    await session.query(sql, [...first, ...columns.map((column) => column.slice(at, at + BATCH))]);
}

/**
 * Write the derived rows of revision `serial` (in the caller's transaction).
 *
 * @param session - the transaction's session.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @param serial - the revision.
 * @param rows - what `deriveRows` returned.
 */
export async function writeDerived(
  session: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number,
  rows: DerivedRows,
): Promise<void> {
  const d = rows.directories;
  await insertColumns(
    session,
    `INSERT INTO ${s}.directories (knowledge_base, serial, path, record, directory_count, file_count)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::int[], $6::int[])`,
    [knowledgeBase, serial],
    [d.path, d.record, d.directoryCount, d.fileCount],
  );
  const t = rows.tree;
  await insertColumns(
    session,
    `INSERT INTO ${s}.tree (knowledge_base, serial, parent, position, file_id, entry)
       SELECT $1, $2, * FROM unnest($3::text[], $4::int[], $5::text[], $6::text[])`,
    [knowledgeBase, serial],
    [t.parent, t.position, t.fileId, t.entry],
  );
  await session.query(
    `INSERT INTO ${s}.nav_files (knowledge_base, serial, file_id, record, content) VALUES ($1, $2, $3, $4, $5)`,
    [knowledgeBase, serial, rows.nav.fileId, rows.nav.record, rows.nav.content],
  );
}

/**
 * Derive the rows of every stored revision that has none (those published before schema version 2),
 * one revision at a time, from its stored page records (in the migration's transaction).
 *
 * @param session - the migration's session.
 * @param s - the quoted schema.
 * @returns how many revisions were filled.
 */
export function backfillDerived(session: KnowledgeDatabase, s: string): Promise<number> {
  return backfillRevisions(session, s, 'directories', 'record', async (r) => {
    const table = storedTable(
      r.pages.map((row) => JSON.parse(String(row['record'])) as StoredPage['record']),
      r.revision,
    );
    await writeDerived(session, s, r.knowledgeBase, r.serial, deriveRows(table));
  });
}
