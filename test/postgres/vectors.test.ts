/**
 * Chunk vectors in pgvector (`src/postgres/vectors.ts`): written per revision, and the nearest pages
 * a search's semantic stage reads, in the order and with the chunks the in-memory engine's semantic
 * ranking keeps. PGlite loads pgvector from `@electric-sql/pglite-pgvector`; on a server without
 * pgvector (Debian's packages have none) these tests say so and skip, and publishing with an embedder
 * is refused with the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildChunks,
  buildTermRows,
  buildVectors,
  chunkPlace,
  memoryTermStore,
} from '../../src/agent/search/index.js';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createBm25fEngine } from '../../src/agent/search/index.js';
import { exampleCatalog, exampleFiles } from '../helpers/exampleKnowledge.js';
import { schemaOf } from '../../src/postgres/schema.js';
import { ensureVectorTable, nearestPages, writeVectors } from '../../src/postgres/vectors.js';
import { goodEmbedder } from '../helpers/search-fakes.js';
import { corpusOf, SAMPLE_PAGES, searchFixture } from '../helpers/search-fixtures.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  hasPgvector,
  HOOK_TIMEOUT,
  openTestDatabase,
  type TestDatabase,
} from '../helpers/postgres-database.js';
import { expectSameOutput } from '../helpers/versions.js';

let t: TestDatabase;
let present = false;
beforeAll(async () => {
  t = await openTestDatabase('vectors', { pgvector: true });
  present = await hasPgvector(t.db);
  await migrateKnowledgeStore(t.db, { schema: t.schema });
}, HOOK_TIMEOUT);
afterAll(async () => t?.close(), HOOK_TIMEOUT);

describe('pgvector chunk vectors', () => {
  it('keeps the nearest pages the in-memory semantic ranking keeps, in its order', async (context) => {
    if (!present) context.skip();
    const fixture = searchFixture(SAMPLE_PAGES);
    const corpus = corpusOf(fixture);
    const chunks = buildChunks(corpus);
    const embedder = goodEmbedder({ cost: 'price' });
    const { store } = await buildVectors(embedder, chunks, new AbortController().signal);
    const memory = memoryTermStore(
      await buildTermRows(corpus),
      corpus,
      (id) => fixture.catalog.document(id),
      { vectors: store, chunks },
    );
    await publishKnowledge(t.db, {
      schema: t.schema,
      knowledgeBase: 'vec',
      catalog: fixture.catalog,
    });
    const s = schemaOf('test', t.schema);
    const { rows } = await t.db.query(
      `SELECT active_serial FROM ${s}.knowledge_bases WHERE id = 'vec'`,
    );
    const serial = Number(rows[0]!['active_serial']);
    await ensureVectorTable(t.db, s, 'test');
    const dims = store.dimensions;
    await writeVectors(
      t.db,
      s,
      'vec',
      serial,
      Array.from({ length: chunks.count }, (_, c) => ({
        page: chunks.pageOf[c]!,
        place: chunkPlace(chunks, c),
        vector: store.data.subarray(c * dims, (c + 1) * dims),
      })),
    );
    for (const text of ['cost of renewal', '退款', 'plan', 'zzz']) {
      const [vector] = await embedder.embed([text], { signal: new AbortController().signal });
      const query = Array.from(vector!);
      const want = await memory.nearest!(query, 50, new AbortController().signal);
      const got = await nearestPages(t.db, s, 'vec', serial, query, 50);
      expect(got?.map(({ similarity, ...rest }) => rest)).toEqual(
        want?.map(({ similarity, ...rest }) => rest),
      );
      got!.forEach((p, i) => expect(p.similarity).toBeCloseTo(want![i]!.similarity, 5));
    }
    // Another revision has none.
    expect(await nearestPages(t.db, s, 'vec', serial + 1, [1, 2], 50)).toBeUndefined();
  });

  it('serves hybrid search from the vectors a publish stored, as the catalog source with the same embedder', async (context) => {
    if (!present) context.skip();
    const embedder = goodEmbedder({ price: 'billing' });
    await publishKnowledge(t.db, {
      schema: t.schema,
      knowledgeBase: 'hybrid',
      catalog: exampleCatalog(),
      files: exampleFiles(),
      embedder,
    });
    const stored = createPostgresSource(t.db, {
      schema: t.schema,
      knowledgeBase: 'hybrid',
      embedder,
    });
    const reference = createCatalogSource(exampleCatalog(), {
      id: 'hybrid',
      files: exampleFiles(),
      search: createBm25fEngine({ embedder }),
    });
    for (const query of [
      'What does a snapshot ID name?',
      'section anchors',
      'price',
      'exploration budget',
    ])
      for (const mode of ['hybrid', 'graph', 'file'] as const) {
        const want = await reference.searchFiles({ query, mode, limit: 3 });
        const got = await stored.searchFiles({ query, mode, limit: 3 });
        expectSameOutput(got, want);
        if (mode !== 'file') expect(got.semanticStatus).toEqual({ state: 'ready', safeCode: null });
      }
    // Without the embedder: lexical only, `disabled`; with one but a revision stored without vectors:
    // `unavailable`, and the lexical ranking stands.
    const lexical = createPostgresSource(t.db, { schema: t.schema, knowledgeBase: 'hybrid' });
    expect((await lexical.searchFiles({ query: 'price' })).semanticStatus.safeCode).toBe(
      'SEMANTIC_DISABLED',
    );
    await publishKnowledge(t.db, {
      schema: t.schema,
      knowledgeBase: 'plain',
      catalog: exampleCatalog(),
      files: exampleFiles(),
    });
    const plain = createPostgresSource(t.db, {
      schema: t.schema,
      knowledgeBase: 'plain',
      embedder,
    });
    const answer = await plain.searchFiles({ query: 'section anchors' });
    expect(answer.semanticStatus).toEqual({
      state: 'unavailable',
      safeCode: 'SEMANTIC_UNAVAILABLE',
    });
    expect(answer.items.length).toBeGreaterThan(0);
  });

  it('publishes nothing when the embedder fails, naming it', async (context) => {
    if (!present) context.skip();
    await expect(
      publishKnowledge(t.db, {
        schema: t.schema,
        knowledgeBase: 'failing',
        catalog: exampleCatalog(),
        files: exampleFiles(),
        embedder: { embed: async () => Promise.reject(new Error('model down')) },
      }),
    ).rejects.toThrow(
      /publishKnowledge: `options.embedder` failed .*model down.*nothing was published/,
    );
    const { rows } = await t.db.query(
      `SELECT 1 FROM ${schemaOf('test', t.schema)}.knowledge_bases WHERE id = 'failing'`,
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses to store vectors where pgvector cannot be installed, naming the option and the fix', async () => {
    const plain = await openTestDatabase('novector');
    try {
      if (await hasPgvector(plain.db)) return; // a server with pgvector: nothing to refuse
      await migrateKnowledgeStore(plain.db, { schema: plain.schema });
      await expectKnowledgeError(
        ensureVectorTable(plain.db, schemaOf('test', plain.schema), 'publishKnowledge'),
        {
          code: 'INVALID_INPUT',
          path: ['options', 'embedder'],
          message: expect.stringContaining('needs the pgvector extension') as string,
        },
      );
    } finally {
      await plain.close();
    }
  });
});
