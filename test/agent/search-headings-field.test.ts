import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildBm25fIndex,
  buildChunks,
  FIELD_MODEL,
  headingKey,
  headingLines,
  HEADINGS,
  lexicalSearch,
  planQuery,
} from '../../src/agent/search/index.js';
import { HEADINGS_KEPT } from '../../src/agent/search/catalogCorpus.js';
import { fileNameKeys, HEADING_KEY_MAX_WORDS } from '../../src/agent/search/indexTokens.js';
import { corpusOf, rankerOf, searchFixture, searchRequest } from '../helpers/search-fixtures.js';

describe('the headings field', () => {
  it('reads ATX headings outside fenced code, without their marks and {#id}', () => {
    const text = [
      '# Site Config',
      'Text # not a heading',
      '   ## `cleanUrls` {#clean-urls}',
      '```bash',
      '# a shell comment',
      '```',
      '~~~~',
      '## inside tildes',
      '~~~',
      '## still inside',
      '~~~~',
      '####### seven marks',
      '#no-space',
      '### Last ###',
    ].join('\n');
    expect(headingLines(text)).toBe(' Site Config\n `cleanUrls` \n Last ###');
    expect(headingLines('no heading here')).toBe('');
    // A closing fence has only spaces and tabs after its marks (and a CRLF file's `\r`): a
    // no-break space or a word after them leaves the fence open.
    expect(headingLines('```\n```\u00a0\n# Inside\n```\t\r\n# After')).toBe(' After');
    expect(headingLines('~~~\n~~~ x\n# Inside\n~~~\n# After')).toBe(' After');
    expect(headingLines('```\r\n# Inside\r\n```\r\n# After\r')).toBe(' After\r');
  });

  it('keys a heading or a query by its words: case, marks and spacing do not matter', () => {
    expect(headingKey(' `cleanUrls` ')).toBe('\u0001cleanurls');
    expect(headingKey('cleanUrls')).toBe(headingKey('CLEANURLS'));
    expect(headingKey('Dark  mode: toggle')).toBe('\u0001dark mode toggle');
    expect(headingKey('v-if')).toBe('\u0001v if');
    expect(headingKey('计算属性')).toBe('\u0001计算 算属 属性');
    expect(headingKey('  ')).toBe('');
  });

  it('ranks the page with a heading that is the query above pages repeating it in their text', async () => {
    const f = searchFixture([
      {
        id: 'routing',
        title: 'Routing',
        text: `# Routing\n\n${'Set cleanUrls to drop the .html; cleanUrls needs server support. '.repeat(4)}`,
      },
      {
        id: 'config',
        title: 'Site Config',
        text: '# Site Config\n\n## title\n\nThe site title.\n\n## cleanUrls\n\nDrops .html from URLs.',
      },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('cleanUrls'));
    expect(hits.map((h) => h.fileId)).toEqual(['config', 'routing']);
    // The heading counts as the page's text: `content`, never a field of its own.
    expect(hits[0]!.matchedFields).toEqual(['content']);
    // Without the exact heading match, repetition wins.
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    const plain = lexicalSearch(index, chunks, 'cleanUrls', false, {
      ...FIELD_MODEL,
      headingExact: 0,
    });
    expect(plain.files[0]!.page).toBe(1);
    const exact = lexicalSearch(index, chunks, 'cleanUrls', false);
    const config = exact.files.find((x) => x.page === 0)!;
    const configPlain = plain.files.find((x) => x.page === 0)!;
    expect(config.score / configPlain.score).toBeCloseTo(1 + FIELD_MODEL.headingExact, 10);
  });

  it('takes the file name without its extension as a heading: `i18n` names guide/i18n.md', async () => {
    const f = searchFixture([
      {
        id: 'search',
        path: 'pages/reference/search.md',
        title: 'Search',
        text: `# Search\n\n${'The search box follows the i18n settings of each locale. '.repeat(3)}`,
      },
      {
        id: 'i18n',
        path: 'pages/guide/i18n.md',
        title: 'Internationalization',
        text: '# Internationalization\n\nOne folder per locale; i18n routing follows it.',
      },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('i18n'));
    expect(hits.map((h) => h.fileId)).toEqual(['i18n', 'search']);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    const plain = lexicalSearch(index, chunks, 'i18n', false, { ...FIELD_MODEL, headingExact: 0 });
    expect(plain.files.map((x) => f.table.pages[x.page]!.fileId)).toEqual(['search', 'i18n']);
  });

  it('names a page by a run of two or more words of its file name, not by one word of it', async () => {
    const f = searchFixture([
      {
        id: 'plugin',
        path: 'pages/plugins/social.md',
        title: 'Built-in social plugin',
        text: `# Built-in social plugin\n\n${'The social plugin draws social cards for every page. '.repeat(3)}`,
      },
      {
        id: 'setup',
        path: 'pages/setup/setting-up-social-cards.md',
        title: 'Setting up',
        text: '# Setting up\n\nTurn the plugin on to get social cards.',
      },
    ]);
    const { hits } = await rankerOf(f).rank(searchRequest('social cards'));
    expect(hits.map((h) => h.fileId)).toEqual(['setup', 'plugin']);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    const order = (query: string): string[] =>
      lexicalSearch(index, chunks, query, false, { ...FIELD_MODEL, headingExact: 0 }).files.map(
        (x) => f.table.pages[x.page]!.fileId,
      );
    // Without the heading match, the page repeating the words comes first.
    expect(order('social cards')).toEqual(['plugin', 'setup']);
    // One word of a file name names nothing (`cards`); a whole one-word name does (`social`).
    expect(planQuery('cards', index).terms.some((t) => t.heading === true)).toBe(false);
    expect(planQuery('social', index).terms.some((t) => t.heading === true)).toBe(true);
  });

  it('keys a file name whole and by each run of 2 to HEADING_KEY_MAX_WORDS of its words', () => {
    expect(fileNameKeys('setting-up-social-cards')).toEqual([
      headingKey('setting up social cards'),
      headingKey('setting up'),
      headingKey('setting up social'),
      headingKey('up social'),
      headingKey('up social cards'),
      headingKey('social cards'),
    ]);
    expect(fileNameKeys('i18n')).toEqual([headingKey('i18n')]);
    expect(fileNameKeys('--')).toEqual([]);
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 10 }), (words) => {
        const want = new Set([headingKey(words.join(' '))]);
        for (let from = 0; from < words.length; from++)
          for (let n = 2; n <= HEADING_KEY_MAX_WORDS && from + n <= words.length; n++)
            if (n < words.length) want.add(headingKey(words.slice(from, from + n).join(' ')));
        const keys = fileNameKeys(words.join('-'));
        expect(keys[0]).toBe(headingKey(words.join(' ')));
        expect(new Set(keys)).toEqual(want);
      }),
    );
  });

  it('does not search headings in file mode', async () => {
    const f = searchFixture([
      { id: 'a', title: 'Guide', text: '# Guide\n\n## Deploying\n\nPush the build.' },
    ]);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    expect(lexicalSearch(index, chunks, 'deploying', true).files).toEqual([]);
    expect(lexicalSearch(index, chunks, 'deploying', false).files).toHaveLength(1);
  });

  it('plans the whole-heading term only when some heading is the query', async () => {
    const f = searchFixture([
      { id: 'a', text: '# Guide\n\n## Dark mode\n\nToggle it.' },
      { id: 'b', text: '# Install\n\nRun the installer.' },
      { id: 'c', text: '# Deploy\n\nPush the build.' },
    ]);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    const heading = (q: string) => planQuery(q, index).terms.filter((t) => t.heading === true);
    expect(heading('dark MODE')).toHaveLength(1);
    // `toggle` is on one page of three: the query names no heading.
    expect(heading('dark mode toggle')).toHaveLength(0);
    // The key is a term of the headings field only, not counted in its length.
    const key = index.terms.get(headingKey('Dark mode'))!;
    const p = index.fields[HEADINGS]!;
    expect(Array.from(p.docs.subarray(p.start[key]!, p.start[key + 1]!))).toEqual([0]);
    expect(p.lengths[0]).toBe(3);
  });

  it('names a heading with one word left out when that word is on most pages or a function word', async () => {
    const f = searchFixture([
      { id: 'a', text: '# Runtime API\n\nAcme helpers.\n\n## useData\n\nReturns page data.' },
      { id: 'b', text: '# Guide\n\nAcme guide, which calls useData once.' },
      { id: 'c', text: '# Deploy\n\nPush the Acme build.' },
      { id: 'd', text: '# Theme\n\nA theme for Acme.' },
      { id: 'e', text: '# Routing\n\nRoutes of your site.' },
    ]);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, f.table.pages);
    const named = (q: string) => {
      const terms = planQuery(q, index).terms.filter((t) => t.heading === true);
      return terms.map((t) => index.termList[t.id]);
    };
    // `acme` is on four pages of five: `acme useData` names the heading `useData`.
    expect(named('acme useData')).toEqual([headingKey('useData')]);
    expect(named('useData acme')).toEqual([headingKey('useData')]);
    // A function word left out too; a word on few pages is not (`routes` is on one page of five).
    expect(named('the useData')).toEqual([headingKey('useData')]);
    expect(named('routes useData')).toEqual([]);
    // The whole query first: a heading that is the query exactly wins over a shorter key.
    expect(named('runtime api')).toEqual([headingKey('Runtime API')]);
    // So the page with the heading ranks first, above the page that mentions the name.
    const found = lexicalSearch(index, chunks, 'acme useData', false).files;
    expect(f.table.pages[found[0]!.page]!.fileId).toBe('a');
    const without = lexicalSearch(index, chunks, 'acme useData', false, {
      ...FIELD_MODEL,
      headingExact: 0,
    }).files;
    const score = (files: typeof found) => files.find((x) => x.page === 0)!.score;
    expect(score(found) / score(without)).toBeCloseTo(1 + FIELD_MODEL.headingExact, 10);
  });

  it('never reads a line inside a fence as a heading, and reads every heading outside one', () => {
    const line = fc.constantFrom(
      '# Alpha',
      '## Beta {#b}',
      '```',
      '~~~',
      '````',
      'text',
      '  # Gamma',
      '',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        // A reference reading: a fence opens on 3+ backticks or tildes and closes on a run of the
        // same character at least as long.
        const want: string[] = [];
        let fence = '';
        for (const l of lines) {
          const t = l.trimStart();
          const run = /^(`{3,}|~{3,})/.exec(t)?.[1];
          if (run !== undefined) {
            if (fence === '') fence = run;
            else if (run[0] === fence[0] && run.length >= fence.length) fence = '';
          } else if (fence === '' && /^#{1,6} /.test(t))
            want.push(t.replace(/^#+/, '').replace(/\{#[^}]*\}$/, ''));
        }
        expect(headingLines(lines.join('\n'))).toBe(want.join('\n'));
      }),
      { seed: 20261207, numRuns: 300 },
    );
  });

  it("computes a page's chunk headings once (the oldest of more than HEADINGS_KEPT pages dropped)", () => {
    const pages = Array.from({ length: HEADINGS_KEPT + 1 }, (_, i) => ({
      id: `p${i}`,
      text: `# Page ${i}\n\n## Part\n\nText ${i}.`,
    }));
    const corpus = corpusOf(searchFixture(pages));
    const first = corpus.headingsOf!('p0');
    expect(first[0]!.map((h) => h.text)).toEqual(['Page 0', 'Part']);
    expect(corpus.headingsOf!('p0')).toBe(first);
    for (let i = 1; i <= HEADINGS_KEPT; i++) corpus.headingsOf!(`p${i}`);
    const again = corpus.headingsOf!('p0');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
  it("multiplies a page by its headings' coverage of a mostly-CJK query only", async () => {
    const f = searchFixture([
      { id: 'a', text: '# 甲\n\n## 组件挂载\n\n说明文字。' },
      { id: 'b', text: '# 乙\n\n组件挂载之后，组件挂载之后，组件挂载之后。' },
      { id: 'c', text: '# One\n\n## component mount\n\nSome text.' },
      { id: 'd', text: '# Two\n\nComponent mount after, component mount after.' },
    ]);
    const chunks = buildChunks(corpusOf(f));
    const index = await buildBm25fIndex(chunks, corpusOf(f).pages);
    const scores = (query: string, headingCoverage: number): Map<number, number> =>
      new Map(
        lexicalSearch(index, chunks, query, false, { ...FIELD_MODEL, headingCoverage }).files.map(
          (file) => [file.page, file.score],
        ),
      );
    expect(planQuery('组件挂载之后', index).cjk).toBe(true);
    expect(planQuery('component mount after', index).cjk).toBe(false);
    const cjk = scores('组件挂载之后', FIELD_MODEL.headingCoverage);
    const cjkWithout = scores('组件挂载之后', 0);
    // Page a's headings hold 组件, 件挂, 挂载 (not 载之, 之后): its score grows; b has no such heading.
    expect(cjk.get(0)!).toBeGreaterThan(cjkWithout.get(0)! * 1.05);
    expect(cjk.get(1)).toBe(cjkWithout.get(1));
    // An English query: no heading coverage.
    expect(scores('component mount after', FIELD_MODEL.headingCoverage)).toEqual(
      scores('component mount after', 0),
    );
  });
});
