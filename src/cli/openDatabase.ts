/**
 * The database of `--database <url>`: a PostgreSQL server through `pg` (`postgres://…` or
 * `postgresql://…`), or PGlite on a data folder (`pglite:<folder>`, for local use without a server).
 * Both drivers are optional peers of the package, loaded only here, when such a command runs.
 */
import type { KnowledgeDatabase } from '../postgres/index.js';
import { versionLabelProblem } from '../agent/internals.js';
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

/**
 * The value of a version flag (`--version`, `--default-version`) of a database command, checked.
 *
 * @param command - the command, for messages.
 * @param flag - the flag's name, without dashes.
 * @param value - what was given (`undefined` when absent).
 * @returns the label, or `undefined` when the flag was not given.
 * @throws {CliExit} exit 2 for a value that is not a version label.
 */
export function versionFlag(command: string, flag: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const problem = versionLabelProblem(value);
  if (problem === undefined) return value as string;
  throw new CliExit(
    `knowledge-kit ${command}: --${flag} \`${String(value)}\` is not a version label (${problem}); pass 1 to 64 characters of A–Z a–z 0–9 . _ -, such as \`--${flag} 3.x\`.`,
  );
}

interface PgPool extends KnowledgeDatabase {
  end(): Promise<void>;
}
interface PgLite extends KnowledgeDatabase {
  readonly waitReady: Promise<void>;
  close(): Promise<void>;
}
