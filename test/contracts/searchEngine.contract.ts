/**
 * The contract every search engine behind the search port must pass (`SearchEngine`, in
 * src/agent/search/port.ts), modelled on hono's `runTest({ newRouter })`: a test file calls
 * `runSearchEngineContract({ name, newEngine })` and the suite runs its cases on that engine.
 *
 * The knowledge is the contract's own: eleven small pages in English, Chinese and Japanese with
 * sections, explicit file fields, one link and no shared tags, compiled by the public API. The corpus
 * an engine is given is the one `createCatalogSource` hands its `search` factory, so an engine that
 * passes here is given exactly what it is given in a source. An engine that keeps its own store (a
 * database, a static bundle) gets the catalog and file options too, to publish or export first.
 *
 * @example
 * ```ts
 * runSearchEngineContract({ name: 'BM25F', newEngine: (corpus) => createBm25fEngine()(corpus) });
 * ```
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCatalogSource,
  type EvidenceType,
  type KnowledgeFileOptions,
  type MatchedField,
  type SearchAnswer,
  type SearchCorpus,
  type SearchEngine,
  type SearchHit,
  type SearchRequest,
} from '../../src/agent/index.js';
import {
  defineKnowledgeCatalog,
  type KnowledgeCatalog,
  parseKnowledgeDocument,
} from '../../src/index.js';

/** The knowledge an engine is built over: the catalog and the source's file options. */
export interface ContractKnowledge {
  readonly catalog: KnowledgeCatalog;
  readonly files: { readonly [documentId: string]: KnowledgeFileOptions };
}

/** What `runSearchEngineContract` needs: a name for the suite and a way to build a fresh engine. */
export interface SearchEngineContractOptions {
  readonly name: string;
  /** A fresh engine over `corpus` (the knowledge is given for engines that must publish it first). */
  readonly newEngine: (
    corpus: SearchCorpus,
    knowledge: ContractKnowledge,
  ) => SearchEngine | Promise<SearchEngine>;
}

interface ContractPage {
  readonly id: string;
  readonly file: KnowledgeFileOptions;
  readonly text: string;
}

const section = (id: string, text: string): string =>
  `<!-- agent-section:${id} -->\n${text}\n<!-- /agent-section:${id} -->`;

/** Pages of the contract; every file field is explicit, so `description` never comes from the text. */
const PAGES: readonly ContractPage[] = [
  {
    id: 'billing',
    file: {
      title: 'Billing and renewals',
      description: 'How invoices and notices work.',
      frontmatter: { tags: ['billing'] },
    },
    text: [
      '# Billing and renewals',
      'Invoices are issued on the first working day of each month under the payment policy.',
      section(
        'notices',
        '## Renewal notices\n\nRenewal notices are sent thirty days before the subscription ends.',
      ),
      section(
        'refunds',
        '## Refunds\n\nRefunds are paid back to the original card within ten days.',
      ),
    ].join('\n\n'),
  },
  {
    id: 'animals',
    file: {
      title: 'Savanna animals',
      description: 'Large mammals of the grasslands.',
      frontmatter: { tags: ['wildlife'] },
    },
    text: [
      '# Savanna animals',
      'The grasslands hold many large mammals, and the park policy protects them.',
      section('lions', '## Lions\n\nLions rest in the shade during the hottest hours.'),
      section(
        'stripes',
        '## Stripes\n\nEvery   zebra has its own pattern of stripes, like a fingerprint.',
      ),
      'Plan a visit with the [safari guide](./safari.md).',
    ].join('\n\n'),
  },
  {
    id: 'safari',
    file: {
      title: 'Safari guide',
      description: 'Booking a guided drive.',
      frontmatter: { tags: ['travel'] },
    },
    text: '# Safari guide\n\nGuided drives leave at dawn; booking follows the travel policy.',
  },
  {
    id: 'warranty',
    file: {
      title: 'Warranty terms',
      description: 'Repairs and replacements.',
      frontmatter: { tags: ['support'] },
    },
    text: '# Repairs\n\nBroken devices are repaired or replaced within two weeks, as the repair policy says.',
  },
  {
    id: 'delivery',
    file: {
      title: 'Delivery',
      description: 'Parcels and couriers.',
      frontmatter: { tags: ['shipping'] },
    },
    text: section(
      'timing',
      'Orders ship within two working days. Parcels travel by courier under the shipping policy.',
    ),
  },
  {
    id: 'privacy',
    file: {
      title: 'Privacy',
      description: 'What is stored.',
      frontmatter: { tags: ['legal'] },
    },
    text: '# Privacy\n\nThe privacy policy says which personal data is stored, and for how long.',
  },
  {
    id: 'security',
    file: {
      title: 'Security',
      description: 'Keys and passwords.',
      frontmatter: { tags: ['ops'] },
    },
    text: '# Security\n\nThe password policy asks for long passphrases; the key policy rotates keys yearly.',
  },
  {
    id: 'zh-returns',
    file: { title: '退货政策', description: '售后服务说明。', frontmatter: { tags: ['售后'] } },
    text: [
      '# 退货政策',
      section('period', '自签收之日起三十天内，商品可以无理由退货。退款将原路返回到您的支付账户。'),
      section('process', '请在订单页面点击申请退货，然后等待客服审核。'),
    ].join('\n\n'),
  },
  {
    id: 'zh-shipping',
    file: { title: '配送说明', description: '快递与时效。', frontmatter: { tags: ['配送'] } },
    text: '# 配送说明\n\n我们使用顺丰快递配送，通常两个工作日内送达。偏远地区可能需要更长时间。',
  },
  {
    id: 'ja-guide',
    file: { title: 'ご利用ガイド', description: '始め方。', frontmatter: { tags: ['ガイド'] } },
    text: '# ご利用ガイド\n\nアカウントを作成してから、プランを選んでください。',
  },
  {
    id: 'empty',
    file: { title: 'Placeholder', description: 'Nothing yet.', frontmatter: { tags: ['draft'] } },
    text: '',
  },
];

/** The contract's knowledge, compiled. */
export function contractKnowledge(): ContractKnowledge {
  const catalog = defineKnowledgeCatalog(
    PAGES.map((p) => parseKnowledgeDocument({ id: p.id, revision: 'contract-1', text: p.text })),
  );
  return { catalog, files: Object.fromEntries(PAGES.map((p) => [p.id, p.file])) };
}

/** The corpus `createCatalogSource` gives its engine over `knowledge`. */
export function contractCorpus(knowledge: ContractKnowledge): SearchCorpus {
  let corpus: SearchCorpus | undefined;
  createCatalogSource(knowledge.catalog, {
    files: knowledge.files,
    search: (given) => {
      corpus = given;
      return { search: () => Promise.reject(new Error('not used')) };
    },
  });
  return corpus!;
}

const FILE_FIELDS: readonly MatchedField[] = ['title', 'path', 'description', 'tags'];
const FIELD_ORDER: readonly MatchedField[] = [...FILE_FIELDS, 'content'];
const EVIDENCE_ORDER: readonly EvidenceType[] = ['content', 'metadata', 'semantic', 'graph'];

/** A request with the spec's defaults. */
function request(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
  return {
    query,
    mode: 'hybrid',
    graphDepth: 1,
    graphFanout: 10,
    rerank: false,
    limit: 50,
    continuation: undefined,
    signal: undefined,
    ...extra,
  };
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** An excerpt without its cut marks. */
const uncut = (excerpt: string): string => excerpt.replace(/^…/, '').replace(/…$/, '').trim();

/** Whether `list` is in the order of `order` with no repeats. */
function inOrder<T>(list: readonly T[], order: readonly T[]): boolean {
  let last = -1;
  for (const item of list) {
    const at = order.indexOf(item);
    if (at <= last) return false;
    last = at;
  }
  return true;
}

/** Every page of a ranking, following continuations; checks each page's size on the way. */
async function walk(engine: SearchEngine, base: SearchRequest): Promise<SearchAnswer[]> {
  const pages: SearchAnswer[] = [];
  let continuation: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await engine.search({ ...base, continuation });
    expect(page.hits.length).toBeLessThanOrEqual(base.limit);
    pages.push(page);
    if (page.continuation === null) return pages;
    expect(page.hits.length, 'a page with a continuation has hits').toBeGreaterThan(0);
    continuation = page.continuation;
  }
  throw new Error('the continuations never ended');
}

/**
 * Run the search port's contract on one engine.
 *
 * @param options - the suite's name and the engine factory.
 */
export function runSearchEngineContract({ name, newEngine }: SearchEngineContractOptions): void {
  describe(`search engine contract: ${name}`, () => {
    const knowledge = contractKnowledge();
    const corpus = contractCorpus(knowledge);
    let built: Promise<SearchEngine> | undefined;
    const engine = (): Promise<SearchEngine> =>
      (built ??= Promise.resolve(newEngine(corpus, knowledge)));
    const search = async (query: string, extra: Partial<SearchRequest> = {}) =>
      (await engine()).search(request(query, extra));
    const textOf = (fileId: string): string =>
      corpus
        .chunksOf(fileId)
        .map((c) => c.text)
        .join('\n');

    it('warms, when it can, without failing', async () => {
      const e = await engine();
      if (e.warm !== undefined) await expect(e.warm()).resolves.toBeUndefined();
    });

    it('ranks a page holding the query word above every page without it', async () => {
      const { hits } = await search('zebra');
      expect(hits[0]?.fileId).toBe('animals');
      const holds = (hit: SearchHit) => /zebra/i.test(textOf(hit.fileId));
      const firstWithout = hits.findIndex((hit) => !holds(hit));
      if (firstWithout !== -1) expect(hits.slice(firstWithout).some(holds)).toBe(false);
      expect((await search('refunds card')).hits[0]?.fileId).toBe('billing');
    });

    it('answers pages of the corpus, each once, with positive scores in descending order', async () => {
      const pageIds = new Set(corpus.pages.map((p) => p.fileId));
      for (const query of ['policy', 'renewal notices', '退货', 'guide']) {
        const { hits } = await search(query);
        expect(hits.length, query).toBeGreaterThan(0);
        expect(new Set(hits.map((h) => h.fileId)).size).toBe(hits.length);
        hits.forEach((hit, i) => {
          expect(pageIds.has(hit.fileId), hit.fileId).toBe(true);
          expect(Number.isFinite(hit.score) && hit.score > 0).toBe(true);
          if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]!.score);
          expect(inOrder(hit.matchedFields, FIELD_ORDER), hit.fileId).toBe(true);
          expect(hit.evidenceTypes.length).toBeGreaterThan(0);
          expect(inOrder(hit.evidenceTypes, EVIDENCE_ORDER), hit.fileId).toBe(true);
        });
      }
    });

    it('honours filters: the unfiltered ranking restricted to the pages kept, same scores; a filter keeping none says which', async () => {
      const byId = new Map(corpus.pages.map((p) => [p.fileId, p]));
      const someTag = corpus.pages.find((p) => p.tags.length > 0)!.tags[0]!;
      const prefix = corpus.pages[0]!.path.slice(0, corpus.pages[0]!.path.lastIndexOf('/') + 1);
      const filters = [
        { pathPrefix: [prefix], tags: null, locale: null },
        { pathPrefix: null, tags: [someTag], locale: null },
        { pathPrefix: [corpus.pages[1]!.path, corpus.pages[2]!.path], tags: null, locale: null },
      ];
      for (const query of ['policy', 'renewal notices', '退货', 'guide']) {
        const all = (await search(query)).hits;
        for (const filter of filters) {
          const keeps = (fileId: string): boolean => {
            const page = byId.get(fileId)!;
            return (
              (filter.pathPrefix === null ||
                filter.pathPrefix.some((x) => page.path.startsWith(x))) &&
              (filter.tags === null || filter.tags.every((t) => page.tags.includes(t)))
            );
          };
          const scoped = (await search(query, { filter })).hits;
          expect(
            scoped.map((h) => [h.fileId, h.score]),
            `${query} ${JSON.stringify(filter)}`,
          ).toEqual(all.filter((h) => keeps(h.fileId)).map((h) => [h.fileId, h.score]));
        }
      }
      const none = await search('policy', {
        filter: { pathPrefix: ['pages/no-such-folder/'], tags: null, locale: null },
      });
      expect(none.hits).toEqual([]);
      expect(none.continuation).toBeNull();
      if (none.emptiedBy !== undefined) expect(none.emptiedBy).toBe('pathPrefix');
      const together = await search('policy', {
        filter: { pathPrefix: null, tags: [someTag], locale: 'no-such-locale' },
      });
      expect(together.hits).toEqual([]);
      if (together.emptiedBy !== undefined) expect(together.emptiedBy).toBe('locale');
    });

    it('finds nothing for words no page holds (but what semantic ranking finds), as an answer', async () => {
      const answer = await search('qwxzv plokjuh');
      if (answer.semanticStatus.state !== 'ready') expect(answer.hits).toEqual([]);
      for (const hit of answer.hits) expect(hit.evidenceTypes).toEqual(['semantic']);
      expect((await search('qwxzv plokjuh', { mode: 'file' })).hits).toEqual([]);
    });

    it('pages: pages concatenate to the unpaged ranking, with no repeat, no gap and at most limit each', async () => {
      const e = await engine();
      for (const query of ['policy', 'the', '退货 配送 プラン']) {
        const whole = await e.search(request(query));
        expect(whole.continuation, query).toBeNull();
        expect(whole.hits.length, query).toBeGreaterThanOrEqual(3);
        const order = whole.hits.map((h) => h.fileId);
        for (const limit of [1, 2, 3, whole.hits.length]) {
          const pages = await walk(e, request(query, { limit }));
          const paged = pages.flatMap((p) => p.hits.map((h) => h.fileId));
          expect(paged, `${query}, limit ${limit}`).toEqual(order);
          // Every page but the last is full.
          for (const page of pages.slice(0, -1)) expect(page.hits).toHaveLength(limit);
          // The same scores and statuses page by page.
          expect(pages.flatMap((p) => p.hits.map((h) => h.score))).toEqual(
            whole.hits.map((h) => h.score),
          );
          for (const page of pages) {
            expect(page.semanticStatus).toEqual(whole.semanticStatus);
            expect(page.rerankerStatus).toEqual(whole.rerankerStatus);
          }
        }
      }
    });

    it("pages any query of the corpus's words at any limit into its unpaged ranking (property)", async () => {
      const e = await engine();
      const words = [
        ...new Set(
          corpus.pages.flatMap((p) =>
            corpus.chunksOf(p.fileId).flatMap((c) => c.text.split(/[\s,.;:!?#()[\]]+/)),
          ),
        ),
      ].filter((w) => w.length > 1);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 1, max: 50 }),
          fc.constantFrom('hybrid' as const, 'file' as const, 'graph' as const),
          async (terms, limit, mode) => {
            const query = terms.join(' ');
            const whole = await e.search(request(query, { mode }));
            const pages = await walk(e, request(query, { mode, limit }));
            expect(pages.flatMap((p) => p.hits.map((h) => h.fileId))).toEqual(
              whole.hits.map((h) => h.fileId),
            );
          },
        ),
        { numRuns: 40 },
      );
    });

    it('honours a continuation: the same one answers the same page, again and out of order', async () => {
      const e = await engine();
      const first = await e.search(request('policy', { limit: 2 }));
      const c1 = first.continuation!;
      expect(typeof c1).toBe('string');
      const second = await e.search(request('policy', { limit: 2, continuation: c1 }));
      const c2 = second.continuation!;
      const third = await e.search(request('policy', { limit: 2, continuation: c2 }));
      const again = await e.search(request('policy', { limit: 2, continuation: c1 }));
      expect(again.hits.map((h) => h.fileId)).toEqual(second.hits.map((h) => h.fileId));
      expect(again.continuation).toBe(c2);
      const seen = [...first.hits, ...second.hits, ...third.hits].map((h) => h.fileId);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('answers no hits for a continuation it did not issue', async () => {
      for (const continuation of ['not a continuation', '%%%', '999999']) {
        const answer = await search('policy', { limit: 2, continuation });
        expect(answer.hits, continuation).toEqual([]);
        expect(answer.continuation).toBeNull();
      }
    });

    it("mode 'file' searches the file fields only: metadata evidence, no sections", async () => {
      // "zebra" is only in a section's text.
      expect((await search('zebra', { mode: 'file' })).hits).toEqual([]);
      const { hits, semanticStatus } = await search('warranty', { mode: 'file' });
      expect(hits[0]?.fileId).toBe('warranty');
      for (const hit of hits) {
        expect(hit.evidenceTypes).toEqual(['metadata']);
        expect(hit.matchedFields.length).toBeGreaterThan(0);
        expect(hit.matchedFields.every((f) => FILE_FIELDS.includes(f))).toBe(true);
        expect(hit.sectionIds).toEqual([]);
      }
      expect(semanticStatus).toEqual({ state: 'skipped', safeCode: 'SEMANTIC_NOT_USED' });
      // The same page found by content in hybrid mode says so.
      const hybrid = (await search('zebra')).hits[0]!;
      expect(hybrid.matchedFields).toContain('content');
      expect(hybrid.evidenceTypes).toContain('content');
    });

    it('says which optional stages ran, with the spec’s state and code pairs', async () => {
      const allowed: Record<string, readonly (string | null)[]> = {
        ready: [null],
        disabled: ['SEMANTIC_DISABLED'],
        unavailable: ['SEMANTIC_UNAVAILABLE', 'SEMANTIC_TIMEOUT'],
      };
      for (const mode of ['hybrid', 'graph'] as const) {
        const { semanticStatus, rerankerStatus } = await search('policy', { mode });
        expect(allowed[semanticStatus.state], mode).toContain(semanticStatus.safeCode);
        expect(rerankerStatus).toEqual({ state: 'skipped', safeCode: 'RERANKER_DISABLED' });
      }
      const reranked = (await search('policy', { rerank: true })).rerankerStatus;
      expect(
        (reranked.state === 'ready' && reranked.safeCode === null) ||
          (reranked.state === 'skipped' && reranked.safeCode === 'RERANKER_DISABLED') ||
          (reranked.state === 'unavailable' &&
            ['RERANKER_UNAVAILABLE', 'RERANKER_TIMEOUT'].includes(reranked.safeCode!)),
      ).toBe(true);
    });

    it('finds Chinese and Japanese text by its words, without spaces', async () => {
      expect((await search('退款多久返回支付账户？')).hits[0]?.fileId).toBe('zh-returns');
      expect((await search('顺丰快递')).hits[0]?.fileId).toBe('zh-shipping');
      expect((await search('プランを選ぶ')).hits[0]?.fileId).toBe('ja-guide');
      const { hits } = await search('无理由退货');
      expect(hits[0]?.fileId).toBe('zh-returns');
      expect(hits[0]?.sectionIds[0]).toBe('period');
      expect(uncut(hits[0]!.sourceExcerpt)).toContain('无理由退货');
    });

    it("excerpts the page's own words around the match", async () => {
      const hit = (await search('zebra')).hits[0]!;
      expect(hit.sourceExcerpt.toLowerCase()).toContain('zebra');
      // Whitespace collapsed, the words as the page has them.
      expect(hit.sourceExcerpt).not.toMatch(/\s{2}/);
      const chunks = corpus.chunksOf('animals').map((c) => collapse(c.text));
      expect(chunks.some((c) => c.includes(uncut(hit.sourceExcerpt)))).toBe(true);
      // A page found by its file fields only shows words of its own text (or nothing, without text).
      const meta = (await search('warranty', { mode: 'file' })).hits[0]!;
      const words = collapse(textOf('warranty')).split(' ');
      for (const word of uncut(meta.sourceExcerpt).split(' ')) expect(words).toContain(word);
      expect(uncut(meta.sourceExcerpt).length).toBeGreaterThan(0);
      const empty = (await search('placeholder', { mode: 'file' })).hits.find(
        (h) => h.fileId === 'empty',
      );
      expect(empty?.sourceExcerpt).toBe('');
    });

    it('names the sections that matched, best first, and only sections of the page', async () => {
      for (const [query, fileId, first] of [
        ['zebra stripes', 'animals', 'stripes'],
        ['refunds original card', 'billing', 'refunds'],
        ['renewal notices sent', 'billing', 'notices'],
      ] as const) {
        const hit = (await search(query)).hits.find((h) => h.fileId === fileId)!;
        const sections = corpus
          .chunksOf(fileId)
          .map((c) => c.sectionId)
          .filter((s) => s !== null);
        expect(hit.sectionIds[0], query).toBe(first);
        expect(hit.sectionIds.length).toBeLessThanOrEqual(3);
        expect(new Set(hit.sectionIds).size).toBe(hit.sectionIds.length);
        for (const id of hit.sectionIds) expect(sections).toContain(id);
      }
      // A page without sections names none.
      expect((await search('顺丰快递')).hits[0]?.sectionIds).toEqual([]);
    });

    it("mode 'graph' adds related pages below the hit they were reached from", async () => {
      expect(corpus.relationsOf('animals').map((r) => r.fileId)).toContain('safari');
      const hybrid = (await search('zebra')).hits.map((h) => h.fileId);
      const { hits } = await search('zebra', { mode: 'graph' });
      const from = hits.findIndex((h) => h.fileId === 'animals');
      const reached = hits.findIndex((h) => h.fileId === 'safari');
      expect(from).toBe(0);
      expect(reached).toBeGreaterThan(from);
      expect(hits[reached]!.evidenceTypes).toContain('graph');
      expect(hits[reached]!.score).toBeLessThan(hits[from]!.score);
      // Found by the relationship alone (semantic ranking may find it too).
      if (!hybrid.includes('safari')) {
        expect(hits[reached]!.evidenceTypes).toEqual(['graph']);
        expect(hits[reached]!.matchedFields).toEqual([]);
      }
    });

    it('rejects when its signal is aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('caller gave up'));
      await expect(search('policy', { signal: controller.signal })).rejects.toBeDefined();
    });

    it('serves search_files through createCatalogSource: cursors carry its continuation', async () => {
      const e = await engine();
      const source = createCatalogSource(knowledge.catalog, {
        files: knowledge.files,
        search: () => e,
      });
      const whole = await source.searchFiles({ query: 'policy', limit: 50 });
      expect(whole.nextCursor).toBeNull();
      const seen: string[] = [];
      let page = await source.searchFiles({ query: 'policy', limit: 2 });
      for (let guard = 0; guard < 50; guard++) {
        seen.push(...page.items.map((i) => i.fileId));
        if (page.nextCursor === null) break;
        page = await source.searchFiles({ query: 'policy', limit: 2, cursor: page.nextCursor });
      }
      expect(seen).toEqual(whole.items.map((i) => i.fileId));
      expect(whole.items[0]).toMatchObject({ path: expect.stringMatching(/^pages\//) });
      const none = await source.searchFiles({ query: 'qwxzv', mode: 'file' });
      expect(none).toMatchObject({ searchStatus: 'no_candidates', items: [], nextCursor: null });
    });
  });
}
