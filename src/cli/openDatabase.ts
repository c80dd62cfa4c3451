/**
 * The database of `--database <url>`: a PostgreSQL server through `pg` (`postgres://…` or
 * `postgresql://…`), or PGlite on a data folder (`pglite:<folder>`, for local use without a server).
 * Both drivers are optional peers of the package, loaded only here, when such a command runs.
 */
import type { KnowledgeDatabase } from '../postgres/index.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import { installAdvice } from './installAdvice.js';
import { CliExit } from './io.js';
import { lockPgliteFolder } from './pgliteLock.js';

/** An open database and how to close it. */
export interface OpenDatabase {
  readonly db: KnowledgeDatabase;
  close(): Promise<void>;
}

/** `import(name)`, or a usage error saying how to install it. */
async function load<T>(command: string, name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new CliExit(
      `knowledge-kit ${command}: --database needs the \`${name}\` package, which is not installed. ${installAdvice(name)}`,
    );
  }
}

/**
 * The flags that name a knowledge base in a store, for `parseCommandArgs`: `--database <url>`,
 * `--kb <id>` and `--schema <name>` (of `publish`, `unpublish`, `versions` and `diff`).
 */
export const STORE_FLAGS = {
  database: { type: 'string' },
  kb: { type: 'string' },
  schema: { type: 'string' },
} as const;

/**
 * The store options of `--schema`: `{ schema }` when it is given, else `{}` (the default schema).
 *
 * @param values - the parsed command line.
 */
export function storeOptions(values: { readonly [name: string]: unknown }): {
  readonly schema?: string;
} {
  const schema = values['schema'];
  return typeof schema === 'string' ? { schema } : {};
}

/**
 * The refusal of a store that could not be read (no store there yet, or one of an older schema).
 *
 * @param command - the command, for the message.
 * @param error - what the read threw.
 * @returns the exit to throw (exit 2).
 */
export function storeUnreadable(command: string, error: unknown): CliExit {
  return new CliExit(
    `knowledge-kit ${command}: the store could not be read (${error instanceof Error ? error.message : String(error)}); publish to it first with \`knowledge-kit publish\`, which creates or upgrades the store's schema.`,
  );
}

/**
 * The exit of a database command whose work threw: a `CliExit` as it is; the store's refusal (a
 * `KnowledgeError`) as its message, with `knowledgeExit`; any other error as the database's failure,
 * saying what was not done.
 *
 * @param command - the command, for the message.
 * @param error - what the work threw.
 * @param knowledgeExit - the exit code of a store's refusal.
 * @param undone - what did not happen, such as `nothing was published`.
 * @returns the exit to throw.
 */
export function databaseFailure(
  command: string,
  error: unknown,
  knowledgeExit: number,
  undone: string,
): CliExit {
  if (error instanceof CliExit) return error;
  if (isKnowledgeError(error))
    return new CliExit(`knowledge-kit ${command}: ${error.message}`, knowledgeExit);
  return new CliExit(
    `knowledge-kit ${command}: the database failed (${error instanceof Error ? error.message : String(error)}); ${undone}.`,
  );
}

/**
 * Open the database `url` names.
 *
 * @param command - the command, for messages.
 * @param url - `postgres://…`, `postgresql://…` or `pglite:<folder>`.
 * @throws {CliExit} exit 2 for another scheme or a driver that is not installed.
 */
export async function openDatabase(command: string, url: string): Promise<OpenDatabase> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pg = await load<{ default: { Pool: new (config: object) => PgPool } }>(command, 'pg');
    const pool = new pg.default.Pool({ connectionString: url, max: 4 });
    return { db: pool, close: () => pool.end() };
  }
  if (url.startsWith('pglite:')) {
    const { PGlite } = await load<{ PGlite: new (dataDir: string) => PgLite }>(
      command,
      '@electric-sql/pglite',
    );
    // One process at a time: a second one would overwrite the first one's data (`pgliteLock.ts`).
    const lock = lockPgliteFolder(command, url.slice('pglite:'.length));
    try {
      const lite = new PGlite(url.slice('pglite:'.length));
      await lite.waitReady;
      return { db: lite, close: () => lite.close().finally(lock.release) };
    } catch (error) {
      lock.release();
      throw new CliExit(
        `knowledge-kit ${command}: PGlite cannot open the folder \`${url.slice('pglite:'.length)}\` (${String(error)}). Check that it is a PGlite data folder that no other program writes to.`,
      );
    }
  }
  throw new CliExit(
    `knowledge-kit ${command}: --database must be a PostgreSQL URL (postgres://user@host:5432/db) or pglite:<folder>, not \`${url}\`.`,
  );
}

interface PgPool extends KnowledgeDatabase {
  end(): Promise<void>;
}
interface PgLite extends KnowledgeDatabase {
  readonly waitReady: Promise<void>;
  close(): Promise<void>;
}
