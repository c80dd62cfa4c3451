import { describe, expect, it } from 'vitest';
import {
  buildChunks,
  buildBm25fIndex,
  CONTENT,
  FIELD_MODEL,
  indexTokens,
  lexicalSearch,
  MAX_QUERY_TERMS,
  planQuery,
  QUERY_WEIGHTS,
  tokenize,
} from '../../src/agent/search/index.js';
import {
  corpusOf,
  rankerOf,
  SAMPLE_PAGES,
  searchFixture,
  searchRequest,
} from '../helpers/search-fixtures.js';
import { hasFunctionCharacter, isFunctionWord } from '../../src/agent/search/functionWords.js';

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

  it('matches the last word as a prefix only from 3 characters (`co` would reach every `con…`)', async () => {
    const f = searchFixture([
      { id: 'a', text: '# A\n\nThe console and the config and the cost.' },
      { id: 'b', text: '# B\n\nThe cobalt sky.' },
    ]);
    const index = await buildBm25fIndex(buildChunks(corpusOf(f)), f.table.pages);
    const reached = (query: string): string[] =>
      planQuery(query, index)
        .terms.filter((t) => t.variant === true)
        .map((t) => t.token)
        .sort();
    expect(reached('co')).toEqual([]);
    expect(reached('con')).toEqual(['config', 'console']);
    expect((await rankerOf(f).rank(searchRequest('co'))).hits).toEqual([]);
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

  it("gives every ranking one shape: `hits` is read through the rankings' shared prototype, not a getter of each ranking", async () => {
    const a = await engine.rank(searchRequest('days'));
    const b = await engine.rank(searchRequest('工作日'));
    // A getter defined per ranking (a frozen object literal) gave each search a hidden class of its
    // own in V8, and the code reading rankings slowed by about 15%.
    expect(Object.getOwnPropertyDescriptor(a, 'hits')).toBeUndefined();
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(Object.getPrototypeOf(a)).not.toBe(Object.prototype);
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(a.hits.length).toBeGreaterThan(0);
    expect(Object.isFrozen(a)).toBe(true);
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

  it('excerpts where the index saw the term first, the same place the search finds', async () => {
    const filler = 'alpha beta gamma delta. '.repeat(400);
    const text = `<!-- agent-section:maps -->\n${filler}Zebra crossings first. ${filler}A zebra again. The type HashMap stores pairs. ${filler}Call hashmap::new here.\n<!-- /agent-section:maps -->`;
    const f = searchFixture([{ id: 'maps', text }]);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    // The index holds where each chunk's term first starts, in the folded text.
    const content = index.fields[CONTENT]!;
    const firstOf = (term: string): number =>
      content.firsts![content.start[index.terms.get(term)!]!]!;
    expect(firstOf('zebra')).toBe(chunks.textOf[0]!.indexOf('Zebra'));
    expect(lexicalSearch(index, chunks, 'zebra', false).files[0]!.bestAt).toBe(
      chunks.textOf[0]!.indexOf('Zebra'),
    );
    const ranker = rankerOf(f);
    const [zebra] = (await ranker.rank(searchRequest('zebra'))).hits;
    expect(zebra!.sourceExcerpt).toMatch(/^….*Zebra crossings first\..*…$/);
    // Written another way than the search looks for first (`HashMap`), the excerpt is the
    // search's: the term as written, further on.
    expect(firstOf('hashmap')).toBe(chunks.textOf[0]!.indexOf('HashMap'));
    const [map] = (await ranker.rank(searchRequest('hashmap'))).hits;
    expect(map!.sourceExcerpt).toMatch(/^….*Call hashmap::new here\..*$/);
  });

  it('finds the excerpt by searching when the index has no first positions or folding moved them', async () => {
    // `ﬁ` folds to two letters: offsets after it in the folded text are one past the original's.
    const text = `<!-- agent-section:s -->\nThe ﬁrst line. ${'Filler words here. '.repeat(30)}The needle sits here. ${'More filler text. '.repeat(30)}\n<!-- /agent-section:s -->`;
    const f = searchFixture([{ id: 'lig', text }]);
    const [hit] = (await rankerOf(f).rank(searchRequest('needle'))).hits;
    expect(hit!.sourceExcerpt).toMatch(/^….*The needle sits here\..*…$/);
    // A partial index (a store's postings, without `firsts`) places it by searching too.
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    const { firsts: _, ...content } = index.fields[CONTENT]!;
    const partial = { ...index, fields: [content, ...index.fields.slice(1)] };
    const [file] = lexicalSearch(partial, chunks, 'needle', false).files;
    expect(file!.bestAt).toBe(-1);
    expect(file!.bestTerms).toEqual(['needle']);
  });

  it('counts page frequencies once per page, whether a file field or a chunk holds the term', async () => {
    const chunks = buildChunks(corpusOf(fixture));
    const index = await buildBm25fIndex(chunks, fixture.table.pages);
    // The returns page holds it in its title, its description and both sections: one page.
    expect(index.pageFrequency[index.terms.get('退货')!]).toBe(1);
    expect(index.terms.has('absent')).toBe(false);
    expect(lexicalSearch(index, chunks, 'absent words', false).files).toEqual([]);
  });
});

describe('identifiers and function words', () => {
  it('keeps identifiers whole as well as split: v-if, no-unused-vars, std::fs, snake_case', () => {
    const tokens: string[] = [];
    indexTokens('Use v-if, no-unused-vars and std::fs::read in my_file.rs', (t) => tokens.push(t));
    expect(tokens).toEqual([
      'use',
      'v',
      'if',
      'v-if',
      'no',
      'unused',
      'no-unused',
      'vars',
      'no-unused-vars',
      'and',
      'std',
      'fs',
      'std::fs',
      'read',
      'std::fs::read',
      'in',
      'my',
      'file',
      'my_file',
      'rs',
      'my_file.rs',
    ]);
    // The public tokenizer is unchanged: compounds are the index's own.
    expect(tokenize('v-if')).toEqual(['v', 'if']);
  });

  it('keeps names with their sigils whole as well as bare: $state, $$props, {@render}, {#each}', () => {
    const tokens: string[] = [];
    indexTokens('Use $state.raw, $$props, {@render x} and {#each}; a$b and $: stay apart', (t) =>
      tokens.push(t),
    );
    expect(tokens).toEqual([
      'use',
      'state',
      '$state',
      'raw',
      'state.raw',
      'props',
      '$$props',
      'render',
      '@render',
      'x',
      'and',
      'each',
      '#each',
      'a',
      'b',
      'and',
      'stay',
      'apart',
    ]);
    expect(tokenize('$state')).toEqual(['state']);
  });

  it('ranks the page naming $state above one whose words start with state', async () => {
    const f = searchFixture([
      {
        id: 'a',
        text: '# Reactive $: statements\n\nStatements run again when the state they read changes; state, state.',
      },
      { id: 'b', text: '# $state\n\nThe $state rune declares reactive state.' },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('$state'));
    expect(hits[0]?.fileId).toBe('b');
  });

  it('multiplies the score of a page titled with what the query names (title match)', async () => {
    const body = (n: number) => Array.from({ length: n }, () => 'Options options.').join(' ');
    const f = searchFixture([
      { id: 'a', title: 'Vim setup', text: `# Vim setup\n\nPrettier ${body(8)}` },
      { id: 'b', title: 'Options', text: `# Options\n\nPrettier has a few options. ${body(1)}` },
      { id: 'c', title: 'Install', text: '# Install\n\nInstall Prettier.' },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('prettier options'));
    expect(hits[0]?.fileId).toBe('b');
    // Without the title match, repetition wins.
    const index = await buildBm25fIndex(buildChunks(corpusOf(f)), f.table.pages);
    const chunks = buildChunks(corpusOf(f));
    // (The heading match left out: `prettier` is on every page, so `Options` is a heading the
    // query names with it left out.)
    const plain = lexicalSearch(index, chunks, 'prettier options', false, {
      ...FIELD_MODEL,
      titleMatch: 0,
      headingExact: 0,
    });
    expect(plain.files[0]?.page).toBe(0);
    const matched = lexicalSearch(index, chunks, 'prettier options', false, {
      ...FIELD_MODEL,
      headingExact: 0,
    });
    const b = matched.files.find((x) => x.page === 1)!;
    const bPlain = plain.files.find((x) => x.page === 1)!;
    expect(b.score / bPlain.score).toBeGreaterThan(2);
    expect(b.score / bPlain.score).toBeLessThanOrEqual(1 + FIELD_MODEL.titleMatch);
  });

  it('ranks the page naming an identifier whole above pages with its parts apart', async () => {
    const f = searchFixture([
      { id: 'a', text: '# Lists\n\nIf the list is empty, v is null. Show the rest.' },
      { id: 'b', text: '# Conditionals\n\nThe v-if directive renders a block conditionally.' },
      { id: 'c', text: '# Display\n\nUse v if you must. If not, show nothing.' },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('v-if 和 v-show 有什么区别'));
    expect(hits[0]?.fileId).toBe('b');
  });

  it('weighs function words less when the query has other words, and fully when it has none', async () => {
    const f = searchFixture([
      { id: 'a', text: '# Rules\n\nHow to disable a rule for one line.' },
      {
        id: 'b',
        text: '# Intro\n\nHow do I do this? What is it, and how is it done? How, how, how.',
      },
    ]);
    const engine = rankerOf(f);
    expect((await engine.rank(searchRequest('how do I disable a rule'))).hits[0]?.fileId).toBe('a');
    // All function words: still found, as the words they are.
    expect((await engine.rank(searchRequest('how is it'))).hits[0]?.fileId).toBe('b');
    const index = await buildBm25fIndex(buildChunks(corpusOf(f)), f.table.pages);
    const how = planQuery('how do I disable', index).terms.find((t) => t.token === 'how')!;
    expect(how.weight).toBe(QUERY_WEIGHTS.functionWord);
    expect(planQuery('how', index).terms.find((t) => t.token === 'how')!.weight).toBe(1);
  });

  it('weighs a CJK bigram with one function character less when the query has other words', async () => {
    const f = searchFixture([{ id: 'a', text: '# A\n\n读取的数据还是旧的。' }]);
    const index = await buildBm25fIndex(buildChunks(corpusOf(f)), f.table.pages);
    const weightOf = (query: string, token: string) =>
      planQuery(query, index).terms.find((t) => t.token === token)?.weight;
    expect(weightOf('读取的数据还是旧的', '数据')).toBe(1);
    expect(weightOf('读取的数据还是旧的', '取的')).toBe(QUERY_WEIGHTS.functionCharacter);
    expect(weightOf('读取的数据还是旧的', '是旧')).toBe(QUERY_WEIGHTS.functionCharacter);
    // Alone, it is what the query asks for.
    expect(weightOf('是旧', '是旧')).toBe(1);
  });

  it('weighs the words that ask for a comparison (`区别`, `不同`) as function words, as `vs`', () => {
    expect(isFunctionWord('区别', true)).toBe(true);
    expect(isFunctionWord('不同', true)).toBe(true);
    expect(isFunctionWord('vs', false)).toBe(true);
    // One of their characters beside another is a word of its own.
    expect(isFunctionWord('别名', true)).toBe(false);
    expect(isFunctionWord('同步', true)).toBe(false);
    // `后` and `时` (after, when) are function characters: `之后` and `时间` weigh less in a question.
    expect(hasFunctionCharacter('之后')).toBe(true);
    expect(hasFunctionCharacter('时间')).toBe(true);
    expect(hasFunctionCharacter('挂载')).toBe(false);
  });

  it('gives phrase evidence: the page with the query words in a row ranks first', async () => {
    const f = searchFixture([
      { id: 'a', text: '# A\n\nThe borrow is checked here; the checker runs later.' },
      { id: 'b', text: '# B\n\nThe borrow checker runs here.' },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('borrow checker'));
    expect(hits[0]?.fileId).toBe('b');
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
    const index = await buildBm25fIndex(buildChunks(corpusOf(fixture)), fixture.table.pages);
    const plan = planQuery('renewal '.repeat(400), index);
    expect(plan.terms.filter((t) => !t.pair).map((t) => [t.token, t.weight])).toEqual([
      ['renewal', 400],
      ['renewals', 400 * QUERY_WEIGHTS.fuzzy],
    ]);
  });

  it(`keeps at most ${MAX_QUERY_TERMS} distinct terms, the rarest`, async () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    // w0 is in one page, w1 in two … : the first 64 are the rarest.
    const pages = Array.from({ length: 100 }, (_, p) => ({
      id: `p${p}`,
      text: words.filter((_, i) => i <= p).join(' '),
    }));
    const f = searchFixture(pages);
    const index = await buildBm25fIndex(buildChunks(corpusOf(f)), f.table.pages);
    const kept = planQuery([...words].reverse().join(' '), index).terms.filter((t) => !t.pair);
    expect(new Set(kept.map((t) => t.token))).toEqual(new Set(words.slice(36)));
  });
});
