import { describe, expect, it } from 'vitest';
import {
  buildChunks,
  buildLexicalIndex,
  chunkFrequency,
  encodeTerm,
  lexicalSearch,
  MAX_QUERY_TERMS,
  planQuery,
} from '../../src/agent/search/index.js';
import {
  corpusOf,
  rankerOf,
  SAMPLE_PAGES,
  searchFixture,
  searchRequest,
} from './helpers/search-fixtures.js';

const fixture = searchFixture(SAMPLE_PAGES);
const engine = rankerOf(fixture);

describe('lexical search', () => {
  it('finds the English page and section, with the source words around the term', async () => {
    const { hits, semanticStatus, rerankerStatus } = await engine.rank(
      searchRequest('When are renewal notices sent?'),
    );
    expect(hits[0]).toMatchObject({
      fileId: 'billing',
      matchedFields: ['title', 'description', 'tags', 'content'],
      evidenceTypes: ['content', 'metadata'],
    });
    // "are" also occurs in the refunds section: the best section comes first.
    expect(hits[0]!.sectionIds).toEqual(['notices', 'refunds']);
    expect(hits[0]!.sourceExcerpt).toContain('Renewal notices are sent thirty days');
    expect(semanticStatus).toEqual({ state: 'disabled', safeCode: 'SEMANTIC_DISABLED' });
    expect(rerankerStatus).toEqual({ state: 'skipped', safeCode: 'RERANKER_DISABLED' });
  });

  it('finds the Chinese page by a reworded question', async () => {
    const { hits } = await engine.rank(searchRequest('退款多久返回支付账户？'));
    // The description is the page's first paragraph, so it matches too.
    expect(hits[0]).toMatchObject({
      fileId: 'zh-returns',
      matchedFields: ['description', 'content'],
      evidenceTypes: ['content', 'metadata'],
      sectionIds: ['period'],
    });
    expect(hits[0]!.sourceExcerpt).toBe(
      '自签收之日起三十天内，商品可以无理由退货。退款将原路返回到您的支付账户。',
    );
  });

  it('finds Japanese text by kana bigrams', async () => {
    const { hits } = await engine.rank(searchRequest('プランを選ぶ'));
    expect(hits[0]?.fileId).toBe('ja-guide');
    expect(hits[0]?.sectionIds).toEqual([]);
  });

  it('matches a Latin word of 5+ letters with one edit, and the last word as a prefix', async () => {
    expect((await engine.rank(searchRequest('refuns'))).hits[0]?.fileId).toBe('billing');
    expect((await engine.rank(searchRequest('cour'))).hits[0]?.fileId).toBe('delivery');
    // No fuzzy match below 5 letters, no prefix on a word that is not last.
    expect((await engine.rank(searchRequest('shap'))).hits).toEqual([]);
    expect((await engine.rank(searchRequest('cour zzzz'))).hits).toEqual([]);
  });

  it('searches file fields only in file mode, excerpting from the page start', async () => {
    const { hits, semanticStatus } = await engine.rank(searchRequest('shipping', { mode: 'file' }));
    expect(hits.map((h) => h.fileId)).toEqual(['delivery', 'zh-shipping']);
    expect(hits[0]).toMatchObject({
      matchedFields: ['tags'],
      evidenceTypes: ['metadata'],
      sectionIds: [],
    });
    expect(hits[1]).toMatchObject({
      matchedFields: ['path'],
      evidenceTypes: ['metadata'],
      sectionIds: [],
    });
    expect(hits[0]!.sourceExcerpt).toBe(
      '# Delivery Orders ship within two working days. Parcels travel by courier.',
    );
    expect(semanticStatus).toEqual({ state: 'skipped', safeCode: 'SEMANTIC_NOT_USED' });
    expect(
      (await engine.rank(searchRequest('courier', { mode: 'file' }))).hits[0]?.matchedFields,
    ).toEqual(['description']);
    expect((await engine.rank(searchRequest('grazes', { mode: 'file' }))).hits).toEqual([]);
  });

  it('returns no hits, not an error, when nothing matches', async () => {
    expect((await engine.rank(searchRequest('xylophone'))).hits).toEqual([]);
  });

  it('gives one item per file, scores positive and descending', async () => {
    const { hits } = await engine.rank(searchRequest('the days 天 of working 工作日'));
    expect(new Set(hits.map((h) => h.fileId)).size).toBe(hits.length);
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 0; i < hits.length; i++) {
      expect(hits[i]!.score).toBeGreaterThan(0);
      if (i > 0) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    }
  });

  it('keeps the excerpt within excerptChars and cuts long sections with marks', async () => {
    const long = searchFixture([
      {
        id: 'long',
        text: `<!-- agent-section:s -->\n${'Filler words here. '.repeat(40)}The needle sits here. ${'More filler text. '.repeat(40)}\n<!-- /agent-section:s -->`,
      },
    ]);
    const small = rankerOf(long, {
      excerptChars: 60,
    });
    const [hit] = (await small.rank(searchRequest('needle'))).hits;
    expect([...hit!.sourceExcerpt].length).toBeLessThanOrEqual(60);
    expect(hit!.sourceExcerpt).toMatch(/^….*needle.*…$/);
  });

  it('excerpts from the first whole occurrence in a long section, past a longer word at the head', async () => {
    const filler = 'alpha beta gamma delta. '.repeat(800);
    const text = `<!-- agent-section:big -->\n${filler.slice(0, 1018)}zebrafish ${filler}Here a zebra   grazes.\n\n${filler}\n<!-- /agent-section:big -->`;
    const big = searchFixture([{ id: 'big', text }]);
    const [hit] = (await rankerOf(big).rank(searchRequest('zebra'))).hits;
    expect(hit!.sourceExcerpt).toMatch(/^….*Here a zebra grazes\..*…$/);
    expect([...hit!.sourceExcerpt].length).toBeLessThanOrEqual(240);
    expect(text.replace(/\s+/g, ' ')).toContain(hit!.sourceExcerpt.slice(1, -1));
  });

  it("reads a term's chunk frequency from MiniSearch's index (pinned: 7.2.0), equal to counting matches", async () => {
    const chunks = buildChunks(corpusOf(fixture));
    const index = await buildLexicalIndex(chunks, fixture.table.pages);
    const read = chunkFrequency(index);
    expect(read).toBeDefined();
    const counted = lexicalSearch(index, chunks, 'are the days 退货 天内', false, true).termCounts!;
    expect(counted.size).toBeGreaterThan(3);
    for (const [term, count] of counted) expect(read!(term)).toBe(count);
    expect(read!(encodeTerm('退货'))).toBe(3); // the heading, and both sections
    expect(read!('absent')).toBe(0);
  });
});

describe('query planning', () => {
  it('a one-character Chinese query finds the pages whose text has a word starting with it', async () => {
    const { hits } = await engine.rank(searchRequest('退'));
    expect(hits.map((h) => h.fileId)).toContain('zh-returns');
    expect((await engine.rank(searchRequest('退款'))).hits[0]?.fileId).toBe('zh-returns');
  });

  it('searches each distinct term once, boosted by its repeats: the same scores as repeating it', async () => {
    const once = (await engine.rank(searchRequest('renewal'))).hits;
    const twice = (await engine.rank(searchRequest('renewal renewal'))).hits;
    expect(twice.map((h) => h.fileId)).toEqual(once.map((h) => h.fileId));
    for (let i = 0; i < once.length; i++)
      expect(twice[i]!.score).toBeCloseTo(2 * once[i]!.score, 9);
    expect(planQuery('page '.repeat(400), undefined)).toMatchObject({ text: 'page' });
    expect(planQuery('page '.repeat(400), undefined).options.boostTerm?.('page', 0, ['page'])).toBe(
      400,
    );
  });

  it(`keeps at most ${MAX_QUERY_TERMS} distinct terms, the rarest, and the last term last`, () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    const frequency = (term: string) => Number(term.slice(1)); // w0 is the rarest
    const plan = planQuery([...words, 'w99'].join(' '), frequency);
    const kept = plan.text.split(' ');
    expect(kept).toHaveLength(MAX_QUERY_TERMS);
    expect(new Set(kept)).toEqual(new Set(words.slice(0, MAX_QUERY_TERMS)));
    const lastKept = planQuery([...words, 'w3'].join(' '), frequency).text.split(' ');
    expect(lastKept[lastKept.length - 1]).toBe('w3');
  });
});
