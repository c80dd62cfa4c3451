/**
 * `search_files` on the stored search index (schema version 3): the same answers as
 * `createCatalogSource` (items, scores, section IDs, excerpts, statuses, cursors) over generated
 * pages and over real English and Chinese documentation, in every mode and page after page; a search
 * reads its terms' rows and its hits' pages, never the whole revision; a revision without rows is
 * searched in memory; a store at version 2 migrates and then searches from rows; paging during
 * publishes that remove revisions is one revision per page or `STALE_CURSOR`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type {
  KnowledgeFileOptions,
  KnowledgeSource,
  SearchFilesOutput,
} from '../../src/agent/index.js';
import type { KnowledgeCatalog } from '../../src/types.js';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import { decodePostings, encodePostings } from '../../src/postgres/postings.js';
import {
  HOOK_TIMEOUT,
  openTestDatabase,
  type TestDatabase,
  countingDatabase,
} from '../helpers/postgres-database.js';
import { expectPagingDuringPublishes } from '../helpers/postgres-race.js';
import {
  catalogOf,
  corpusTestPages,
  filesOf,
  hasCorpusFolder,
} from '../helpers/search-fixtures.js';
import { expectSameOutput } from '../helpers/versions.js';

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase('search');
}, HOOK_TIMEOUT);
afterAll(async () => test?.close(), HOOK_TIMEOUT);

const MODES = ['hybrid', 'file', 'graph'] as const;

/** A knowledge base to publish: its catalog and files. */
interface Knowledge {
  readonly catalog: KnowledgeCatalog;
  readonly files: Record<string, KnowledgeFileOptions>;
  /** The pages' Markdown. */
  readonly texts?: readonly string[];
}

/** Generated pages in uneven directories, linking to each other, sharing words and tags. */
function generated(count: number): Knowledge {
  const pathOf = (n: number) => (n % 5 === 0 ? `pages/p${n}.md` : `pages/d${n % 3}/p${n}.md`);
  const words = 'renewal invoice refund notice account shipping window token'.split(' ');
  const catalog = defineKnowledgeCatalog(
    Array.from({ length: count }, (_, n) => {
      const w = (k: number) => words[(n * 3 + k) % words.length]!;
      const links = [1, 3, 7]
        .map((k) => (n * k + 5) % count)
        .filter((m) => m !== n)
        .map((m) => `[page ${m}](/${pathOf(m)})`);
      const text = `# Page ${n} ${w(0)}\n\nAbout ${w(1)} and ${w(2)}, see ${links.join(', ')}.\n\n<!-- agent-section:a -->\n## The ${w(3)} rule\n\nEvery ${w(4)} ${w(5)} needs a ${w(6)} within ${n % 9} days (case ${n}).\n<!-- /agent-section:a -->\n\n<!-- agent-section:b -->\n## 退款 ${n % 4}\n\n退款会在${n % 7}个工作日内返回支付账户。\n<!-- /agent-section:b -->\n`;
      return parseKnowledgeDocument({ id: `p${n}`, revision: `r${n}`, text });
    }),
  );
  const files = Object.fromEntries(
    catalog.ids.map((id) => [id, { path: pathOf(Number(id.slice(1))) }]),
  );
  return { catalog, files };
}

/** Up to `max` Markdown pages of a corpus folder, in path order, under their own paths. */
function real(folder: string, max: number): Knowledge {
  const pages = corpusTestPages(folder, max);
  return { catalog: catalogOf(pages), files: filesOf(pages), texts: pages.map((p) => p.text) };
}

/** Publish `knowledge` as `kb` in `schema`; the reference catalog source over the same input. */
async function published(
  schema: string,
  kb: string,
  knowledge: Knowledge,
  revision = 'rev-1',
): Promise<KnowledgeSource> {
  const { catalog, files } = knowledge;
  await publishKnowledge(test.db, { knowledgeBase: kb, catalog, files, revision, schema });
  return createCatalogSource(knowledge.catalog, { id: kb, revision, files: knowledge.files });
}

/** Every page of `query` in `mode` on both sources, equal page by page (at most `pages` pages). */
async function expectSamePages(
  store: KnowledgeSource,
  reference: KnowledgeSource,
  args: Record<string, unknown>,
  pages = 50,
): Promise<SearchFilesOutput[]> {
  const seen: SearchFilesOutput[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < pages; n++) {
    const input = cursor === undefined ? args : { cursor };
    const want = await reference.searchFiles(input);
    expectSameOutput(await store.searchFiles(input), want);
    seen.push(want);
    if (want.nextCursor === null) break;
    cursor = want.nextCursor;
  }
  return seen;
}

describe('search_files on the stored index', () => {
  const schema = () => `${test.schema}_s`;
  const gen = generated(41);
  let reference: KnowledgeSource;
  beforeAll(async () => {
    await migrateKnowledgeStore(test.db, { schema: schema() });
    reference = await published(schema(), 'gen', gen);
  }, HOOK_TIMEOUT);
  afterAll(() => test.db.query(`DROP SCHEMA IF EXISTS "${schema()}" CASCADE`), HOOK_TIMEOUT);

  it('answers what the catalog source answers, every mode, page after page', async () => {
    const store = createPostgresSource(test.db, { knowledgeBase: 'gen', schema: schema() });
    for (const query of [
      'When are renewal notices sent?',
      'refund window',
      '退款多久返回支付账户？',
      'renewl noti',
      'page 17',
      'p17',
      'zzzz-not-there',
    ])
      for (const mode of MODES)
        for (const limit of [1, 3, 10])
          // Every hit is compared on the pages of 3 and of 10, to the last page; pages of 1 compare
          // the first ten cursors (to the last, they were two thirds of the file's time).
          await expectSamePages(
            store,
            reference,
            { query, mode, limit, graphDepth: 2 },
            limit === 1 ? 10 : 50,
          );
  });

  it('reads the query’s rows and the hits’ pages only, never the whole revision', async () => {
    const { db, log } = countingDatabase(test.db);
    const store = createPostgresSource(db, { knowledgeBase: 'gen', schema: schema() });
    const want = await reference.searchFiles({ query: 'case 17', limit: 2 });
    expectSameOutput(await store.searchFiles({ query: 'case 17', limit: 2 }), want);
    // The revision and its statistics; the dictionary; the postings; the two hits' pages.
    expect(log.map((l) => l.rows)).toEqual([1, expect.any(Number), expect.any(Number), 2]);
    expect(log[3]!.rows).toBe(want.items.length);
    for (const l of log) expect(l.rows).toBeLessThan(gen.catalog.ids.length);
    expect(log.filter((l) => /JOIN "[^"]+"\.pages p ON/.test(l.text))).toEqual([]);
    log.length = 0;
    // Graph mode adds one statement per level of relationships, for the frontier's pages only.
    await store.searchFiles({ query: 'case 17', mode: 'graph', graphDepth: 2, graphFanout: 2 });
    expect(log.length).toBeLessThanOrEqual(4 + 2);
    for (const l of log) expect(l.rows).toBeLessThan(gen.catalog.ids.length);
    log.length = 0;
    // warm() has nothing to build: it reads the revision only.
    await store.warm!();
    expect(log.map((l) => l.rows)).toEqual([1]);
  });

  it('a cursor from another revision is STALE_CURSOR; a bad one INVALID_CURSOR, as the catalog source', async () => {
    const store = createPostgresSource(test.db, { knowledgeBase: 'gen', schema: schema() });
    const other = createCatalogSource(gen.catalog, {
      id: 'gen',
      revision: 'rev-0',
      files: gen.files,
    });
    const stale = (await other.searchFiles({ query: 'refund', limit: 1 })).nextCursor!;
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (value) => ({ value }),
        (error: { code?: string; message?: string }) => ({
          code: error.code,
          message: error.message,
        }),
      );
    for (const args of [
      { cursor: stale },
      { cursor: 'nope' },
      { query: '' },
      { query: 'x', limit: 0 },
    ])
      expect(await outcome(store.searchFiles(args))).toEqual(
        await outcome(reference.searchFiles(args)),
      );
    expect(await outcome(store.searchFiles({ cursor: stale }))).toMatchObject({
      code: 'STALE_CURSOR',
    });
  });

  it('a revision without search rows is searched in memory, with the same answers', async () => {
    await publishKnowledge(test.db, {
      knowledgeBase: 'bare',
      ...gen,
      revision: 'rev-1',
      schema: schema(),
    });
    await test.db.query(`DELETE FROM "${schema()}".search_stats WHERE knowledge_base = 'bare'`);
    const { db, log } = countingDatabase(test.db);
    const store = createPostgresSource(db, { knowledgeBase: 'bare', schema: schema() });
    const ref = createCatalogSource(gen.catalog, {
      id: 'bare',
      revision: 'rev-1',
      files: gen.files,
    });
    await expectSamePages(store, ref, { query: 'refund window', limit: 5 });
    // It read the whole revision to build the engine.
    expect(Math.max(...log.map((l) => l.rows))).toBe(gen.catalog.ids.length);
  });

  it('an app’s own `search` engine still runs in memory', async () => {
    const { createBm25fEngine } = await import('../../src/agent/index.js');
    const store = createPostgresSource(test.db, {
      knowledgeBase: 'gen',
      schema: schema(),
      search: createBm25fEngine({ excerptChars: 60 }),
    });
    const ref = createCatalogSource(gen.catalog, {
      id: 'gen',
      revision: 'rev-1',
      files: gen.files,
      search: createBm25fEngine({ excerptChars: 60 }),
    });
    await expectSamePages(store, ref, { query: 'refund window', limit: 5 });
  });
});

describe('search_files on real documentation', () => {
  const schema = () => `${test.schema}_real`;
  beforeAll(() => migrateKnowledgeStore(test.db, { schema: schema() }), HOOK_TIMEOUT);
  afterAll(() => test.db.query(`DROP SCHEMA IF EXISTS "${schema()}" CASCADE`), HOOK_TIMEOUT);

  const cases = [
    {
      folder: 'rust-lang+book/src',
      max: 90,
      queries: [
        'how do I handle errors with Result',
        'ownership and borrowing rules',
        'std::fs::read_to_string',
        'cargo new',
        'lifetimes',
      ],
    },
    {
      folder: 'vuejs-translations+docs-zh-cn/src/guide',
      max: 90,
      queries: ['v-if 和 v-show 有什么区别', 'computed vs watch 的区别', '组件', '响应式', 'props'],
    },
    {
      // MDX pages, containers: excerpts cut from the page's text without dialect markup.
      folder: 'withastro+starlight/docs/src/content/docs',
      max: 74,
      queries: ['tabs component', 'import', 'sidebar config', '侧边栏', 'aside tip'],
    },
  ] as const;
  for (const { folder, max, queries } of cases) {
    it.skipIf(!hasCorpusFolder(folder))(
      `answers what the catalog source answers: ${folder}`,
      { timeout: 600_000 },
      async () => {
        const knowledge = real(folder, max);
        const kb = folder.slice(0, 4).replace(/[^a-z]/g, 'x');
        const reference = await published(schema(), kb, knowledge);
        const { db, log } = countingDatabase(test.db);
        const store = createPostgresSource(db, { knowledgeBase: kb, schema: schema() });
        for (const query of queries)
          for (const mode of MODES)
            await expectSamePages(store, reference, { query, mode, limit: 4 }, 3);
        // Pages were read by number, at most a page of hits (or a graph frontier) at a time.
        expect(log.filter((l) => /JOIN "[^"]+"\.pages p ON/.test(l.text))).toEqual([]);
        for (const l of log.filter((l) => l.text.includes('.search_pages sp')))
          expect(l.rows).toBeLessThanOrEqual(10);
        // Windows of the pages' own words, as questions and passages are.
        const texts = knowledge.texts!;
        await fc.assert(
          fc.asyncProperty(
            fc.nat({ max: texts.length - 1 }),
            fc.nat(),
            fc.integer({ min: 1, max: 10 }),
            fc.constantFrom(...MODES),
            async (page, at, length, mode) => {
              const text = texts[page]!;
              const start = text.length === 0 ? 0 : at % text.length;
              const query = text.slice(start, start + length * 6).trim() || 'x';
              const args = { query: query.slice(0, 2000), mode, limit: 5 };
              expectSameOutput(await store.searchFiles(args), await reference.searchFiles(args));
            },
          ),
          { seed: 2312, numRuns: 25 },
        );
      },
    );
  }
});

describe('search during publishes', () => {
  it('pages a search on two connections while revisions come and go (keep 1): one revision per page, or STALE_CURSOR', async () => {
    const schema = `${test.schema}_race`;
    const full = generated(30);
    const half: Knowledge = {
      catalog: defineKnowledgeCatalog(
        full.catalog.ids.slice(0, 15).map((id) => full.catalog.document(id)),
      ),
      files: Object.fromEntries(Object.entries(full.files).slice(0, 15)),
    };
    const editions = [
      { revision: 'A', ...full },
      { revision: 'B', ...half },
    ];
    const args = { query: 'refund window', limit: 2 };
    await expectPagingDuringPublishes(test, schema, editions, (source, cursor) =>
      source.searchFiles(cursor === undefined ? args : { cursor }),
    );
  });
});

describe('a store published before schema version 3', () => {
  it('migrates: its revisions get their search rows, and search reads them', async () => {
    const schema = `${test.schema}_v2`;
    const gen = generated(23);
    try {
      await migrateKnowledgeStore(test.db, { schema });
      const reference = await published(schema, 'gen', gen);
      await publishKnowledge(test.db, {
        knowledgeBase: 'other',
        ...generated(9),
        revision: 'o',
        schema,
      });
      // What version 2 held: the same revisions and pages, none of version 3's tables.
      for (const table of ['search_terms', 'search_pages', 'search_stats'])
        await test.db.query(`DROP TABLE "${schema}".${table}`);
      await test.db.query(`DELETE FROM "${schema}".schema_version WHERE version >= 3`);
      const old = createPostgresSource(test.db, { knowledgeBase: 'gen', schema });
      await expect(old.searchFiles({ query: 'refund' })).rejects.toMatchObject({
        code: 'INTERNAL',
      });

      expect(await migrateKnowledgeStore(test.db, { schema })).toEqual({ from: 2, to: 4 });
      expect(await migrateKnowledgeStore(test.db, { schema })).toEqual({ from: 4, to: 4 });
      const { db, log } = countingDatabase(test.db);
      const store = createPostgresSource(db, { knowledgeBase: 'gen', schema });
      for (const mode of MODES)
        await expectSamePages(store, reference, { query: 'refund window 退款', mode, limit: 4 });
      for (const l of log) expect(l.rows).toBeLessThan(gen.catalog.ids.length);
      const { rows } = await test.db.query(
        `SELECT count(*)::int AS n FROM "${schema}".search_stats`,
      );
      expect(rows[0]!['n']).toBe(2);
    } finally {
      await test.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});

describe('stored postings', () => {
  it('read back as written', () => {
    const list = (stride: number) =>
      fc
        .array(
          fc.tuple(
            fc.nat({ max: 2 ** 31 - 1 }),
            fc.array(fc.oneof(fc.nat({ max: 300 }), fc.nat()), {
              minLength: stride - 1,
              maxLength: stride - 1,
            }),
          ),
          { maxLength: 40 },
        )
        .map((entries) =>
          entries.sort((a, b) => a[0] - b[0]).flatMap(([page, rest]) => [page, ...rest]),
        );
    fc.assert(
      fc.property(list(4), fc.array(list(3), { maxLength: 5 }), (content, fields) => {
        const row = {
          key: 'k',
          ordinal: 0,
          pair: false,
          head: null,
          bigram: false,
          frequency: 1,
          content,
          fields,
        };
        const hex = encodePostings(row);
        const bytes = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
        expect(decodePostings(bytes)).toEqual({ content, fields });
      }),
      { seed: 2313, numRuns: 200 },
    );
  });

  it('refuses postings that do not ascend by page, and bytes that end early', () => {
    const row = {
      key: 'k',
      ordinal: 0,
      pair: false,
      head: null,
      bigram: false,
      frequency: 1,
      content: [5, 0, 1, 1, 4, 0, 1, 1],
      fields: [],
    };
    expect(() => encodePostings(row)).toThrow(/page 4 after page 5/);
    expect(() => decodePostings(Uint8Array.of(0, 3, 1))).toThrow(/ends early/);
  });
});
