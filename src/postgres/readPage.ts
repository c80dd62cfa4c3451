/**
 * The read of a call about one page (`get_file`, `read_file` of a page or of its graph file,
 * `read_related`): in one statement, the active revision, that page's row and the file records of the
 * pages its relationships name, and nothing else. A call answered from these rows answers exactly what
 * it would from the whole revision: it touches no other file (a miss falls back to `readRevision`).
 * The related pages are looked up one by one by primary key (a lateral subquery with `LIMIT 1`, which
 * the planner keeps as a subquery rather than flattening it into a join): with the planner's
 * statistics stale right after a publish, the join scanned every page of the revision (560 ms against
 * 5 ms for `read_related` at 10,000 pages).
 */
import type { PageWant, StoredPage, StoreRead } from '../agent/internals.js';
import type { KnowledgeDatabase } from './types.js';
import { activeTable, labelColumn, revisionOf, withVersion } from './activeRevision.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Read the active revision's row of one page.
 *
 * @param db - the database.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @param demand - the page and what of it.
 * @param version - the version whose active revision is read (`undefined`: the default one).
 * @returns the revision with that page (first) and the pages it relates to, `'missing'` when the
 *   revision has no such page, or `undefined` when the knowledge base is not in the store.
 */
export async function readPage(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  demand: PageWant,
  version?: string,
): Promise<StoreRead<number> | 'missing' | undefined> {
  const { rows } = await db.query(
    `WITH active AS (
       SELECT r.knowledge_base, r.serial, r.revision, r.published_at, ${labelColumn(s, version)}
         FROM ${activeTable(s, version, 6)} b
         JOIN ${s}.revisions r ON r.knowledge_base = b.id AND r.serial = b.active_serial
        WHERE b.id = $1
     ), target AS (
       SELECT p.* FROM ${s}.pages p JOIN active a ON p.knowledge_base = a.knowledge_base AND p.serial = a.serial
        WHERE p.file_id = $2 OR p.path = $3
        LIMIT 1
     )
     SELECT a.serial, a.revision, a.published_at, a.version_label, 0 AS place, t.record,
            CASE WHEN $4 THEN t.document END AS document, t.section_sizes, t.relations
       FROM active a LEFT JOIN target t ON true
     UNION ALL
     SELECT a.serial, a.revision, a.published_at, a.version_label, 1, p.record, NULL, NULL, NULL
       FROM active a JOIN target t ON $5
      CROSS JOIN LATERAL (
        SELECT DISTINCT e ->> 'fileId' AS file_id FROM json_array_elements(t.relations::json) e
      ) w
       JOIN LATERAL (
         SELECT p.record FROM ${s}.pages p
          WHERE p.knowledge_base = a.knowledge_base AND p.serial = a.serial AND p.file_id = w.file_id
          LIMIT 1
       ) p ON true
      WHERE w.file_id <> t.file_id
     ORDER BY place`,
    withVersion(
      [knowledgeBase, demand.fileId, demand.path, demand.document, demand.related],
      version,
    ),
  );
  const first = rows[0];
  if (first === undefined) return undefined;
  if (text(first['record']) === null) return 'missing';
  const pages: StoredPage[] = rows.map((row, i) => {
    const document = text(row['document']);
    const sizes = text(row['section_sizes']);
    const relations = text(row['relations']);
    return {
      record: JSON.parse(text(row['record'])!) as StoredPage['record'],
      document: document === null ? undefined : (JSON.parse(document) as StoredPage['document']),
      sectionSizes: sizes === null ? undefined : (JSON.parse(sizes) as StoredPage['sectionSizes']),
      relations:
        i === 0 && relations !== null && demand.related
          ? (JSON.parse(relations) as StoredPage['relations'])
          : undefined,
    };
  });
  return { ...revisionOf(first), pages };
}
