/**
 * The store's own behaviours, on PGlite (and on a real server with `KK_POSTGRES_URL`): migrations,
 * publishing by revision (new, the same again, pruning), several knowledge bases side by side, a
 * source that reads nothing when made and one statement per call, and every error code it adds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgeCursor } from '../helpers/cursors.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { ListTreeOutput } from '../../src/agent/index.js';
import {
  createPostgresSource,
  listKnowledgeBases,
  migrateKnowledgeStore,
  publishKnowledge,
  type KnowledgeDatabase,
} from '../../src/postgres/index.js';
import { exampleCatalog, exampleFiles } from '../helpers/exampleKnowledge.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  HOOK_TIMEOUT,
  openTestDatabase,
  type TestDatabase,
  countingDatabase,
} from '../helpers/postgres-database.js';
import { expectSameOutput } from '../helpers/versions.js';

let test: TestDatabase;
let schema: string;
beforeAll(async () => {
  test = await openTestDatabase('store');
  schema = test.schema;
}, HOOK_TIMEOUT);
afterAll(async () => test?.close(), HOOK_TIMEOUT);

/** A one-page catalog whose text is `text`. */
const tiny = (text: string) =>
  defineKnowledgeCatalog([parseKnowledgeDocument({ id: 'page', revision: text, text })]);

describe('migrateKnowledgeStore', () => {
  it('creates the schema once, then does nothing', async () => {
    expect(await migrateKnowledgeStore(test.db, { schema })).toEqual({ from: 0, to: 4 });
    expect(await migrateKnowledgeStore(test.db, { schema })).toEqual({ from: 4, to: 4 });
    const [a, b] = await Promise.all([
      migrateKnowledgeStore(test.db, { schema }),
      migrateKnowledgeStore(test.other(), { schema }),
    ]);
    expect([a, b]).toEqual([
      { from: 4, to: 4 },
      { from: 4, to: 4 },
    ]);
  });

  it('refuses a bad `db`, schema or option with INVALID_INPUT at its path', async () => {
    await expectKnowledgeError(migrateKnowledgeStore({} as KnowledgeDatabase), {
      code: 'INVALID_INPUT',
      path: ['db'],
    });
    await expectKnowledgeError(migrateKnowledgeStore(test.db, { schema: 'Bad-Name"' }), {
      code: 'INVALID_INPUT',
      path: ['options', 'schema'],
    });
    await expectKnowledgeError(
      migrateKnowledgeStore(test.db, { schema, extra: 1 } as { schema: string }),
      { code: 'INVALID_INPUT', path: ['options', 'extra'] },
    );
  });
});

describe('publishKnowledge', () => {
  it("publishes at createCatalogSource's own revision by default; the same content again is a no-op", async () => {
    const catalog = exampleCatalog();
    const expected = (await createCatalogSource(catalog, { files: exampleFiles() }).listTree({}))
      .activeContentRevision;
    const first = await publishKnowledge(test.db, {
      knowledgeBase: 'digest',
      catalog,
      files: exampleFiles(),
      schema,
    });
    expect(first).toMatchObject({ activeContentRevision: expected, created: true, removed: [] });
    expect(first.pages).toBe(catalog.ids.length);
    const again = await publishKnowledge(test.db, {
      knowledgeBase: 'digest',
      catalog: exampleCatalog(),
      files: exampleFiles(),
      schema,
    });
    expect(again).toMatchObject({ activeContentRevision: expected, created: false });
  });

  it('makes each new revision active, keeps `keep` of them and removes the older ones', async () => {
    const kb = 'revisions';
    const source = createPostgresSource(test.db, { knowledgeBase: kb, schema });
    const revisions = [];
    for (const text of ['# One\n\nfirst', '# Two\n\nsecond', '# Three\n\nthird']) {
      const published = await publishKnowledge(test.db, {
        knowledgeBase: kb,
        catalog: tiny(text),
        schema,
      });
      revisions.push(published.activeContentRevision);
      const read = await source.readFile({ fileId: 'page' });
      expect(read.file.activeContentRevision).toBe(published.activeContentRevision);
      expect(read.content).toBe(text);
    }
    expect(new Set(revisions).size).toBe(3);
    const { rows } = await test.db.query(
      `SELECT revision FROM "${schema}".revisions WHERE knowledge_base = $1 ORDER BY serial`,
      [kb],
    );
    expect(rows.map((r) => JSON.parse(String(r['revision'])))).toEqual(revisions.slice(1));
    // Going back to a kept revision only activates it.
    const back = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Two\n\nsecond'),
      schema,
    });
    expect(back).toMatchObject({ activeContentRevision: revisions[1], created: false });
    expect((await source.readFile({ fileId: 'page' })).content).toBe('# Two\n\nsecond');
    const fourth = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Four'),
      keep: 1,
      schema,
    });
    expect([...fourth.removed].sort()).toEqual([revisions[1], revisions[2]].sort());
  });

  it('turns a cursor of the previous revision into STALE_CURSOR', async () => {
    const kb = 'stale';
    const catalog = exampleCatalog();
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog,
      files: exampleFiles(),
      schema,
      revision: 1,
    });
    const source = createPostgresSource(test.db, { knowledgeBase: kb, schema });
    const page = await source.listTree({ limit: 1 });
    expect(page.nextCursor).not.toBeNull();
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog,
      files: exampleFiles(),
      schema,
      revision: 2,
    });
    await expectKnowledgeError(source.listTree({ limit: 1, cursor: page.nextCursor! }), {
      code: 'STALE_CURSOR',
    });
  });

  it('accepts the cursors of replicas sharing `cursorKey` (a catalog source too), refuses others and forgeries', async () => {
    const kb = 'replicas';
    const catalog = exampleCatalog();
    await publishKnowledge(test.db, { knowledgeBase: kb, catalog, files: exampleFiles(), schema });
    const cursorKey = 'the fleet’s cursor key, 32 bytes';
    const a = createPostgresSource(test.db, { knowledgeBase: kb, schema, cursorKey });
    const b = createPostgresSource(test.other(), { knowledgeBase: kb, schema, cursorKey });
    const catalogSource = createCatalogSource(catalog, {
      id: kb,
      files: exampleFiles(),
      cursorKey,
    });
    const stranger = createPostgresSource(test.db, {
      knowledgeBase: kb,
      schema,
      cursorKey: 'not the fleet’s key, but 32 bytes',
    });
    const first = await a.listTree({ limit: 1 });
    const second = await b.listTree({ cursor: first.nextCursor });
    expectSameOutput(second, await catalogSource.listTree({ cursor: first.nextCursor }));
    expect(second.items[0]).not.toEqual(first.items[0]);
    await expectKnowledgeError(stranger.listTree({ cursor: first.nextCursor }), {
      code: 'INVALID_CURSOR',
    });
    const forged = forgeCursor(first.nextCursor!, (payload) => (payload[5] = 2));
    await expectKnowledgeError(b.listTree({ cursor: forged }), {
      code: 'INVALID_CURSOR',
    });
  });

  it('refuses a revision already published with other content', async () => {
    await publishKnowledge(test.db, {
      knowledgeBase: 'taken',
      catalog: tiny('a'),
      revision: 'r1',
      schema,
    });
    await expectKnowledgeError(
      publishKnowledge(test.db, {
        knowledgeBase: 'taken',
        catalog: tiny('b'),
        revision: 'r1',
        schema,
      }),
      { code: 'INVALID_INPUT', path: ['options', 'revision'] },
    );
    const source = createPostgresSource(test.db, { knowledgeBase: 'taken', schema });
    expect((await source.readFile({ fileId: 'page' })).content).toBe('a');
  });

  it('refuses bad options with INVALID_INPUT at their paths, and writes nothing', async () => {
    await expectKnowledgeError(
      publishKnowledge(test.db, { knowledgeBase: '', catalog: tiny('a'), schema }),
      { code: 'INVALID_INPUT', path: ['options', 'knowledgeBase'] },
    );
    await expectKnowledgeError(
      publishKnowledge(test.db, { knowledgeBase: 'x', catalog: {} as never, schema }),
      { code: 'INVALID_INPUT', path: ['options', 'catalog'] },
    );
    await expectKnowledgeError(
      publishKnowledge(test.db, { knowledgeBase: 'x', catalog: tiny('a'), keep: 0, schema }),
      { code: 'INVALID_INPUT', path: ['options', 'keep'] },
    );
    await expectKnowledgeError(
      publishKnowledge(test.db, {
        knowledgeBase: 'x',
        catalog: tiny('a'),
        files: { page: { path: 'elsewhere/page.md' } },
        schema,
      }),
      { code: 'INVALID_INPUT', path: ['files', 'page', 'path'] },
    );
    expect((await listKnowledgeBases(test.db, { schema })).map((kb) => kb.id)).not.toContain('x');
  });
});

describe('listKnowledgeBases', () => {
  it('lists every knowledge base with its active revision and page count, by ID', async () => {
    await publishKnowledge(test.db, {
      knowledgeBase: 'list-b',
      catalog: tiny('b'),
      title: 'B',
      schema,
    });
    await publishKnowledge(test.db, { knowledgeBase: 'list-a', catalog: tiny('a'), schema });
    const listed = (await listKnowledgeBases(test.db, { schema })).filter((kb) =>
      kb.id.startsWith('list-'),
    );
    expect(listed.map((kb) => [kb.id, kb.title, kb.pages])).toEqual([
      ['list-a', 'list-a', 1],
      ['list-b', 'B', 1],
    ]);
    expect(Number.isNaN(Date.parse(listed[0]!.publishedAt))).toBe(false);
  });
});

describe('createPostgresSource', () => {
  it('reads nothing when created; a call reads what it returns, in one statement', async () => {
    await publishKnowledge(test.db, {
      knowledgeBase: 'calls',
      catalog: exampleCatalog(),
      files: exampleFiles(),
      schema,
    });
    const { db, seen, rows } = countingDatabase(test.db);
    const source = createPostgresSource(db, { knowledgeBase: 'calls', schema });
    expect(seen).toEqual([]);
    const pages = exampleCatalog().ids.length;
    const tree = await source.listTree({});
    expect(tree.items.length).toBeGreaterThan(0);
    expect([seen.length, rows.at(-1)]).toEqual([1, tree.items.length]);
    const fileId = exampleCatalog().ids[0]!;
    await source.getFile({ fileId });
    expect([seen.length, rows.at(-1)]).toEqual([2, 1]);
    await source.readFile({ fileId });
    expect([seen.length, rows.at(-1)]).toEqual([3, 1]);
    const related = await source.readRelated({ fileId, limit: 50 });
    const others = new Set(related.items.map((item) => item.fileId));
    expect([seen.length, rows.at(-1)]).toEqual([4, 1 + others.size]);
    // index.md is stored rendered: one row.
    await source.readFile({ path: 'index.md' });
    expect([seen.length, rows.at(-1)]).toEqual([5, 1]);
    // A miss reads the whole revision's records: its answer (the closest IDs) needs them.
    await expect(source.getFile({ fileId: 'no-such-page' })).rejects.toThrow();
    expect([seen.length, rows.at(-1)]).toEqual([7, pages]);
  });

  it('gives readers on two connections during publishes one whole revision per call, never a mix or a failure', async () => {
    const kb = 'readers';
    const catalogs = [exampleCatalog(), tiny('# Only page\n\ntext')];
    const files = [exampleFiles(), undefined];
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: catalogs[0]!,
      files: files[0],
      schema,
    });
    // What each revision's listing must be, from the catalog source over the same input; but
    // `publishedAt`, each source's own time (an ISO time), which is compared as a placeholder.
    const timed = (tree: ListTreeOutput): unknown => {
      expect(tree.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      return {
        ...tree,
        publishedAt: '<time>',
        versions: tree.versions?.map((v) => ({ ...v, publishedAt: '<time>' })),
      };
    };
    const expected = new Map<unknown, unknown>();
    for (let i = 0; i < 2; i++) {
      const tree = await createCatalogSource(catalogs[i]!, { files: files[i] }).listTree({});
      expected.set(tree.activeContentRevision, timed(tree));
    }
    const readers = [test.db, test.other()].map((db) =>
      createPostgresSource(db, { knowledgeBase: kb, schema }),
    );
    let publishing = true;
    const seen = new Set<unknown>();
    const read = async (source: (typeof readers)[number]) => {
      do {
        const tree = await source.listTree({});
        seen.add(tree.activeContentRevision);
        expect(timed(tree)).toEqual(expected.get(tree.activeContentRevision));
      } while (publishing);
    };
    const publishes = (async () => {
      for (let round = 1; round <= 4; round++)
        await publishKnowledge(test.db, {
          knowledgeBase: kb,
          catalog: catalogs[round % 2]!,
          files: files[round % 2],
          schema,
        });
      publishing = false;
    })();
    await Promise.all([publishes, ...readers.map(read)]);
    expect(seen.size).toBeGreaterThan(0);
    for (const revision of seen) expect(expected.has(revision)).toBe(true);
  });

  it('keeps knowledge bases apart', async () => {
    await publishKnowledge(test.db, { knowledgeBase: 'apart-1', catalog: tiny('one'), schema });
    await publishKnowledge(test.db, { knowledgeBase: 'apart-2', catalog: tiny('two'), schema });
    const read = (kb: string) =>
      createPostgresSource(test.db, { knowledgeBase: kb, schema }).readFile({ fileId: 'page' });
    expect((await read('apart-1')).content).toBe('one');
    expect((await read('apart-2')).content).toBe('two');
  });

  it('answers NOT_FOUND for a knowledge base that is not in the store', async () => {
    const source = createPostgresSource(test.db, { knowledgeBase: 'never-published', schema });
    await expectKnowledgeError(source.listTree({}, { requestId: 'req-1' }), {
      code: 'NOT_FOUND',
      message: /never-published/,
      requestId: 'req-1',
    });
  });

  it('answers INTERNAL when the database fails, and refuses bad options with INVALID_INPUT', async () => {
    const broken = { query: () => Promise.reject(new Error('connection refused')) };
    const source = createPostgresSource(broken, { knowledgeBase: 'any', schema });
    await expectKnowledgeError(source.listTree({}), { code: 'INTERNAL' });
    expect(() => createPostgresSource(test.db, { knowledgeBase: 'a\u0000b' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expectKnowledgeError(() => createPostgresSource(test.db, undefined as never), {
      code: 'INVALID_INPUT',
      path: ['options'],
    });
    expectKnowledgeError(
      () => createPostgresSource(test.db, { knowledgeBase: 'a', maxReadChars: 0 }),
      { code: 'INVALID_INPUT', path: ['options', 'maxReadChars'] },
    );
  });
});
