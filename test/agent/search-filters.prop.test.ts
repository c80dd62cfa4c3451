/**
 * Invariant of the search filters: a filtered search's candidates are the unfiltered search's
 * candidates restricted to the pages the filters keep, in the same order and with the same scores
 * (the ranking's statistics are the whole knowledge base's), whenever the unfiltered search returns
 * every candidate; and every candidate passes the filters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';

const WORDS = [
  'install',
  'guide',
  'billing',
  'refund',
  'cursor',
  'search',
  '配送',
  '退货',
  'setup',
];
const FOLDERS = ['', 'guide/', 'guide/deep/', 'api/', 'zh/'];
const TAGS = ['a', 'b', 'c'];
const LOCALES = ['en', 'zh-CN', null] as const;

const page = fc.record({
  folder: fc.constantFrom(...FOLDERS),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
  locale: fc.constantFrom(...LOCALES),
});

const filter = fc.record(
  {
    pathPrefix: fc.oneof(
      fc.constantFrom(...FOLDERS.map((f) => `pages/${f}`), 'pages/gu', 'pages/none/'),
      fc.uniqueArray(fc.constantFrom(...FOLDERS.map((f) => `pages/${f}`)), {
        minLength: 1,
        maxLength: 3,
      }),
    ),
    tags: fc.oneof(
      fc.constantFrom(...TAGS),
      fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 }),
    ),
    locale: fc.constantFrom('en', 'zh-CN', 'fr'),
  },
  { requiredKeys: [] },
);

describe('search filters (property)', () => {
  it('filtered = unfiltered restricted to the pages kept, same order and scores', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(page, { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        filter,
        fc.constantFrom('hybrid', 'file') as fc.Arbitrary<'hybrid' | 'file'>,
        async (pages, words, given, mode) => {
          const documents = pages.map((p, i) =>
            parseKnowledgeDocument({
              id: `${p.folder}p${i}`,
              revision: 'r1',
              ...(p.locale === null ? {} : { locale: p.locale }),
              text: `# ${p.words[0]}\n\n${p.words.join(' ')}\n`,
            }),
          );
          const files = Object.fromEntries(
            pages.map((p, i) => [
              `${p.folder}p${i}`,
              { path: `pages/${p.folder}p${i}.md`, frontmatter: { tags: p.tags } },
            ]),
          );
          const source = createCatalogSource(defineKnowledgeCatalog(documents), { files });
          const query = words.join(' ');
          const all = await source.searchFiles({ query, mode, limit: 50 });
          expect(all.nextCursor).toBeNull();
          const prefixes =
            given.pathPrefix === undefined
              ? undefined
              : typeof given.pathPrefix === 'string'
                ? [given.pathPrefix]
                : given.pathPrefix;
          const tags =
            given.tags === undefined
              ? undefined
              : typeof given.tags === 'string'
                ? [given.tags]
                : given.tags;
          const keeps = (path: string): boolean => {
            const i = Number(path.slice(path.lastIndexOf('/p') + 2, -'.md'.length));
            const p = pages[i]!;
            return (
              (prefixes === undefined || prefixes.some((prefix) => path.startsWith(prefix))) &&
              (tags === undefined || tags.every((t) => p.tags.includes(t))) &&
              (given.locale === undefined || p.locale === given.locale)
            );
          };
          const filtered = await source.searchFiles({ query, mode, limit: 50, ...given });
          const expected = all.items.filter((item) => keeps(item.path));
          expect(filtered.items.map((i) => [i.path, i.score, i.sourceExcerpt])).toEqual(
            expected.map((i) => [i.path, i.score, i.sourceExcerpt]),
          );
          expect(filtered.searchStatus).toBe(expected.length === 0 ? 'no_candidates' : 'ok');
          if (expected.length === 0) expect(filtered.message).toEqual(expect.any(String));
        },
      ),
      { seed: 20261207, numRuns: 150 },
    );
  });
});
