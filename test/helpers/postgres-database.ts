/**
 * The database the store's suite runs on: PGlite in process by default (nothing to install), or the
 * real server at `KK_POSTGRES_URL` (through `pg`), each suite in a schema of its own that it drops at
 * the end, so suites can run side by side on one server.
 */
import { PGlite } from '@electric-sql/pglite';
import { pgliteTemplate } from './postgres-template.js';
import { vector } from '@electric-sql/pglite-pgvector';
import pg from 'pg';
import type { KnowledgeDatabase } from '../../src/postgres/index.js';

/** The server URL, when the suite runs against a real server. */
export const POSTGRES_URL = process.env['KK_POSTGRES_URL'];

/** Hook time limit: starting PGlite (WebAssembly) takes seconds on a loaded machine. */
export const HOOK_TIMEOUT = 120_000;

/** What the suite names the database it ran on. */
export const DATABASE_KIND = POSTGRES_URL === undefined ? 'PGlite' : 'PostgreSQL server';

/** One test database: what to query, a schema for this suite, and how to close it. */
export interface TestDatabase {
  readonly db: KnowledgeDatabase;
  readonly schema: string;
  /** A second connection to the same database (two readers), closed with `close`. */
  readonly other: () => KnowledgeDatabase;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A database for one suite: a fresh PGlite, or a pool on `KK_POSTGRES_URL` with a schema unique to
 * this suite (dropped on `close`).
 *
 * @param name - a short lowercase label for the schema.
 * @param options - `pgvector`: load PGlite's pgvector extension (a server has it or not: see
 *   `hasPgvector`).
 */
export async function openTestDatabase(
  name: string,
  options: { readonly pgvector?: boolean } = {},
): Promise<TestDatabase> {
  const schema = `kk_test_${name}_${process.pid}_${++counter}`;
  if (POSTGRES_URL === undefined) {
    // From a template of a fresh database's files: `initdb` once per machine, not once per database.
    const lite = new PGlite({
      loadDataDir: await pgliteTemplate(),
      ...(options.pgvector === true ? { extensions: { vector } } : {}),
    });
    await lite.waitReady;
    return {
      db: lite,
      schema,
      other: () => lite,
      close: () => lite.close(),
    };
  }
  const pools: pg.Pool[] = [];
  const pool = () => {
    const p = new pg.Pool({ connectionString: POSTGRES_URL, max: 4 });
    pools.push(p);
    return p;
  };
  const db = pool();
  return {
    db,
    schema,
    other: () => pool(),
    close: async () => {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all(pools.map((p) => p.end()));
    },
  };
}

/**
 * Whether the database can hold pgvector's vectors (installed or installable).
 *
 * @param db - the database.
 */
export async function hasPgvector(db: KnowledgeDatabase): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  return rows.length > 0;
}

/** A database that logs each statement it runs: its text and how many rows it returned. */
export interface CountingDatabase {
  readonly db: KnowledgeDatabase;
  /** Each statement in order, with the rows it returned. */
  readonly log: { readonly text: string; readonly rows: number }[];
  /** The statements' texts, in order. */
  readonly seen: string[];
  /** The rows each statement returned, in order. */
  readonly rows: number[];
}

/**
 * `db`, counting its statements and the rows each returned.
 *
 * @param db - the database to pass through.
 */
export function countingDatabase(db: KnowledgeDatabase): CountingDatabase {
  const log: { text: string; rows: number }[] = [];
  const seen: string[] = [];
  const rows: number[] = [];
  return {
    log,
    seen,
    rows,
    db: {
      query: async (text: string, params?: readonly unknown[]) => {
        seen.push(text);
        const result = await db.query(text, params);
        rows.push(result.rows.length);
        log.push({ text, rows: result.rows.length });
        return result;
      },
    },
  };
}
