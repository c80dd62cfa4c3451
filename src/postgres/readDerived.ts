/**
 * The reads of the whole-revision calls that cost what they return (schema version 2): one window of
 * a directory's children (`list_tree`), `index.md` (`read_file`, `get_file`), and the pages one level
 * of `expand_graph`'s frontier reaches. Each read is one statement of one revision: the active one
 * (`serial` `null`), or revision `serial` that an earlier statement of the same call found active.
 * A revision never changes once published, so statements pinned to one serial cannot mix revisions;
 * a revision removed in between (more publishes than `keep` meanwhile) reads as `'gone'`.
 *
 * Pages are looked up by their whole primary key in a subquery (a scalar one, or a lateral one with
 * `LIMIT 1`, which the planner does not flatten into a join), never joined: right after a publish the
 * planner's statistics are stale (a few rows per revision), and a join then scanned every page of
 * the revision (620 ms against 0.4 ms for a 50-item `list_tree` window at 10,000 pages, 147 ms against
 * 0.2 ms for three pages of `expand_graph`).
 */
import type {
  DirectoryRecord,
  FileRecord,
  StoredPage,
  StoreListing,
  StoreNavFile,
  StoreRead,
} from '../agent/internals.js';
import type { KnowledgeDatabase } from './types.js';
import { activeTable, labelColumn, revisionOf, withVersion } from './activeRevision.js';

/**
 * The revision clause: `$1` the knowledge base, `$2` the serial or `null` for the active one (of
 * `version`, whose label is parameter `param`; the default version's without one).
 */
const REVISION = (s: string, version: string | undefined, param: number) =>
  `r.knowledge_base = $1 AND r.serial = coalesce($2::bigint, (SELECT b.active_serial FROM ${activeTable(s, version, param)} b WHERE b.id = $1))`;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
/**
 * The children of directory `path` at positions `[from, to)`, with its counts.
 *
 * @returns the window; `'missing'` when the revision has no such directory (or was published before
 *   schema version 2 and not migrated); `'gone'` when revision `serial` is no longer stored;
 *   `undefined` when the knowledge base is not in the store.
 */
export async function readTreeWindow(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number | null,
  path: string,
  from: number,
  to: number,
  version?: string,
): Promise<StoreListing<number> | 'missing' | 'gone' | undefined> {
  const { rows } = await db.query(
    `SELECT r.serial, r.revision, r.published_at, ${labelColumn(s, version)}, d.directory_count, d.file_count, t.entry,
            (SELECT p.record FROM ${s}.pages p
              WHERE p.knowledge_base = t.knowledge_base AND p.serial = t.serial AND p.file_id = t.file_id
            ) AS record
       FROM ${s}.revisions r
       LEFT JOIN ${s}.directories d
         ON d.knowledge_base = r.knowledge_base AND d.serial = r.serial AND d.path = $3
       LEFT JOIN ${s}.tree t
         ON t.knowledge_base = d.knowledge_base AND t.serial = d.serial AND t.parent = d.path
        AND t.position >= $4 AND t.position < $5
      WHERE ${REVISION(s, version, 6)}
      ORDER BY t.position`,
    withVersion([knowledgeBase, serial, path, from, to], version),
  );
  const first = rows[0];
  if (first === undefined) return serial === null ? undefined : 'gone';
  if (first['directory_count'] === null || first['directory_count'] === undefined) return 'missing';
  const entries: (DirectoryRecord | FileRecord | { page: StoredPage['record'] })[] = [];
  for (const row of rows) {
    const entry = text(row['entry']);
    const record = text(row['record']);
    if (entry !== null) entries.push(JSON.parse(entry) as DirectoryRecord | FileRecord);
    else if (record !== null) entries.push({ page: JSON.parse(record) as StoredPage['record'] });
  }
  return {
    ...revisionOf(first),
    directoryCount: Number(first['directory_count']),
    fileCount: Number(first['file_count']),
    entries,
  };
}

/**
 * The active revision's navigation file named by `fileId` or `path` (`index.md`).
 *
 * @returns the file; `'missing'` when there is no such stored file; `undefined` when the knowledge base
 *   is not in the store.
 */
export async function readNavFile(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  name: string,
  version?: string,
): Promise<StoreNavFile<number> | 'missing' | undefined> {
  const { rows } = await db.query(
    `SELECT r.serial, r.revision, r.published_at, ${labelColumn(s, version)}, n.record, n.content
       FROM ${s}.revisions r
       LEFT JOIN ${s}.nav_files n
         ON n.knowledge_base = r.knowledge_base AND n.serial = r.serial AND n.file_id = $3
      WHERE ${REVISION(s, version, 4)}`,
    withVersion([knowledgeBase, null, name], version),
  );
  const first = rows[0];
  if (first === undefined) return undefined;
  const record = text(first['record']);
  const content = text(first['content']);
  if (record === null || content === null) return 'missing';
  return { ...revisionOf(first), file: JSON.parse(record) as FileRecord, content };
}

/**
 * The records (and, with `relations`, the relationships) of the pages `fileIds` of one revision.
 *
 * @returns the pages found (a page not in the revision is left out); `'gone'` when revision `serial`
 *   is no longer stored; `undefined` when the knowledge base is not in the store.
 */
export async function readPages(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number | null,
  fileIds: readonly string[],
  relations: boolean,
  version?: string,
): Promise<StoreRead<number> | 'gone' | undefined> {
  const { rows } = await db.query(
    `SELECT r.serial, r.revision, r.published_at, ${labelColumn(s, version)}, p.record, CASE WHEN $4 THEN p.relations END AS relations
       FROM ${s}.revisions r
       LEFT JOIN unnest($3::text[]) AS w (file_id) ON true
       LEFT JOIN LATERAL (
         SELECT p.record, p.relations FROM ${s}.pages p
          WHERE p.knowledge_base = r.knowledge_base AND p.serial = r.serial AND p.file_id = w.file_id
          LIMIT 1
       ) p ON true
      WHERE ${REVISION(s, version, 5)}`,
    withVersion([knowledgeBase, serial, fileIds, relations], version),
  );
  const first = rows[0];
  if (first === undefined) return serial === null ? undefined : 'gone';
  const pages: StoredPage[] = [];
  for (const row of rows) {
    const record = text(row['record']);
    if (record === null) continue;
    const related = text(row['relations']);
    pages.push({
      record: JSON.parse(record) as StoredPage['record'],
      document: undefined,
      sectionSizes: undefined,
      relations: related === null ? undefined : (JSON.parse(related) as StoredPage['relations']),
    });
  }
  return { ...revisionOf(first), pages };
}
