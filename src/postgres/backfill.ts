/**
 * The loop a migration fills a new table's rows with: every stored revision that has none, one at a
 * time, from its stored page rows (in the migration's transaction).
 */
import type { ActiveContentRevision } from '../agent/index.js';
import type { KnowledgeDatabase } from './types.js';

/** One revision to fill: its knowledge base, serial, revision, and the columns of its page rows. */
export interface RevisionToFill {
  readonly knowledgeBase: string;
  readonly serial: number;
  readonly revision: ActiveContentRevision;
  readonly pages: readonly Record<string, unknown>[];
}

/**
 * Call `fill` for every revision without a row in `marker`, oldest first per knowledge base.
 *
 * @param session - the migration's session.
 * @param s - the quoted schema.
 * @param marker - the table (unquoted) whose row for a revision says it is filled.
 * @param columns - the columns of `pages` that `fill` reads.
 * @param fill - writes the revision's rows.
 * @returns how many revisions were filled.
 */
export async function backfillRevisions(
  session: KnowledgeDatabase,
  s: string,
  marker: string,
  columns: string,
  fill: (revision: RevisionToFill) => Promise<void>,
): Promise<number> {
  const { rows: revisions } = await session.query(
    `SELECT r.knowledge_base, r.serial, r.revision FROM ${s}.revisions r
      WHERE NOT EXISTS (SELECT 1 FROM ${s}.${marker} m
                         WHERE m.knowledge_base = r.knowledge_base AND m.serial = r.serial)
      ORDER BY r.knowledge_base, r.serial`,
  );
  for (const revision of revisions) {
    const knowledgeBase = String(revision['knowledge_base']);
    const serial = Number(revision['serial']);
    const { rows } = await session.query(
      `SELECT ${columns} FROM ${s}.pages WHERE knowledge_base = $1 AND serial = $2`,
      [knowledgeBase, serial],
    );
    await fill({
      knowledgeBase,
      serial,
      revision: JSON.parse(String(revision['revision'])) as ActiveContentRevision,
      pages: rows,
    });
  }
  return revisions.length;
}
