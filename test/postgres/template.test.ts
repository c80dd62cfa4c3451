/**
 * The PGlite data files the store's suite starts from (`helpers/postgres-template.ts`): a database
 * loaded from them is the empty database `new PGlite()` makes, pgvector included, with a buffer pool
 * of its own size, and the files are made once, then read back.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { describe, expect, it } from 'vitest';
import { HOOK_TIMEOUT } from '../helpers/postgres-database.js';
import { pgliteTemplate, TEMPLATE_SHARED_BUFFERS } from '../helpers/postgres-template.js';

/** What an empty database holds: its databases, schemas and user tables. */
async function contents(lite: PGlite): Promise<unknown> {
  const query = async (sql: string) => (await lite.query(sql)).rows;
  return {
    databases: await query('SELECT datname FROM pg_database ORDER BY datname'),
    schemas: await query('SELECT nspname FROM pg_namespace ORDER BY nspname'),
    tables: await query(
      `SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    ),
  };
}

describe('pgliteTemplate', () => {
  it(
    'loads as the empty database new PGlite() makes, and takes pgvector',
    { timeout: HOOK_TIMEOUT },
    async () => {
      const template = await pgliteTemplate();
      expect(await pgliteTemplate()).toBe(template);
      const fresh = new PGlite();
      const loaded = new PGlite({ loadDataDir: template, extensions: { vector } });
      try {
        expect(await contents(loaded)).toEqual(await contents(fresh));
        // Its one setting of its own: a small buffer pool, which starts faster.
        expect((await loaded.query('SHOW shared_buffers')).rows).toEqual([
          { shared_buffers: TEMPLATE_SHARED_BUFFERS },
        ]);
        await loaded.query('CREATE EXTENSION IF NOT EXISTS vector');
        await loaded.query('CREATE TABLE v (e vector(2))');
        await loaded.query(`INSERT INTO v VALUES ('[1,2]')`);
        expect((await loaded.query('SELECT e::text AS e FROM v')).rows).toEqual([{ e: '[1,2]' }]);
      } finally {
        await Promise.all([fresh.close(), loaded.close()]);
      }
    },
  );
});
