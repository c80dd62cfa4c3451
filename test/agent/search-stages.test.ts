import { describe, expect, it } from 'vitest';
import { fuseRanks, type LexicalFile, type SemanticFile } from '../../src/agent/search/index.js';
import type { KnowledgeToolError } from '../../src/agent/errors/index.js';
import {
  failingEmbedder,
  failingReranker,
  goodEmbedder,
  goodReranker,
  slowEmbedder,
  slowReranker,
} from '../helpers/search-fakes.js';
import {
  rankerOf,
  SAMPLE_PAGES,
  searchFixture,
  searchRequest,
} from '../helpers/search-fixtures.js';

const fixture = searchFixture(SAMPLE_PAGES, {
  delivery: [
    { fileId: 'zh-shipping', relationType: 'links_to', weight: 1 },
    { fileId: 'ja-guide', relationType: 'shared_tag', weight: 0.5 },
  ],
  'zh-shipping': [{ fileId: 'zh-returns', relationType: 'links_to', weight: 1 }],
});
const engineWith = (options: Parameters<typeof rankerOf>[1]) => rankerOf(fixture, options);
const rejection = async (promise: Promise<unknown>): Promise<KnowledgeToolError> => {
  try {
    await promise;
  } catch (error) {
    return error as KnowledgeToolError;
  }
  throw new Error('expected a rejection');
};

describe('semantic stage', () => {
  it('is ready with a working embedder, computes vectors once in batches, and finds semantic-only pages', async () => {
    const embedder = goodEmbedder({ package: 'orders ship' });
    const engine = engineWith({ embedder });
    await Promise.all([engine.warm(), engine.warm()]);
    const afterWarm = embedder.calls;
    expect(embedder.texts).toBeGreaterThan(0);
    // "package" matches no word lexically but shares tokens with the delivery text once embedded.
    const { hits, semanticStatus } = await engine.rank(searchRequest('package'));
    expect(semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(embedder.calls).toBe(afterWarm + 1);
    expect(hits[0]).toMatchObject({
      fileId: 'delivery',
      evidenceTypes: ['semantic'],
      matchedFields: ['content'],
      sectionIds: ['timing'],
    });
    expect(hits[0]!.sourceExcerpt).toBe(
      'Orders ship within two working days. Parcels travel by courier.',
    );
  });

  it('is skipped in file mode even with an embedder', async () => {
    const embedder = goodEmbedder();
    const { semanticStatus } = await engineWith({ embedder }).rank(
      searchRequest('billing', { mode: 'file' }),
    );
    expect(semanticStatus).toEqual({ state: 'skipped', safeCode: 'SEMANTIC_NOT_USED' });
    expect(embedder.calls).toBe(0);
  });

  it('is unavailable when the embedder fails, and the lexical result stands', async () => {
    const engine = engineWith({ embedder: failingEmbedder });
    const lexical = await engineWith({}).rank(searchRequest('refunds card'));
    const { hits, semanticStatus } = await engine.rank(searchRequest('refunds card'));
    expect(semanticStatus).toEqual({ state: 'unavailable', safeCode: 'SEMANTIC_UNAVAILABLE' });
    expect(hits.map((h) => [h.fileId, h.score])).toEqual(
      lexical.hits.map((h) => [h.fileId, h.score]),
    );
    await expect(engine.warm()).rejects.toMatchObject({ code: 'SEARCH_UNAVAILABLE' });
  });

  it('times out after semanticTimeoutMs, and the lexical result stands', async () => {
    const engine = engineWith({ embedder: slowEmbedder(300), semanticTimeoutMs: 20 });
    const { hits, semanticStatus } = await engine.rank(searchRequest('refunds'));
    expect(semanticStatus).toEqual({ state: 'unavailable', safeCode: 'SEMANTIC_TIMEOUT' });
    expect(hits[0]?.fileId).toBe('billing');
  });

  it('rejects malformed vectors as unavailable', async () => {
    const engine = engineWith({
      embedder: { embed: async (texts) => texts.map(() => [Number.NaN]) },
    });
    expect((await engine.rank(searchRequest('refunds'))).semanticStatus.safeCode).toBe(
      'SEMANTIC_UNAVAILABLE',
    );
  });
});

describe('reciprocal rank fusion', () => {
  const lex = (page: number, score: number): LexicalFile => ({
    page,
    score,
    bestChunk: 0,
    bestTerms: [],
    chunks: 1,
    sectionChunks: [],
    fields: ['content'],
  });
  const sem = (page: number, similarity: number): SemanticFile => ({
    page,
    similarity,
    bestChunk: 0,
    sectionChunks: [],
  });

  it('adds 1 / (60 + rank) over both rankings', () => {
    const fused = fuseRanks(
      [lex(1, 9), lex(2, 5), lex(3, 1)],
      [sem(3, 0.9), sem(4, 0.8), sem(2, 0.1)],
    );
    expect(fused.map((c) => c.page)).toEqual([3, 2, 1, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 63 + 1 / 61);
    expect(fused[1]!.score).toBeCloseTo(1 / 62 + 1 / 63);
    expect(fused[2]!.score).toBeCloseTo(1 / 61);
    expect(fused[3]!.score).toBeCloseTo(1 / 62);
  });

  it('keeps lexical scores when there is no semantic ranking', () => {
    expect(fuseRanks([lex(1, 9), lex(2, 5)], undefined).map((c) => c.score)).toEqual([9, 5]);
  });
});

describe('reranker stage', () => {
  it('is skipped when not requested or without a reranker', async () => {
    const reranker = goodReranker(() => 1);
    expect((await engineWith({ reranker }).rank(searchRequest('refunds'))).rerankerStatus).toEqual({
      state: 'skipped',
      safeCode: 'RERANKER_DISABLED',
    });
    expect(
      (await engineWith({}).rank(searchRequest('refunds', { rerank: true }))).rerankerStatus,
    ).toEqual({ state: 'skipped', safeCode: 'RERANKER_DISABLED' });
    expect(reranker.seen).toEqual([]);
  });

  it('reorders the top rerankTopK by its scores, scores staying positive and descending', async () => {
    const query = 'days working';
    const before = (await engineWith({}).rank(searchRequest(query))).hits;
    expect(before.length).toBeGreaterThanOrEqual(2);
    const last = before.at(-1)!.fileId;
    const reranker = goodReranker((id) => (id === last ? 5 : -1));
    const { hits, rerankerStatus } = await engineWith({ reranker }).rank(
      searchRequest(query, { rerank: true }),
    );
    expect(rerankerStatus).toEqual({ state: 'ready', safeCode: null });
    expect(hits[0]!.fileId).toBe(last);
    expect(hits.map((h) => h.score)).toEqual(before.map((h) => h.score));
    expect(
      reranker.seen[0]!.text.startsWith(`${fixture.table.byId(before[0]!.fileId)!.title}\n\n`),
    ).toBe(true);

    const topOne = await engineWith({ reranker, rerankTopK: 1 }).rank(
      searchRequest(query, { rerank: true }),
    );
    expect(topOne.hits.map((h) => h.fileId)).toEqual(before.map((h) => h.fileId));
  });

  it('is unavailable on failure or time-out, and the fused order stands', async () => {
    const before = (await engineWith({}).rank(searchRequest('days working'))).hits.map(
      (h) => h.fileId,
    );
    const failed = await engineWith({ reranker: failingReranker }).rank(
      searchRequest('days working', { rerank: true }),
    );
    expect(failed.rerankerStatus).toEqual({
      state: 'unavailable',
      safeCode: 'RERANKER_UNAVAILABLE',
    });
    expect(failed.hits.map((h) => h.fileId)).toEqual(before);
    const slow = await engineWith({ reranker: slowReranker(300), rerankTimeoutMs: 20 }).rank(
      searchRequest('days working', { rerank: true }),
    );
    expect(slow.rerankerStatus).toEqual({ state: 'unavailable', safeCode: 'RERANKER_TIMEOUT' });
    expect(slow.hits.map((h) => h.fileId)).toEqual(before);
    const malformed = await engineWith({ reranker: { rerank: async () => [1] } }).rank(
      searchRequest('days working', { rerank: true }),
    );
    expect(malformed.rerankerStatus.safeCode).toBe('RERANKER_UNAVAILABLE');
  });
});

describe('graph mode', () => {
  it('adds related pages below the hit they were reached from, up to graphDepth hops', async () => {
    const engine = engineWith({});
    const one = await engine.rank(searchRequest('courier', { mode: 'graph' }));
    expect(one.hits.map((h) => h.fileId)).toEqual(['delivery', 'zh-shipping', 'ja-guide']);
    expect(one.hits[1]).toMatchObject({
      evidenceTypes: ['graph'],
      matchedFields: [],
      sectionIds: [],
    });
    expect(one.hits[1]!.sourceExcerpt).toBe(
      '# 配送说明 我们使用顺丰快递配送，通常两个工作日内送达。偏远地区可能需要更长时间。',
    );
    expect(one.hits[1]!.score).toBeCloseTo(one.hits[0]!.score * 0.5);
    expect(one.hits[2]!.score).toBeCloseTo(one.hits[0]!.score * 0.25);

    const two = await engine.rank(searchRequest('courier', { mode: 'graph', graphDepth: 2 }));
    expect(two.hits.map((h) => h.fileId)).toEqual([
      'delivery',
      'zh-shipping',
      'ja-guide',
      'zh-returns',
    ]);
    const fanOne = await engine.rank(searchRequest('courier', { mode: 'graph', graphFanout: 1 }));
    expect(fanOne.hits.map((h) => h.fileId)).toEqual(['delivery', 'zh-shipping']);
  });

  it('marks a page found by search and by a relationship with both evidence types', async () => {
    const { hits } = await engineWith({}).rank(searchRequest('courier 顺丰', { mode: 'graph' }));
    expect(hits.find((h) => h.fileId === 'zh-shipping')!.evidenceTypes).toEqual([
      'content',
      'metadata',
      'graph',
    ]);
  });
});

describe('graph mode on real relationships', () => {
  it('follows a Markdown link found by buildRelations', async () => {
    const linked = searchFixture([
      { id: 'a', text: '# Alpha\n\nThe aardvark page; see [beta](b.md).' },
      { id: 'b', text: '# Beta\n\nNothing in common.' },
    ]);
    const engine = rankerOf(linked);
    const { hits } = await engine.rank(searchRequest('aardvark', { mode: 'graph' }));
    expect(hits.map((h) => [h.fileId, h.evidenceTypes])).toEqual([
      ['a', ['content', 'metadata']],
      ['b', ['graph']],
    ]);
    expect(hits[1]!.sourceExcerpt).toBe('# Beta Nothing in common.');
  });
});

describe('errors stay errors', () => {
  it('rejects SEARCH_UNAVAILABLE when the index cannot be built, and retries later', async () => {
    let broken = true;
    const catalog = {
      ...fixture.catalog,
      document: (id: string) => {
        if (broken) throw new Error('storage offline');
        return fixture.catalog.document(id);
      },
    };
    const engine = rankerOf({ ...fixture, catalog });
    const error = await rejection(engine.rank(searchRequest('refunds')));
    expect(error).toMatchObject({ code: 'SEARCH_UNAVAILABLE', httpStatus: 503 });
    expect((await rejection(engine.warm())).code).toBe('SEARCH_UNAVAILABLE');
    broken = false;
    expect((await engine.rank(searchRequest('refunds'))).hits[0]?.fileId).toBe('billing');
  });

  it('rejects SEARCH_TIMEOUT over searchTimeoutMs, even when the embedder hangs', async () => {
    const engine = engineWith({
      embedder: slowEmbedder(500),
      semanticTimeoutMs: 400,
      searchTimeoutMs: 30,
    });
    const error = await rejection(engine.rank(searchRequest('refunds')));
    expect(error.code).toBe('SEARCH_TIMEOUT');
    expect(error.httpStatus).toBe(504);
  });

  it("rejects with the caller's reason, or TIMEOUT, when the signal aborts", async () => {
    const engine = engineWith({ embedder: slowEmbedder(500) });
    const controller = new AbortController();
    const pending = engine.rank(searchRequest('refunds', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    expect((await rejection(pending)).code).toBe('TIMEOUT');
    const aborted = AbortSignal.abort();
    expect(
      (await rejection(engineWith({}).rank(searchRequest('refunds', { signal: aborted })))).code,
    ).toBe('TIMEOUT');
  });
});
