/**
 * Search over a term store (`searchTermStore`) ranks exactly as the in-memory engine: the same hits,
 * scores, fields, sections, excerpts and continuations, on the sample pages and on real English and
 * Chinese documentation, in every mode and across pages. What PostgreSQL and static bundles store is
 * these rows; this is the reference they are held to.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createBm25fEngine,
  type SearchAnswer,
  type SearchRequest,
} from '../../src/agent/search/index.js';
import { buildTermRows, memoryTermStore } from '../../src/agent/search/memoryTermStore.js';
import { buildChunks, buildVectors } from '../../src/agent/search/index.js';
import type { KnowledgeEmbedder } from '../../src/agent/types.js';
import { failingEmbedder, goodEmbedder, slowEmbedder } from '../helpers/search-fakes.js';
import {
  searchTermStore,
  type TermHead,
  type TermStore,
} from '../../src/agent/search/termStoreEngine.js';
import { TERM_ROWS_FORMAT } from '../../src/agent/search/termRows.js';
import {
  corpusOf,
  corpusTestPages,
  hasCorpusFolder,
  REAL_QUERIES,
  SAMPLE_PAGES,
  windowQueries,
  searchFixture,
  type SearchFixture,
  type TestPage,
} from '../helpers/search-fixtures.js';

function request(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
  return {
    query,
    mode: 'hybrid',
    graphDepth: 1,
    graphFanout: 10,
    rerank: false,
    limit: 10,
    continuation: undefined,
    signal: undefined,
    ...extra,
  };
}

/** What a hit shows, read now (its fields are lazy). */
const shown = (answer: SearchAnswer) => ({
  continuation: answer.continuation,
  semanticStatus: answer.semanticStatus,
  rerankerStatus: answer.rerankerStatus,
  hits: answer.hits.map((h) => ({
    fileId: h.fileId,
    score: h.score,
    matchedFields: h.matchedFields,
    evidenceTypes: h.evidenceTypes,
    sectionIds: h.sectionIds,
    sourceExcerpt: h.sourceExcerpt,
    heading: h.heading ?? null,
  })),
});

interface Pair {
  readonly embedder?: KnowledgeEmbedder;
  readonly fixture: SearchFixture;
  readonly store: TermStore;
  readonly reference: ReturnType<ReturnType<typeof createBm25fEngine>>;
  /** Every store call, by method. */
  readonly calls: Record<string, number>;
}

async function pairOf(pages: readonly TestPage[], embedder?: KnowledgeEmbedder): Promise<Pair> {
  const fixture = searchFixture(pages);
  const corpus = corpusOf(fixture);
  const rows = await buildTermRows(corpus);
  const chunks = buildChunks(corpus);
  const semantic =
    embedder === undefined
      ? undefined
      : {
          chunks,
          vectors: (await buildVectors(embedder, chunks, new AbortController().signal)).store,
        };
  const inner = memoryTermStore(rows, corpus, (id) => fixture.catalog.document(id), semantic);
  const calls: Record<string, number> = {};
  const store = Object.fromEntries(
    Object.entries(inner).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as TermStore;
  return {
    ...(embedder === undefined ? {} : { embedder }),
    fixture,
    store,
    reference: createBm25fEngine({ embedder })(corpus),
    calls,
  };
}

async function expectSame(pair: Pair, req: SearchRequest): Promise<SearchAnswer> {
  const want = await pair.reference.search(req);
  const got = await searchTermStore(pair.store, req, {
    excerptChars: 240,
    embedder: pair.embedder,
  });
  expect(shown(got)).toEqual(shown(want));
  return want;
}

/** Every page of a query, both ways. */
async function expectSamePages(pair: Pair, req: SearchRequest): Promise<void> {
  let continuation: string | undefined;
  for (let n = 0; n < 50; n++) {
    const answer = await expectSame(pair, { ...req, continuation });
    if (answer.continuation === null) return;
    continuation = answer.continuation;
  }
}

const sample = await pairOf(SAMPLE_PAGES);

describe('searchTermStore', () => {
  it('ranks the sample pages as the in-memory engine, in every mode', async () => {
    for (const query of [
      'When are renewal notices sent?',
      '退款多久返回支付账户？',
      'プランを選ぶ',
      'renewl noti',
      'billing',
      'the',
      'zzzz-not-there',
    ])
      for (const mode of ['hybrid', 'file', 'graph'] as const)
        await expectSamePages(sample, request(query, { mode, limit: 2 }));
  });

  it('fuses the store’s nearest pages as the in-memory engine fuses its own', async () => {
    const pair = await pairOf(SAMPLE_PAGES, goodEmbedder({ cost: 'price' }));
    for (const query of ['When are renewal notices sent?', 'cost', '退款', 'the'])
      for (const mode of ['hybrid', 'file', 'graph'] as const) {
        await expectSamePages(pair, request(query, { mode, limit: 2 }));
      }
    const answer = await searchTermStore(pair.store, request('cost'), {
      excerptChars: 240,
      embedder: pair.embedder,
    });
    expect(answer.semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(answer.hits.length).toBeGreaterThan(0);
  });

  it('says the semantic stage is unavailable, and ranks lexically, when it fails or is late', async () => {
    const noVectors = await pairOf(SAMPLE_PAGES);
    const withVectors = await pairOf(SAMPLE_PAGES, goodEmbedder());
    const lexical = await searchTermStore(noVectors.store, request('billing'), {
      excerptChars: 240,
    });
    for (const [store, embedder, safeCode] of [
      [noVectors.store, goodEmbedder(), 'SEMANTIC_UNAVAILABLE'],
      [withVectors.store, failingEmbedder, 'SEMANTIC_UNAVAILABLE'],
      [withVectors.store, slowEmbedder(500), 'SEMANTIC_TIMEOUT'],
    ] as const) {
      const answer = await searchTermStore(store, request('billing'), {
        excerptChars: 240,
        embedder,
        semanticTimeoutMs: 50,
      });
      expect(answer.semanticStatus).toEqual({ state: 'unavailable', safeCode });
      expect(shown(answer).hits).toEqual(shown(lexical).hits);
    }
    const withoutVectors: TermStore = { ...noVectors.store, nearest: async () => undefined };
    const answer = await searchTermStore(withoutVectors, request('billing'), {
      excerptChars: 240,
      embedder: goodEmbedder(),
    });
    expect(answer.semanticStatus.safeCode).toBe('SEMANTIC_UNAVAILABLE');
  });

  it.skipIf(!hasCorpusFolder('rust-lang+book'))(
    'asks the store for the head terms its query may reach only',
    async () => {
      const pair = await pairOf(corpusTestPages('rust-lang+book', 478));
      const asked: TermHead[][] = [];
      let returned = 0;
      const store: TermStore = {
        ...pair.store,
        dictionary: async (keys, heads) => {
          asked.push([...heads]);
          const entries = await pair.store.dictionary(keys, heads);
          returned += entries.length;
          return entries;
        },
      };
      // Every term under the heads, as a store that ignores the wishes would answer: same ranking.
      const everything: TermStore = {
        ...pair.store,
        dictionary: (keys, heads) =>
          pair.store.dictionary(
            keys,
            heads.map((h) => ({ head: h.head, all: true, prefixes: [], lengths: [] })),
          ),
      };
      const query = 'how do closures capture their environment';
      const want = await searchTermStore(everything, request(query), { excerptChars: 240 });
      const got = await searchTermStore(store, request(query), { excerptChars: 240 });
      expect(shown(got)).toEqual(shown(want));
      // `closures`, `capture`, `their`, `environment` are fuzzy (5+ letters); the last word is a prefix.
      expect(asked[0]).toContainEqual({ head: 'cl', all: false, prefixes: [], lengths: [7, 8, 9] });
      expect(asked[0]).toContainEqual({
        head: 'en',
        all: false,
        prefixes: ['environment'],
        lengths: [10, 11, 12],
      });
      expect(asked[0]!.some((h) => h.head === 'do' || h.head === 'ho')).toBe(false);
      const narrow = await pair.store.dictionary([], asked[0]!);
      const all = await pair.store.dictionary(
        [],
        asked[0]!.map((h) => ({ ...h, all: true })),
      );
      expect(narrow.length).toBeGreaterThan(0);
      expect(narrow.length).toBeLessThan(all.length / 2);
      expect(returned).toBeLessThan(all.length);
    },
  );

  it('refuses rows of another format with the fix', async () => {
    const store: TermStore = {
      ...sample.store,
      stats: async () => ({
        ...(await sample.store.stats()),
        format: 1 as typeof TERM_ROWS_FORMAT,
      }),
    };
    await expect(searchTermStore(store, request('billing'), { excerptChars: 240 })).rejects.toThrow(
      /format 1, and this version reads format 2: publish or export the knowledge base again/,
    );
  });

  it('lays out an index of hundreds of thousands of pairs (a 100,000-page store has them)', async () => {
    // One page of 200,000 distinct words: as many pairs. Spread as arguments, they overflowed the stack.
    const text = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const fixture = searchFixture([{ id: 'big', text: `# Big\n\n${text}\n` }]);
    const rows = await buildTermRows(corpusOf(fixture));
    expect(rows.rows.filter((r) => r.pair).length).toBeGreaterThanOrEqual(199_999);
  });

  it('reads the documents of the hits shown only', async () => {
    const pair = await pairOf(SAMPLE_PAGES);
    const pages: number[][] = [];
    const store: TermStore = {
      ...pair.store,
      pages: (list) => (pages.push([...list]), pair.store.pages(list)),
    };
    await searchTermStore(store, request('the', { limit: 1 }), { excerptChars: 240 });
    expect(pages).toHaveLength(1);
    expect(pages[0]).toHaveLength(1);
  });

  const real = (folder: string) => hasCorpusFolder(folder);
  for (const [folder, max] of [
    ['rust-lang+book', 120],
    ['vuejs-translations+docs-zh-cn', 125],
    // MDX pages, containers: excerpts cut from the page's text without dialect markup.
    ['withastro+starlight', 74],
  ] as const) {
    it.skipIf(!real(folder))(
      `ranks real documents as the in-memory engine: ${folder}`,
      { timeout: 120_000 },
      async () => {
        const pages = corpusTestPages(folder, max);
        const pair = await pairOf(pages);
        const texts = pages.map((p) => p.text);
        for (const query of REAL_QUERIES) await expectSame(pair, request(query));
        await fc.assert(
          fc.asyncProperty(windowQueries(texts), ({ query, mode }) =>
            expectSame(pair, request(query, { mode })).then(() => undefined),
          ),
          { seed: 2212, numRuns: 60 },
        );
      },
    );
  }
});
