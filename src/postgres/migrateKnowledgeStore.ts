import { checkOptions, string, type OptionCheck } from '../shared/checkOptions.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { backfillDerived } from './derived.js';
import { backfillSearch } from './searchRows.js';
import { MIGRATIONS, schemaOf, SCHEMA_VERSION } from './schema.js';
import { checkDatabase, inTransaction } from './session.js';
import type { KnowledgeDatabase, KnowledgeStoreMigration, KnowledgeStoreOptions } from './types.js';

const API = 'migrateKnowledgeStore';
/**
 * What a migration does to the data already stored, after its statements, by version: version 2
 * derives the directories, tree and `index.md` of every revision published before it; version 3
 * builds the search rows of each; version 4 (versions) only runs statements.
 */
const DATA_STEPS: Readonly<
  Record<number, (session: KnowledgeDatabase, s: string) => Promise<unknown>>
> = {
  2: backfillDerived,
  3: backfillSearch,
};

const CHECKS: Readonly<Record<keyof KnowledgeStoreOptions, OptionCheck>> = {
  schema: string,
};

/**
 * Create or upgrade the store's schema to the version this package needs: idempotent, and safe to run
 * from several processes at once (one transaction, under an advisory lock on the schema's name). The
 * version lives in `<schema>.schema_version`.
 *
 * @param db - anything with `query(text, params)`: a `pg` Pool or Client, PGlite.
 * @param options - `schema`, default `knowledge_kit`.
 * @returns the version before and after.
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad `db` or options, or a schema newer than this
 *   package (upgrade the package instead). What the database throws, as it throws it.
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * const db = new PGlite();
 * await migrateKnowledgeStore(db); // { from: 0, to: 4 }
 * ```
 */
export async function migrateKnowledgeStore(
  db: KnowledgeDatabase,
  options?: KnowledgeStoreOptions,
): Promise<KnowledgeStoreMigration> {
  const database = checkDatabase(API, db);
  const issues: KnowledgeIssue[] = [];
  const opts = checkOptions(API, options, CHECKS, issues) as KnowledgeStoreOptions;
  if (issues.length > 0) throw new KnowledgeError(issues);
  const s = schemaOf(API, opts.schema);
  return inTransaction(database, async (session) => {
    await session.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `knowledge-kit migrate ${s}`,
    ]);
    await session.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await session.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await session.query(
      `SELECT coalesce(max(version), 0) AS version FROM ${s}.schema_version`,
    );
    const from = Number(rows[0]?.['version'] ?? 0);
    if (from > SCHEMA_VERSION) {
      throw new KnowledgeError([
        {
          code: 'INVALID_INPUT',
          path: ['options', 'schema'],
          message: `${API}: the schema ${s} is at version ${from}, newer than this package's ${SCHEMA_VERSION}. Upgrade knowledge-kit in this process instead of migrating.`,
        },
      ]);
    }
    for (let version = from + 1; version <= SCHEMA_VERSION; version++) {
      for (const statement of MIGRATIONS[version - 1]!(s)) await session.query(statement);
      await DATA_STEPS[version]?.(session, s);
      await session.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [version]);
    }
    return { from, to: SCHEMA_VERSION };
  });
}
