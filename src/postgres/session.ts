/**
 * One database session for a transaction: a `pg.Pool` lends one client for it (statements of one
 * transaction must share a connection); PGlite and a `pg.Client` are one session already. Also the
 * check that `db` can be queried at all.
 */
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { describe } from '../shared/values.js';
import type { KnowledgeDatabase } from './types.js';

interface PoolLike {
  readonly totalCount: number;
  connect(): Promise<KnowledgeDatabase & { release(error?: unknown): void }>;
}

const isPool = (db: unknown): db is PoolLike =>
  typeof (db as Partial<PoolLike>).connect === 'function' &&
  typeof (db as Partial<PoolLike>).totalCount === 'number';

/**
 * `db`, checked: an object with a `query` method.
 *
 * @param api - the calling function, for the message.
 * @param db - what the app passed.
 * @throws {KnowledgeError} `INVALID_INPUT` when `db` has no `query` method.
 */
export function checkDatabase(api: string, db: unknown): KnowledgeDatabase {
  if (
    typeof db !== 'object' ||
    db === null ||
    typeof (db as KnowledgeDatabase).query !== 'function'
  )
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['db'],
        message: `${api}: \`db\` is ${describe(db)}; pass anything with \`query(text, params)\` resolving to \`{ rows }\`, such as a \`pg\` Pool or Client or a PGlite instance.`,
      },
    ]);
  return db as KnowledgeDatabase;
}

/**
 * Run `body` in one transaction on one session, committing when it resolves and rolling back when it
 * throws (the error is rethrown).
 *
 * @param db - the database.
 * @param body - the statements, given the session to run them on.
 * @returns what `body` resolved to.
 */
export async function inTransaction<T>(
  db: KnowledgeDatabase,
  body: (session: KnowledgeDatabase) => Promise<T>,
): Promise<T> {
  const client = isPool(db) ? await db.connect() : undefined;
  const session: KnowledgeDatabase = client ?? db;
  let failure: unknown;
  try {
    await session.query('BEGIN');
    try {
      const result = await body(session);
      await session.query('COMMIT');
      return result;
    } catch (error) {
      failure = error;
      await session.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client?.release(
      failure instanceof Error && !(failure instanceof KnowledgeError) ? failure : undefined,
    );
  }
}
