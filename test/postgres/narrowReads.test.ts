/**
 * The whole-revision calls that read only what they return (schema version 2): `list_tree` one window
 * of its directory, `index.md` its stored text, `expand_graph` the pages its frontier reaches. Each
 * answers exactly what `createCatalogSource` answers over the same catalog (paged through every
 * directory, from every seed at every depth), in the statements and rows the issue promises; and a
 * store published before version 2 migrates and then reads the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import {
  HOOK_TIMEOUT,
  openTestDatabase,
  type TestDatabase,
  countingDatabase,
} from '../helpers/postgres-database.js';
import { expectPagingDuringPublishes } from '../helpers/postgres-race.js';
import { timeless } from '../helpers/versions.js';

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase('narrow');
}, HOOK_TIMEOUT);
afterAll(async () => test?.close(), HOOK_TIMEOUT);

const REVISION = 'gen-1';
const PAGES = 37;
/** Where page `n` lives: three levels of directories, uneven. */
const pathOf = (n: number) =>
  n % 5 === 0 ? `pages/p${n}.md` : `pages/d${n % 3}/${n % 2 === 0 ? 'e/' : ''}p${n}.md`;
/** Page `n` links to a few others (so the graph has depth), with tags shared by some. */
const textOf = (n: number) => {
  const links = [1, 3, 7, 11]
    .map((k) => (n * k + 5) % PAGES)
    .filter((m) => m !== n)
    .map((m) => `- [page ${m}](/${pathOf(m)})`);
  return `# Page ${n}\n\nAbout topic ${n % 4}.\n\n${links.join('\n')}\n`;
};
const catalog = defineKnowledgeCatalog(
  Array.from({ length: PAGES }, (_, n) =>
    parseKnowledgeDocument({ id: `p${n}`, revision: `r${n}`, text: textOf(n) }),
  ),
);
const files = (id: string) => {
  const n = Number(id.slice(1));
  return { path: pathOf(n), frontmatter: { tags: [`t${n % 4}`, `u${n % 3}`] } };
};
const reference: KnowledgeSource = createCatalogSource(catalog, {
  id: 'gen',
  revision: REVISION,
  files,
});

/** Every directory of the reference, walked through `list_tree`. */
async function directories(): Promise<string[]> {
  const found = [''];
  for (let i = 0; i < found.length; i++) {
    let cursor: string | undefined;
    do {
      const page = await reference.listTree({ parentPath: found[i]!, limit: 200, cursor });
      for (const item of page.items) if (item.entryType === 'directory') found.push(item.path);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  return found;
}

describe('reads that cost what they return', () => {
  let schema: string;
  beforeAll(async () => {
    schema = `${test.schema}_a`;
    await migrateKnowledgeStore(test.db, { schema });
    await publishKnowledge(test.db, {
      knowledgeBase: 'gen',
      catalog,
      files,
      revision: REVISION,
      schema,
    });
  }, HOOK_TIMEOUT);
  afterAll(() => test.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`), HOOK_TIMEOUT);

  it('list_tree pages through every directory as the catalog source, one window per statement', async () => {
    const { db, rows } = countingDatabase(test.db);
    const store = createPostgresSource(db, { knowledgeBase: 'gen', schema });
    const dirs = await directories();
    expect(dirs.length).toBeGreaterThan(5);
    for (const parentPath of dirs) {
      for (const limit of [1, 3, 200]) {
        let cursor: string | undefined;
        let first = true;
        do {
          const before = rows.length;
          const args = { parentPath, limit, ...(cursor === undefined ? {} : { cursor }) };
          const got = await store.listTree(args);
          expect(timeless(got)).toEqual(timeless(await reference.listTree(args)));
          // No cursor: one statement; a cursor: the revision, then the window pinned to it.
          expect(rows.length - before).toBe(first ? 1 : 2);
          expect(rows.at(-1)).toBe(Math.max(1, got.items.length));
          cursor = got.nextCursor ?? undefined;
          first = false;
        } while (cursor !== undefined);
      }
    }
  });

  it('list_tree answers errors as the catalog source (a file, a missing directory, bad and stale cursors)', async () => {
    const store = createPostgresSource(test.db, { knowledgeBase: 'gen', schema });
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (value) => ({ value }),
        (error: { code?: string; message?: string }) => ({
          code: error.code,
          message: error.message,
        }),
      );
    const other = createCatalogSource(catalog, { id: 'gen', revision: 'gen-0', files });
    const stale = (await other.listTree({ parentPath: 'pages', limit: 1 })).nextCursor!;
    for (const args of [
      { parentPath: 'pages/p0.md' },
      { parentPath: 'pages/nope' },
      { parentPath: '/pages' },
      { parentPath: 'pages', limit: 1, cursor: 'not-a-cursor' },
      { parentPath: 'pages', limit: 1, cursor: stale },
      { parentPath: 'pages', limit: 0 },
    ]) {
      expect(timeless(await outcome(store.listTree(args)))).toEqual(
        timeless(await outcome(reference.listTree(args))),
      );
    }
  });

  it('index.md is one stored row, as the catalog source renders it; a graph file one page row', async () => {
    const { db, rows } = countingDatabase(test.db);
    const store = createPostgresSource(db, { knowledgeBase: 'gen', schema });
    for (const args of [{ path: 'index.md' }, { fileId: 'index.md' }]) {
      expect(timeless(await store.readFile(args))).toEqual(
        timeless(await reference.readFile(args)),
      );
      expect(rows.splice(0)).toEqual([1]);
    }
    expect(timeless(await store.getFile({ fileId: 'index.md' }))).toEqual(
      timeless(await reference.getFile({ fileId: 'index.md' })),
    );
    expect(rows.splice(0)).toEqual([1]);
    // A graph file's record comes with its page's row.
    const graph = { fileId: '_graph/by-file/p3.json' };
    expect(timeless(await store.getFile(graph))).toEqual(timeless(await reference.getFile(graph)));
    expect(rows.splice(0)).toEqual([1]);
  });

  it('expand_graph from every page at every depth is the catalog source, one statement per level', async () => {
    const { db, rows } = countingDatabase(test.db);
    const store = createPostgresSource(db, { knowledgeBase: 'gen', schema });
    for (const fileId of catalog.ids) {
      for (const depth of [1, 2, 3]) {
        for (const fanout of [1, 2, 50]) {
          const args = { fileId, depth, fanout };
          const got = await store.expandGraph(args);
          expect(timeless(got)).toEqual(timeless(await reference.expandGraph(args)));
          const reads = rows.splice(0);
          expect(reads.length).toBeLessThanOrEqual(depth + 1);
          // Only the pages reached: the seed, then what each level adds.
          expect(reads.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(
            1 + got.relationships.length + (got.nextCursor === null ? 0 : PAGES),
          );
        }
      }
    }
    const paged = await reference.expandGraph({ fileId: 'p1', depth: 3, fanout: 50 });
    expect(timeless(await store.expandGraph({ fileId: 'p1', depth: 3, fanout: 50 }))).toEqual(
      timeless(paged),
    );
  });
});

describe('paging during publishes', () => {
  it('a listing paged on two connections while revisions come and go (keep 1) is one revision per page, or STALE_CURSOR', async () => {
    const schema = `${test.schema}_race`;
    const half = defineKnowledgeCatalog(catalog.ids.slice(0, 20).map((id) => catalog.document(id)));
    const editions = [
      { revision: 'A', catalog },
      { revision: 'B', catalog: half },
    ];
    const args = { parentPath: 'pages', limit: 2 };
    await expectPagingDuringPublishes(
      test,
      schema,
      editions.map((e) => ({ ...e, files })),
      (source, cursor) => source.listTree(cursor === undefined ? args : { ...args, cursor }),
    );
  });
});

describe('a store published before schema version 2', () => {
  it('migrates: its revisions get their directories, tree and index.md, and read the same', async () => {
    const schema = `${test.schema}_v1`;
    try {
      await migrateKnowledgeStore(test.db, { schema });
      await publishKnowledge(test.db, {
        knowledgeBase: 'gen',
        catalog,
        files,
        revision: REVISION,
        schema,
      });
      // What version 1 held: the same revisions and pages, none of version 2's or 3's tables.
      for (const table of [
        'search_terms',
        'search_pages',
        'search_stats',
        'nav_files',
        'tree',
        'directories',
      ])
        await test.db.query(`DROP TABLE "${schema}".${table}`);
      await test.db.query(`DELETE FROM "${schema}".schema_version WHERE version >= 2`);
      const old = createPostgresSource(test.db, { knowledgeBase: 'gen', schema });
      await expect(old.listTree({})).rejects.toMatchObject({ code: 'INTERNAL' });

      expect(await migrateKnowledgeStore(test.db, { schema })).toEqual({ from: 1, to: 4 });
      expect(await migrateKnowledgeStore(test.db, { schema })).toEqual({ from: 4, to: 4 });
      const { db, rows } = countingDatabase(test.db);
      const store = createPostgresSource(db, { knowledgeBase: 'gen', schema });
      expect(timeless(await store.listTree({ parentPath: 'pages', limit: 2 }))).toEqual(
        timeless(await reference.listTree({ parentPath: 'pages', limit: 2 })),
      );
      expect(rows.splice(0)).toEqual([2]);
      expect(timeless(await store.readFile({ path: 'index.md' }))).toEqual(
        timeless(await reference.readFile({ path: 'index.md' })),
      );
      expect(rows.splice(0)).toEqual([1]);
    } finally {
      await test.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
