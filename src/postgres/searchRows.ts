/**
 * The search index of a revision as rows (schema version 3): the in-memory engine's static index laid
 * out one row per term and per pair of adjacent terms (`buildTermRows`, the agent layer's own code,
 * over the corpus `createCatalogSource` would search), the corpus statistics, and each page's number
 * in the corpus with its relationships' page numbers. Written by `publishKnowledge`, and by
 * `migrateKnowledgeStore` for the revisions stored before version 3; read by `sqlTermStore`.
 */
import type { KnowledgeCatalog } from '../types.js';
import {
  buildTermRows,
  searchCorpus,
  storedTable,
  type FileTable,
  type RelationRecord,
  type StoredPage,
  type TermRows,
} from '../agent/internals.js';
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import { backfillRevisions } from './backfill.js';
import { encodePostings } from './postings.js';
import type { KnowledgeDatabase } from './types.js';

/** Rows per `INSERT … SELECT FROM unnest(…)`. */
const BATCH = 5_000;
/** At most this many characters of hex-encoded postings per statement (about 8 MB of postings). */
const BATCH_HEX = 16_000_000;

/** Characters of a key the key index holds (`left(key, 200)`): a B-tree entry must stay under 2.7 KB. */
export const KEY_PREFIX = 200;

/** The search rows of one revision. */
export interface SearchRows {
  readonly terms: TermRows;
  /** The corpus's pages in page-number order: their file IDs and their relationships' page numbers. */
  readonly pages: { readonly fileId: readonly string[]; readonly related: readonly number[][] };
}

/** What the relationships of a revision answer. */
interface Relations {
  get(fileId: string): readonly RelationRecord[] | undefined;
}

/**
 * The search rows of a revision, from what `createCatalogSource` would build its engine's corpus from.
 *
 * @param catalog - the revision's catalog.
 * @param table - its file table (its pages are the corpus's, in that order).
 * @param relations - its relationships by file ID.
 * @param signal - stops the build between slices.
 * @returns the term rows and the page rows.
 */
export async function buildSearchRows(
  catalog: KnowledgeCatalog,
  table: FileTable,
  relations: Relations,
  signal?: AbortSignal,
): Promise<SearchRows> {
  const terms = await buildTermRows(searchCorpus(catalog, table, relations), signal);
  const pageOf = new Map<string, number>(table.pages.map((p, i) => [p.fileId, i]));
  return {
    terms,
    pages: {
      fileId: table.pages.map((p) => p.fileId),
      related: table.pages.map((p) =>
        (relations.get(p.fileId) ?? []).map((r) => pageOf.get(r.fileId) ?? -1),
      ),
    },
  };
}

/**
 * Write the search rows of revision `serial` (in the caller's transaction).
 *
 * @param session - the transaction's session.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @param serial - the revision.
 * @param rows - what `buildSearchRows` returned.
 */
export async function writeSearchRows(
  session: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number,
  rows: SearchRows,
): Promise<void> {
  await session.query(
    `INSERT INTO ${s}.search_stats (knowledge_base, serial, stats) VALUES ($1, $2, $3)`,
    [knowledgeBase, serial, JSON.stringify(rows.terms.stats)],
  );
  const { fileId, related } = rows.pages;
  for (let at = 0; at < fileId.length; at += BATCH) {
    const end = Math.min(fileId.length, at + BATCH);
    await session.query(
      `INSERT INTO ${s}.search_pages (knowledge_base, serial, page_number, file_id, related)
       SELECT $1, $2, $3::integer + n::integer - 1, f, r::integer[]
         FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS w (f, r, n)`,
      [
        knowledgeBase,
        serial,
        at,
        fileId.slice(at, end),
        related.slice(at, end).map((list) => `{${list.join(',')}}`),
      ],
    );
  }
  const terms = rows.terms.rows;
  let at = 0;
  while (at < terms.length) {
    const batch = {
      key: [] as string[],
      ordinal: [] as number[],
      pair: [] as boolean[],
      head: [] as (string | null)[],
      bigram: [] as boolean[],
      frequency: [] as number[],
      postings: [] as string[],
    };
    let chars = 0;
    for (; at < terms.length && batch.key.length < BATCH && chars < BATCH_HEX; at++) {
      const row = terms[at]!;
      const postings = encodePostings(row);
      chars += postings.length;
      batch.key.push(row.key);
      batch.ordinal.push(row.ordinal);
      batch.pair.push(row.pair);
      batch.head.push(row.head);
      batch.bigram.push(row.bigram);
      batch.frequency.push(row.frequency);
      batch.postings.push(postings);
    }
    await session.query(
      `INSERT INTO ${s}.search_terms (knowledge_base, serial, key, ordinal, pair, head, bigram, frequency, postings)
       SELECT $1, $2, k, o, p, h, b, f, decode(x, 'hex')
         FROM unnest($3::text[], $4::integer[], $5::boolean[], $6::text[], $7::boolean[], $8::integer[], $9::text[])
           AS w (k, o, p, h, b, f, x)`,
      [
        knowledgeBase,
        serial,
        batch.key,
        batch.ordinal,
        batch.pair,
        batch.head,
        batch.bigram,
        batch.frequency,
        batch.postings,
      ],
    );
  }
}

/**
 * Build and write the search rows of every stored revision that has none (those published before
 * schema version 3), one revision at a time, from its stored pages (in the migration's transaction).
 * The corpus is the one `createPostgresSource` built its in-memory engine from before version 3.
 *
 * @param session - the migration's session.
 * @param s - the quoted schema.
 * @returns how many revisions were filled.
 */
export function backfillSearch(session: KnowledgeDatabase, s: string): Promise<number> {
  return backfillRevisions(session, s, 'search_stats', 'record, document, relations', async (r) => {
    const rows = r.pages;
    const records = rows.map((row) => JSON.parse(String(row['record'])) as StoredPage['record']);
    const table = storedTable(records, r.revision);
    const catalog = defineKnowledgeCatalog(
      rows.map((row) => JSON.parse(String(row['document'])) as NonNullable<StoredPage['document']>),
    );
    const relations = new Map<string, readonly RelationRecord[]>(
      rows.map((row, i) => [
        records[i]!.fileId,
        JSON.parse(String(row['relations'])) as readonly RelationRecord[],
      ]),
    );
    await writeSearchRows(
      session,
      s,
      r.knowledgeBase,
      r.serial,
      await buildSearchRows(catalog, table, relations),
    );
  });
}
