/**
 * What one call of a store-backed source reads: in one statement (one snapshot, so one revision), the
 * active revision of the knowledge base, every page record of it, and only the documents, section
 * sizes and relationships the call needs.
 */
import type { RevisionWant, StoredPage, StoreRead } from '../agent/internals.js';
import type { KnowledgeDatabase } from './types.js';
import { activeTable, labelColumn, revisionOf, withVersion } from './activeRevision.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Read the active revision of `knowledgeBase` with what `demand` asks for.
 *
 * @param db - the database.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @param demand - what besides the page records to read.
 * @param version - the version whose active revision is read (`undefined`: the default one).
 * @returns the revision (pinned by its serial), or `undefined` when the knowledge base is not in the
 *   store.
 */
export async function readRevision(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  demand: RevisionWant,
  version?: string,
): Promise<StoreRead<number> | undefined> {
  const { rows } = await db.query(
    `SELECT r.serial, r.revision, r.published_at, ${labelColumn(s, version)}, p.record,
        CASE WHEN $6 OR (p.file_id = $2 OR p.path = $3) AND $4 THEN p.document END AS document,
        CASE WHEN p.file_id = $2 OR p.path = $3 THEN p.section_sizes END AS section_sizes,
        CASE WHEN $6 OR $7 OR p.file_id = $5 THEN p.relations END AS relations
       FROM ${activeTable(s, version, 8)} b
       JOIN ${s}.revisions r ON r.knowledge_base = b.id AND r.serial = b.active_serial
       LEFT JOIN ${s}.pages p ON p.knowledge_base = r.knowledge_base AND p.serial = r.serial
      WHERE b.id = $1`,
    withVersion(
      [
        knowledgeBase,
        demand.fileId,
        demand.path,
        demand.document,
        demand.relationsOf,
        demand.everything,
        demand.allRelations,
      ],
      version,
    ),
  );
  const first = rows[0];
  if (first === undefined) return undefined;
  const pages: StoredPage[] = [];
  for (const row of rows) {
    const record = text(row['record']);
    if (record === null) continue; // a revision without pages
    const document = text(row['document']);
    const sizes = text(row['section_sizes']);
    const relations = text(row['relations']);
    pages.push({
      record: JSON.parse(record) as StoredPage['record'],
      document: document === null ? undefined : (JSON.parse(document) as StoredPage['document']),
      sectionSizes: sizes === null ? undefined : (JSON.parse(sizes) as StoredPage['sectionSizes']),
      relations:
        relations === null ? undefined : (JSON.parse(relations) as StoredPage['relations']),
    });
  }
  return { ...revisionOf(first), pages };
}
