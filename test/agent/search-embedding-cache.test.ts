/**
 * The BM25F engine's embedding cache: a second build or a new revision embeds only the chunks
 * whose text changed; a cache's failures leave search working.
 */
import { describe, expect, it } from 'vitest';
import {
  createCatalogSource,
  createBm25fEngine,
  type KnowledgeEmbedder,
  type KnowledgeEmbeddingCache,
} from '../../src/agent/index.js';
import { embeddingKey } from '../../src/agent/search/index.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { bagOfTokens } from '../helpers/search-fakes.js';
import { SAMPLE_PAGES, type TestPage } from '../helpers/search-fixtures.js';

/** An embedder that records every text it is asked to embed, call by call. */
function recordingEmbedder(): KnowledgeEmbedder & { calls: string[][]; texts: () => string[] } {
  const calls: string[][] = [];
  return {
    calls,
    texts: () => calls.flat(),
    async embed(texts) {
      calls.push([...texts]);
      return texts.map(bagOfTokens);
    },
  };
}

function sourceOf(
  pages: readonly TestPage[],
  options: Parameters<typeof createBm25fEngine>[0],
  revision = 'r1',
) {
  const catalog = defineKnowledgeCatalog(
    pages.map((p) => parseKnowledgeDocument({ id: p.id, revision, text: p.text })),
  );
  return createCatalogSource(catalog, { search: createBm25fEngine(options) });
}

/** SAMPLE_PAGES with the billing page's refunds section reworded. */
const REVISED = SAMPLE_PAGES.map((p) =>
  p.id === 'billing'
    ? { ...p, text: p.text.replace('within ten days', 'within five working days') }
    : p,
);

describe('embeddingCache', () => {
  it('a second build embeds nothing, and a new revision with one changed section embeds only it', async () => {
    const cache = new Map<string, Float32Array>();
    const first = recordingEmbedder();
    await sourceOf(SAMPLE_PAGES, { embedder: first, embeddingCache: cache }).warm!();
    const chunkTexts = first.texts();
    expect(chunkTexts.length).toBeGreaterThan(5);
    expect(cache.size).toBe(new Set(chunkTexts).size);
    for (const text of chunkTexts)
      expect(cache.get(await embeddingKey(text))).toBeInstanceOf(Float32Array);

    // A restart over the same pages: every vector comes from the cache.
    const second = recordingEmbedder();
    const again = sourceOf(SAMPLE_PAGES, { embedder: second, embeddingCache: cache });
    await again.warm!();
    expect(second.calls).toEqual([]);
    const found = await again.searchFiles({ query: 'package courier' });
    expect(found.semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(second.calls).toEqual([['package courier']]); // the query only

    // A new revision with one section reworded: only that section's text is embedded.
    const third = recordingEmbedder();
    await sourceOf(REVISED, { embedder: third, embeddingCache: cache }, 'r2').warm!();
    expect(third.texts()).toEqual([
      expect.stringContaining(
        'Refunds are paid back to the original card within five working days.',
      ),
    ]);
    expect(cache.size).toBe(new Set(chunkTexts).size + 1);
  });

  it('ranks the same with cached vectors as with fresh ones', async () => {
    const cache = new Map<string, Float32Array>();
    const fresh = sourceOf(SAMPLE_PAGES, { embedder: recordingEmbedder(), embeddingCache: cache });
    const query = { query: 'parcel courier 退款', mode: 'hybrid' } as const;
    const before = await fresh.searchFiles(query);
    const cached = sourceOf(SAMPLE_PAGES, { embedder: recordingEmbedder(), embeddingCache: cache });
    const after = await cached.searchFiles(query);
    expect(after.items.map((i) => [i.fileId, i.score, i.evidenceTypes])).toEqual(
      before.items.map((i) => [i.fileId, i.score, i.evidenceTypes]),
    );
  });

  it('embeds each distinct text once, even without a cache', async () => {
    const twin = { id: 'twin', text: SAMPLE_PAGES.find((p) => p.id === 'delivery')!.text };
    const embedder = recordingEmbedder();
    await sourceOf([...SAMPLE_PAGES, twin], { embedder }).warm!();
    const texts = embedder.texts();
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('takes an async store, and flushes it once after a build that embedded something', async () => {
    const data = new Map<string, Float32Array>();
    let flushes = 0;
    const store: KnowledgeEmbeddingCache = {
      get: async (key) => data.get(key),
      set: async (key, vector) => void data.set(key, vector),
      flush: async () => void flushes++,
    };
    await sourceOf(SAMPLE_PAGES, { embedder: recordingEmbedder(), embeddingCache: store }).warm!();
    expect(flushes).toBe(1);
    expect(data.size).toBeGreaterThan(5);
    const embedder = recordingEmbedder();
    await sourceOf(SAMPLE_PAGES, { embedder, embeddingCache: store }).warm!();
    expect(embedder.calls).toEqual([]);
    expect(flushes).toBe(1); // nothing new, nothing to save
  });

  it('embeds again a cached vector of another length (another model) or with a non-finite number', async () => {
    const cache = new Map<string, Float32Array>();
    await sourceOf(SAMPLE_PAGES, { embedder: recordingEmbedder(), embeddingCache: cache }).warm!();
    const keys = [...cache.keys()];
    cache.set(keys[0]!, new Float32Array([1, 2, 3]));
    cache.set(keys[1]!, new Float32Array(cache.get(keys[1]!)!.length).fill(Number.NaN));
    const embedder = recordingEmbedder();
    const source = sourceOf(SAMPLE_PAGES, { embedder, embeddingCache: cache });
    await source.warm!();
    expect(embedder.texts()).toHaveLength(2);
    expect(cache.get(keys[0]!)!.length).toBe(64);
    expect(Number.isFinite(cache.get(keys[1]!)![0])).toBe(true);
    const { semanticStatus } = await source.searchFiles({ query: 'courier' });
    expect(semanticStatus.state).toBe('ready');
  });

  it('a cache full of another model’s vectors: one search is unavailable, then they are embedded again', async () => {
    const cache = new Map<string, Float32Array>();
    const first = recordingEmbedder();
    await sourceOf(SAMPLE_PAGES, { embedder: first, embeddingCache: cache }).warm!();
    // Another model: 32 numbers a vector instead of 64.
    const texts: string[] = [];
    const other: KnowledgeEmbedder = {
      async embed(batch) {
        texts.push(...batch);
        return batch.map((t) => bagOfTokens(t).slice(0, 32));
      },
    };
    const source = sourceOf(SAMPLE_PAGES, { embedder: other, embeddingCache: cache });
    await source.warm!();
    expect(texts).toEqual([]); // every chunk's vector came from the cache
    const miss = await source.searchFiles({ query: 'courier' });
    expect(miss.semanticStatus).toEqual({ state: 'unavailable', safeCode: 'SEMANTIC_UNAVAILABLE' });
    expect(miss.items[0]?.fileId).toBe('delivery');
    const hit = await source.searchFiles({ query: 'courier' });
    expect(hit.semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(new Set(texts.slice(1, -1))).toEqual(new Set(first.texts()));
    for (const vector of cache.values()) expect(vector.length).toBe(32);
  });

  it('a cache whose flush fails: search stays semantic, warm() rejects naming the cause, and the next warm() saves', async () => {
    let broken = true;
    let saved = 0;
    const store: KnowledgeEmbeddingCache = Object.assign(new Map<string, Float32Array>(), {
      async flush() {
        if (broken) throw new Error('disk full');
        saved++;
      },
    });
    const source = sourceOf(SAMPLE_PAGES, { embedder: recordingEmbedder(), embeddingCache: store });
    const error = await expectKnowledgeError(source.warm!(), {
      code: 'SEARCH_UNAVAILABLE',
      message: /embedding cache could not save.*disk full/,
    });
    expect((error.cause as Error).message).toBe('disk full');
    const { semanticStatus } = await source.searchFiles({ query: 'courier' });
    expect(semanticStatus).toEqual({ state: 'ready', safeCode: null });
    broken = false;
    await source.warm!();
    expect(saved).toBe(1);
    await source.warm!();
    expect(saved).toBe(1); // saved: nothing more to flush
  });

  it('a cache whose get throws makes semantic search unavailable, and the lexical result stands', async () => {
    const store: KnowledgeEmbeddingCache = {
      get: () => {
        throw new Error('store down');
      },
      set: () => undefined,
    };
    const source = sourceOf(SAMPLE_PAGES, { embedder: recordingEmbedder(), embeddingCache: store });
    const result = await source.searchFiles({ query: 'refunds' });
    expect(result.semanticStatus).toEqual({
      state: 'unavailable',
      safeCode: 'SEMANTIC_UNAVAILABLE',
    });
    expect(result.items[0]?.fileId).toBe('billing');
  });

  it('refuses a cache without get and set, and a cache without an embedder', () => {
    expectKnowledgeError(
      () => createBm25fEngine({ embedder: recordingEmbedder(), embeddingCache: {} as never }),
      {
        code: 'INVALID_INPUT',
        path: ['options', 'embeddingCache'],
        message:
          'createBm25fEngine: `options.embeddingCache` must be an object with `get` and `set` methods, such as a `Map`.',
      },
    );
    expectKnowledgeError(() => createBm25fEngine({ embeddingCache: new Map() }), {
      code: 'INVALID_INPUT',
      path: ['options', 'embeddingCache'],
      message: expect.stringMatching(
        /^createBm25fEngine: `embeddingCache` keeps the vectors of an `embedder`/,
      ),
    });
  });

  it('is an engine option, refused at the top level of createCatalogSource', () => {
    const catalog = defineKnowledgeCatalog([
      parseKnowledgeDocument({ id: 'a', revision: 'r', text: '# A\n' }),
    ]);
    expectKnowledgeError(
      () => createCatalogSource(catalog, { embeddingCache: new Map() } as never),
      {
        code: 'INVALID_INPUT',
        path: ['options', 'embeddingCache'],
        message: expect.stringMatching(
          /unknown option `embeddingCache`\. .*`search: createBm25fEngine\(\{ embeddingCache \}\)`/,
        ),
      },
    );
  });
});
