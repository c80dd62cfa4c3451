/**
 * The search index of one stored revision as a `TermStore` (schema version 3): what
 * `searchTermStore` reads, each a statement pinned to the revision's `serial` that reads only the
 * rows asked for — the query's dictionary entries, its terms' postings, the hits' pages. A revision
 * never changes once published, so the statements of one search cannot mix revisions; a revision
 * removed in between (more publishes than `keep` during one search) throws `RevisionGone`.
 *
 * Rows are looked up one key (one page) at a time in lateral subqueries, never joined: right after a
 * publish the planner's statistics are stale, and a join may scan the whole revision (`readDerived.ts`).
 */
import {
  RevisionGone,
  scopeFieldsOf,
  type StoredPage,
  type StoreRevision,
  type StoreSearch,
  type TermEntry,
  type TermRow,
  type TermStats,
  type TermStore,
  type TermStorePage,
  type TermStoreRelation,
} from '../agent/internals.js';
import { decodePostings } from './postings.js';
import { nearestPages } from './vectors.js';
import { KEY_PREFIX } from './searchRows.js';
import type { KnowledgeDatabase } from './types.js';
import { activeTable, labelColumn, revisionOf, withVersion } from './activeRevision.js';

/** The active revision of a knowledge base and its search statistics. */
export interface SearchHead extends StoreRevision<number> {
  /** `null` when the revision has no search rows (published before schema version 3). */
  readonly stats: TermStats | null;
}

/**
 * Read the active revision of `knowledgeBase` and its search statistics, in one statement.
 *
 * @returns the revision, or `undefined` when the knowledge base is not in the store.
 */
export async function readSearchHead(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  version?: string,
): Promise<SearchHead | undefined> {
  const { rows } = await db.query(
    `SELECT r.serial, r.revision, r.published_at, ${labelColumn(s, version)}, t.stats
       FROM ${activeTable(s, version, 2)} b
       JOIN ${s}.revisions r ON r.knowledge_base = b.id AND r.serial = b.active_serial
       LEFT JOIN ${s}.search_stats t ON t.knowledge_base = r.knowledge_base AND t.serial = r.serial
      WHERE b.id = $1`,
    withVersion([knowledgeBase], version),
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    ...revisionOf(row),
    stats: typeof row['stats'] === 'string' ? (JSON.parse(row['stats']) as TermStats) : null,
  };
}

/** A term's head, from its key (what `buildBm25fIndex` listed it under), when it has one. */
function headOf(key: string, headed: boolean, bigram: boolean): string | null {
  if (!headed) return null;
  return bigram ? key.slice(0, key.codePointAt(0)! > 0xffff ? 2 : 1) : key.slice(0, 2);
}

/** The rows of `search_terms` for `keys`, and (with `heads`) every entry under them. */
function termsStatement(s: string, postings: boolean): string {
  const columns = `t.key, t.ordinal, t.pair, t.head IS NOT NULL AS headed, t.bigram, t.frequency${postings ? ', t.postings' : ''}`;
  const byKey = `SELECT ${columns}
        FROM unnest($3::text[]) AS q (k)
        CROSS JOIN LATERAL (
          SELECT * FROM ${s}.search_terms t
           WHERE t.knowledge_base = r.knowledge_base AND t.serial = r.serial
             AND left(t.key, ${KEY_PREFIX}) = left(q.k, ${KEY_PREFIX}) AND t.key = q.k
           LIMIT 1) t`;
  // Under each head, only the terms the query may reach ($5–$7: one row per head and wish).
  const byHead = `SELECT ${columns}
        FROM unnest($4::text[]) AS h (head)
        CROSS JOIN LATERAL (
          SELECT * FROM ${s}.search_terms t
           WHERE t.knowledge_base = r.knowledge_base AND t.serial = r.serial AND t.head = h.head
             AND EXISTS (
               SELECT 1 FROM unnest($5::text[], $6::text[], $7::text[]) AS w (head, kind, value)
                WHERE w.head = h.head AND (w.kind = 'all'
                   OR (w.kind = 'prefix' AND starts_with(t.key, w.value))
                   OR (w.kind = 'length' AND length(t.key) = w.value::integer)))) t`;
  return `SELECT r.serial, t.*
       FROM ${s}.revisions r
       LEFT JOIN LATERAL (${byKey} UNION ALL ${byHead}) t ON true
      WHERE r.knowledge_base = $1 AND r.serial = $2`;
}

/** What a term store's reads of pages saw: each page's stored record, by page number. */
export type PageSink = (pages: readonly StoredPage['record'][]) => void;

/**
 * A term store over revision `serial` of `knowledgeBase`.
 *
 * @param db - the database.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @param head - the revision and its statistics (`readSearchHead`).
 * @param onPages - given the records of the pages `pages()` read (the hits shown).
 * @returns the store; its methods throw `RevisionGone` when the revision is no longer stored.
 */
export function sqlTermStore(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  head: SearchHead & { readonly stats: TermStats },
  onPages: PageSink,
): TermStore {
  const serial = head.pin;
  /** One pinned statement's rows, without the revision's row when nothing else matched. */
  const pinned = async (text: string, params: readonly unknown[], column: string) => {
    const { rows } = await db.query(text, [knowledgeBase, serial, ...params]);
    if (rows.length === 0)
      throw new RevisionGone(
        `revision ${serial} of ${JSON.stringify(knowledgeBase)} was removed during the search`,
      );
    return rows.filter((row) => row[column] !== null && row[column] !== undefined);
  };
  const entry = (row: Record<string, unknown>): TermEntry => {
    const key = String(row['key']);
    const bigram = row['bigram'] === true;
    return {
      key,
      ordinal: Number(row['ordinal']),
      pair: row['pair'] === true,
      head: headOf(key, row['headed'] === true, bigram),
      bigram,
      frequency: Number(row['frequency']),
    };
  };
  /** Pages by number, in the order asked, with the columns `columns` of `pages` (as `p`). */
  const pagesStatement = (columns: string) =>
    `SELECT r.serial, w.n, sp.file_id, sp.related, ${columns}
       FROM ${s}.revisions r
       LEFT JOIN unnest($3::integer[]) WITH ORDINALITY AS w (n, i) ON true
       LEFT JOIN LATERAL (
         SELECT sp.file_id, sp.related FROM ${s}.search_pages sp
          WHERE sp.knowledge_base = r.knowledge_base AND sp.serial = r.serial AND sp.page_number = w.n
          LIMIT 1) sp ON true
       LEFT JOIN LATERAL (
         SELECT p.* FROM ${s}.pages p
          WHERE p.knowledge_base = r.knowledge_base AND p.serial = r.serial AND p.file_id = sp.file_id
          LIMIT 1) p ON true
      WHERE r.knowledge_base = $1 AND r.serial = $2
      ORDER BY w.i`;
  return {
    // The chunk vectors of the revision, when it was published with an embedder (pgvector).
    nearest: (query, limit) => nearestPages(db, s, knowledgeBase, serial, query, limit),
    stats: () => Promise.resolve(head.stats),
    dictionary: async (keys, heads) => {
      // What each head is asked for, one row per wish (`TermHead`).
      const wishes = heads.flatMap((h) => [
        ...(h.all ? [[h.head, 'all', '']] : []),
        ...h.prefixes.map((p) => [h.head, 'prefix', p]),
        ...h.lengths.map((n) => [h.head, 'length', String(n)]),
      ]);
      const params = [
        keys,
        heads.map((h) => h.head),
        wishes.map((w) => w[0]),
        wishes.map((w) => w[1]),
        wishes.map((w) => w[2]),
      ];
      return (await pinned(termsStatement(s, false), params, 'key')).map(entry);
    },
    rows: async (keys) =>
      (await pinned(termsStatement(s, true), [keys, [], [], [], []], 'key')).map((row): TermRow => {
        const { content, fields } = decodePostings(row['postings'] as Uint8Array);
        return { ...entry(row), content, fields };
      }),
    pages: async (numbers) => {
      if (numbers.length === 0) return [];
      const rows = await pinned(pagesStatement('p.record, p.document'), [numbers], 'record');
      if (rows.length !== numbers.length)
        throw new Error(
          `the search index of revision ${serial} names pages that revision lacks: publish it again`,
        );
      const records = rows.map((row) => JSON.parse(String(row['record'])) as StoredPage['record']);
      onPages(records);
      return rows.map((row, i): TermStorePage => ({
        fileId: records[i]!.fileId,
        path: records[i]!.path,
        document: JSON.parse(String(row['document'])) as TermStorePage['document'],
      }));
    },
    // A filtered search reads the path, tags and locale of every page of the revision.
    scopeFields: async () => {
      const numbers = Array.from({ length: head.stats.pageCount }, (_, n) => n);
      if (numbers.length === 0) return [];
      const rows = await pinned(pagesStatement('p.record'), [numbers], 'record');
      if (rows.length !== numbers.length)
        throw new Error(
          `the search index of revision ${serial} names pages that revision lacks: publish it again`,
        );
      return rows.map((row) =>
        scopeFieldsOf(JSON.parse(String(row['record'])) as StoredPage['record']),
      );
    },
    relations: async (numbers) => {
      const out = new Map<number, TermStoreRelation[]>();
      if (numbers.length === 0) return out;
      const rows = await pinned(pagesStatement('p.relations'), [numbers], 'relations');
      for (const row of rows) {
        const list = JSON.parse(String(row['relations'])) as readonly {
          fileId: string;
          weight: number;
        }[];
        const related = row['related'] as readonly number[];
        out.set(
          Number(row['n']),
          list.map((r, i) => ({ fileId: r.fileId, page: Number(related[i]), weight: r.weight })),
        );
      }
      return out;
    },
  };
}

/**
 * The active revision's search index, opened for one search (its statistics read now).
 *
 * @param db - the database.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @param version - the version whose active revision is searched (`undefined`: the default one).
 * @returns the index; `undefined` when the knowledge base is not in the store or its active revision
 *   has no search rows (published before schema version 3: it is searched in memory).
 */
export async function openSearch(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  version?: string,
): Promise<StoreSearch<number> | undefined> {
  const head = await readSearchHead(db, s, knowledgeBase, version);
  if (head === undefined || head.stats === null) return undefined;
  let hits: readonly StoredPage['record'][] = [];
  const store = sqlTermStore(db, s, knowledgeBase, { ...head, stats: head.stats }, (records) => {
    hits = [...hits, ...records];
  });
  const { stats: _stats, ...revision } = head;
  return { ...revision, store, hits: () => hits };
}
