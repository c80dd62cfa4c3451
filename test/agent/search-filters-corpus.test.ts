/**
 * The search filters on real documentation (the corpus beside the repository): the Rust book's folder
 * holds several editions, and `pathPrefix` narrows a search to one of them, away from the other
 * editions' `SUMMARY.md`; VitePress's docs hold an English and a Chinese site side by side, which
 * `pathPrefix` tells apart, while `locale` (no page declares one) keeps no page and says so.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { loadKnowledgeFiles } from '../../src/node/index.js';

const corpus = new URL('../../../shared/corpus/markdown/', import.meta.url);
const present = existsSync(fileURLToPath(corpus));

/** A catalog source over one corpus folder (files with problems left out, as `serve` does). */
async function sourceOf(name: string) {
  const loaded = await loadKnowledgeFiles(new URL(`${name}/`, corpus));
  return createCatalogSource(loaded.catalog, {
    id: name,
    files: loaded.files,
    fileStatus: loaded.fileStatus,
  });
}

describe.skipIf(!present)('search filters on the corpus', () => {
  it('the Rust book: pathPrefix keeps one edition, the other editions’ SUMMARY.md gone, scores kept', async () => {
    const source = await sourceOf('rust-lang+book');
    const query = 'Understanding Ownership references and borrowing';
    const all = await source.searchFiles({ query, limit: 50 });
    const summaries = all.items.filter((i) => i.path.endsWith('/SUMMARY.md'));
    expect(new Set(summaries.map((i) => i.path.split('/')[1])).size).toBeGreaterThan(1);
    const scoped = await source.searchFiles({ query, limit: 50, pathPrefix: 'pages/src/' });
    expect(scoped.items.length).toBeGreaterThan(0);
    for (const item of scoped.items) expect(item.path.startsWith('pages/src/')).toBe(true);
    expect(scoped.items.filter((i) => i.path.endsWith('/SUMMARY.md')).map((i) => i.path)).toEqual(
      summaries.filter((i) => i.path === 'pages/src/SUMMARY.md').map((i) => i.path),
    );
    // Each page kept has the score it has in the whole book's ranking.
    const scores = new Map(all.items.map((i) => [i.path, i.score]));
    for (const item of scoped.items)
      if (scores.has(item.path)) expect(item.score).toBe(scores.get(item.path));
    // Two editions at once.
    const two = await source.searchFiles({
      query,
      limit: 50,
      pathPrefix: ['pages/src/', 'pages/second-edition/'],
    });
    expect(new Set(two.items.map((i) => i.path.split('/')[1]))).toEqual(
      new Set(['src', 'second-edition']),
    );
  });

  it('VitePress’s docs: pathPrefix keeps the Chinese site; locale, which no page declares, keeps none', async () => {
    const source = await sourceOf('vuejs+vitepress');
    const query = 'markdown extensions frontmatter';
    const zh = await source.searchFiles({ query, limit: 50, pathPrefix: 'pages/docs/zh/' });
    expect(zh.items.length).toBeGreaterThan(0);
    for (const item of zh.items) expect(item.path.startsWith('pages/docs/zh/')).toBe(true);
    const en = await source.searchFiles({ query, limit: 50, pathPrefix: 'pages/docs/en/' });
    expect(en.items.length).toBeGreaterThan(0);
    for (const item of en.items) expect(item.path.startsWith('pages/docs/en/')).toBe(true);
    const locale = await source.searchFiles({ query, locale: 'en' });
    expect(locale.searchStatus).toBe('no_candidates');
    expect(locale.message).toMatch(/^The filter locale "en" keeps no page/);
  });
});
