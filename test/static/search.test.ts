/**
 * The static source's search ranks as the in-memory engine: `search_files` answers the same items
 * (scores, fields, sections, excerpts), statuses and pages as `createCatalogSource` over the same
 * knowledge, on the sample pages and on real English and Chinese documentation, in every mode; and a
 * query reads the manifests and its own shards only, never `_index/files.json`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import type { KnowledgeSource, SearchFilesInput } from '../../src/agent/index.js';
import {
  catalogOf,
  corpusTestPages,
  filesOf,
  hasCorpusFolder,
  REAL_QUERIES,
  SAMPLE_PAGES,
  windowQueries,
  type TestPage,
} from '../helpers/search-fixtures.js';

/** A catalog source over test pages, and a static source over its bundle, counting what it reads. */
async function pairOf(pages: readonly TestPage[]) {
  const catalog = catalogOf(pages);
  const files = filesOf(pages);
  const reference = createCatalogSource(catalog, { id: 'kb', files });
  const bundle = await buildKnowledgeBundle(reference, { id: 'kb' });
  const reads: string[] = [];
  const subject = createStaticSource({
    read: (p) => {
      reads.push(p);
      return Promise.resolve(bundle.files.get(p) ?? null);
    },
  });
  return { reference, subject, reads, bundle };
}

const wire = (value: unknown) => {
  const out = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  out['nextCursor'] = out['nextCursor'] === null ? null : '<cursor>';
  return out;
};

/** Both sources answer a search, and its next page, alike. */
async function expectSame(
  pair: { reference: KnowledgeSource; subject: KnowledgeSource },
  input: SearchFilesInput,
): Promise<void> {
  const [a, b] = await Promise.all([
    pair.subject.searchFiles(input),
    pair.reference.searchFiles(input),
  ]);
  expect(wire(a), JSON.stringify(input)).toEqual(wire(b));
  if (a.nextCursor !== null && b.nextCursor !== null) {
    const [c, d] = await Promise.all([
      pair.subject.searchFiles({ cursor: a.nextCursor }),
      pair.reference.searchFiles({ cursor: b.nextCursor }),
    ]);
    expect(wire(c), `${JSON.stringify(input)} page 2`).toEqual(wire(d));
  }
}

describe('createStaticSource search', () => {
  it('answers the sample pages as the catalog source, top 10 and next pages, in every mode', async () => {
    const pair = await pairOf(SAMPLE_PAGES);
    for (const query of [
      'When are renewal notices sent?',
      '退款多久返回支付账户？',
      'プランを選ぶ',
      'renewl noti',
      'billing',
      'the',
      'zzzz-not-there',
    ])
      for (const mode of ['hybrid', 'file', 'graph'] as const) {
        await expectSame(pair, { query, mode });
        await expectSame(pair, { query, mode, limit: 2 });
      }
  });

  it('reads the manifests and the query’s own shards and hit pages, never _index/files.json', async () => {
    const pair = await pairOf(SAMPLE_PAGES);
    await pair.subject.searchFiles({ query: 'billing', limit: 1 });
    expect(pair.reads).not.toContain('_index/files.json');
    expect(pair.reads[0]).toBe('manifest.json');
    expect(pair.reads).toContain('_index/search/manifest.json');
    const pages = pair.reads.filter((p) => p.startsWith('pages/'));
    expect(pages).toHaveLength(1);
    // The shards are kept for the revision: the same query again reads the manifest and its page only.
    pair.reads.length = 0;
    await pair.subject.searchFiles({ query: 'billing', limit: 1 });
    expect(pair.reads.filter((p) => p.startsWith('_index/'))).toEqual([]);
  });

  const real = (folder: string) => hasCorpusFolder(folder);
  for (const [folder, max] of [
    ['rust-lang+book', 120],
    ['vuejs-translations+docs-zh-cn', 125],
    // MDX pages, containers: excerpts cut from the page's text without dialect markup.
    ['withastro+starlight', 74],
  ] as const) {
    it.skipIf(!real(folder))(
      `answers real documents as the catalog source: ${folder}`,
      { timeout: 180_000 },
      async () => {
        const pages = corpusTestPages(folder, max);
        const pair = await pairOf(pages);
        expect(pair.bundle.manifest.counts.dictionaryShards).toBeGreaterThan(1);
        expect(pair.bundle.manifest.counts.postingsShards).toBeGreaterThan(1);
        const texts = pages.map((p) => p.text);
        for (const query of REAL_QUERIES)
          for (const mode of ['hybrid', 'file', 'graph'] as const)
            await expectSame(pair, { query, mode });
        await fc.assert(
          fc.asyncProperty(windowQueries(texts), (input) => expectSame(pair, input)),
          { seed: 2412, numRuns: 40 },
        );
      },
    );
  }
});
