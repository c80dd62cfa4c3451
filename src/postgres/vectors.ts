/**
 * Chunk vectors in pgvector, when the database has it: written at publish for a store given an
 * embedder, read by a search's semantic stage (`TermStore.nearest`). The table is not part of the
 * numbered migrations, because the `vector` extension is optional: a publish with an embedder creates
 * it (and the extension) when missing, and says how to install pgvector when it cannot.
 */
import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { TermStoreSemanticPage } from '../agent/internals.js';
import type { KnowledgeDatabase } from './types.js';

/** Vectors per `INSERT … SELECT FROM unnest(…)`. */
const VECTOR_BATCH = 256;

/** One chunk's vector to store: its page number, its chunk place (`TermRow`'s), and the vector. */
export interface StoredVector {
  readonly page: number;
  readonly place: number;
  readonly vector: ArrayLike<number>;
}

/**
 * Create the extension and the vectors table when missing.
 *
 * @param db - the database (inside the publish's transaction).
 * @param s - the schema, quoted.
 * @param api - the calling function, for the message.
 * @throws {KnowledgeError} `INVALID_INPUT` on `options.embedder` when pgvector is not installed.
 */
export async function ensureVectorTable(
  db: KnowledgeDatabase,
  s: string,
  api: string,
): Promise<void> {
  const present = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
  if (present.rows.length === 0) {
    const available = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    if (available.rows.length === 0)
      throw new KnowledgeError([
        {
          code: 'INVALID_INPUT',
          path: ['options', 'embedder'],
          message: `${api}: \`options.embedder\` needs the pgvector extension to store chunk vectors, and this database does not have it. Install pgvector on the server (https://github.com/pgvector/pgvector; with PGlite, pass \`extensions: { vector }\` from '@electric-sql/pglite-pgvector'), or publish without \`embedder\` (search is then lexical only).`,
        },
      ]);
    await db.query('CREATE EXTENSION IF NOT EXISTS vector');
  }
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${s}.search_vectors (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      page integer NOT NULL,
      place integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (knowledge_base, serial, page, place),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
  );
}

/** pgvector's text form of a vector: `[1,2,3]`. */
function literal(vector: ArrayLike<number>): string {
  return `[${Array.prototype.join.call(vector, ',')}]`;
}

/**
 * Write a revision's chunk vectors, in batches.
 *
 * @param db - the database (inside the publish's transaction).
 * @param s - the schema, quoted.
 * @param knowledgeBase - the knowledge base.
 * @param serial - the revision's serial.
 * @param vectors - one per chunk.
 */
export async function writeVectors(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number,
  vectors: readonly StoredVector[],
): Promise<void> {
  for (let from = 0; from < vectors.length; from += VECTOR_BATCH) {
    const batch = vectors.slice(from, from + VECTOR_BATCH);
    await db.query(
      `INSERT INTO ${s}.search_vectors (knowledge_base, serial, page, place, embedding)
       SELECT $1, $2, p, c, e::vector FROM unnest($3::int[], $4::int[], $5::text[]) AS t (p, c, e)`,
      [
        knowledgeBase,
        serial,
        batch.map((v) => v.page),
        batch.map((v) => v.place),
        batch.map((v) => literal(v.vector)),
      ],
    );
  }
}

/**
 * Whether a revision has stored vectors (the table may not exist at all).
 *
 * @returns `false` when the table is missing or holds none of the revision's.
 */
export async function hasVectors(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number,
): Promise<boolean> {
  const table = await db.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
    `${s}.search_vectors`,
  ]);
  if (table.rows[0]?.['present'] !== true) return false;
  const any = await db.query(
    `SELECT 1 FROM ${s}.search_vectors WHERE knowledge_base = $1 AND serial = $2 LIMIT 1`,
    [knowledgeBase, serial],
  );
  return any.rows.length > 0;
}

/**
 * The `limit` pages whose best chunk is most similar to `query` (cosine similarity, pgvector's `<=>`),
 * with their best chunk and up to three best section chunks: what the in-memory engine's semantic
 * ranking keeps, ordered the same way (ties by page, then by chunk place). One scan of the revision's
 * vectors (no approximate index: the knowledge base's revisions share one table with vectors of any
 * length).
 *
 * @returns the pages, most similar first, or `undefined` when the revision has no vectors.
 * @throws what the database throws (a query vector of another length than the stored ones).
 */
export async function nearestPages(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  serial: number,
  query: readonly number[],
  limit: number,
): Promise<TermStoreSemanticPage[] | undefined> {
  if (!(await hasVectors(db, s, knowledgeBase, serial))) return undefined;
  const { rows } = await db.query(
    `WITH scored AS (
       SELECT page, place, 1 - (embedding <=> $3::vector) AS similarity
       FROM ${s}.search_vectors WHERE knowledge_base = $1 AND serial = $2
     ), best AS (
       SELECT page, max(similarity) AS similarity FROM scored WHERE similarity > 0
       GROUP BY page ORDER BY similarity DESC, page LIMIT $4
     )
     SELECT scored.page, scored.place, scored.similarity, best.similarity AS best
     FROM scored JOIN best USING (page)
     WHERE scored.similarity > 0
     ORDER BY best.similarity DESC, scored.page, scored.similarity DESC, scored.place`,
    [knowledgeBase, serial, literal(query), limit],
  );
  const pages: TermStoreSemanticPage[] = [];
  let current:
    { page: number; similarity: number; bestPlace: number; sectionPlaces: number[] } | undefined;
  for (const row of rows) {
    const page = Number(row['page']);
    const place = Number(row['place']);
    if (current?.page !== page) {
      current = { page, similarity: Number(row['best']), bestPlace: place, sectionPlaces: [] };
      pages.push(current);
    }
    if ((place & 1) === 1 && current.sectionPlaces.length < 3) current.sectionPlaces.push(place);
  }
  return pages;
}
