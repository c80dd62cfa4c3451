/**
 * Each tool on the bundled example knowledge (Chinese and English pages, links, tags), compared with
 * reviewed golden outputs in test/agent/fixtures/golden/. After a deliberate change, rewrite them with
 * `UPDATE_GOLDEN=1 npx vitest run test/agent/source-golden.test.ts` (never under CI; that run fails
 * softly, naming each file it wrote), review the diff, and run the tests again.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { expectGolden } from '../helpers/golden.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';

const source = createCatalogSource(
  exampleCatalog(),
  // A fixed publish time, so the outputs' `publishedAt` is stable.
  exampleSourceOptions({
    actionBase: '/openapi/v2/knowledge-bases/example',
    publishedAt: '2026-01-01T00:00:00.000Z',
  }),
);

function golden(name: string, value: unknown): void {
  expectGolden(new URL(`./fixtures/golden/${name}.json`, import.meta.url), value);
}

/** Every key of the seed's example output is present (values may be null, never missing). */
function hasKeys(value: object, keys: readonly string[]): void {
  for (const key of keys) expect(value, key).toHaveProperty(key);
}

describe('the six tools on the example knowledge (golden)', () => {
  it('list_tree: the root, then pages/, then pages/agents/ in two pages of one', async () => {
    const root = await source.listTree({ parentPath: '' });
    hasKeys(root, ['activeContentRevision', 'items', 'nextCursor']);
    golden('list_tree.root', root);
    golden('list_tree.pages', await source.listTree({ parentPath: 'pages' }));
    const first = await source.listTree({ parentPath: 'pages/agents', limit: 1 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await source.listTree({
      parentPath: 'pages/agents',
      limit: 1,
      cursor: first.nextCursor,
    });
    expect(second.nextCursor).toBeNull();
    golden('list_tree.pages-agents', { first: { ...first, nextCursor: '<cursor>' }, second });
    for (const item of root.items) {
      if (item.entryType === 'file')
        hasKeys(item, [
          'fileId',
          'sourceFileId',
          'path',
          'title',
          'entryType',
          'fileKind',
          'contentAvailable',
          'state',
          'generatedOutputStatus',
          'readActions',
        ]);
    }
  });

  it('get_file: metadata, sections with sizes, for an English and a Chinese page', async () => {
    const en = await source.getFile({ fileId: 'agent-tools' });
    hasKeys(en, [
      'activeContentRevision',
      'fileId',
      'sourceFileId',
      'path',
      'title',
      'fileKind',
      'description',
      'frontmatter',
      'contentAvailable',
      'state',
      'generatedOutputStatus',
      'readActions',
    ]);
    golden('get_file.agent-tools', en);
    golden('get_file.exploration', await source.getFile({ fileId: 'exploration' }));
    golden('get_file.index', await source.getFile({ fileId: 'index.md' }));
  });

  it('read_file: by ID, by path, by section, and the navigation files', async () => {
    const byId = await source.readFile({ fileId: 'anchored-markdown' });
    hasKeys(byId, ['file', 'content']);
    hasKeys(byId.file, [
      'activeContentRevision',
      'fileId',
      'sourceFileId',
      'path',
      'title',
      'frontmatter',
      'readActions',
    ]);
    golden('read_file.anchored-markdown', byId);
    expect(await source.readFile({ path: 'pages/anchored-markdown.md' })).toEqual(byId);
    golden(
      'read_file.exploration-self',
      await source.readFile({ fileId: 'exploration', sectionIds: ['flow'], mode: 'self' }),
    );
    golden('read_file.index', await source.readFile({ path: 'index.md' }));
    golden('read_file.graph', await source.readFile({ path: '_graph/by-file/agent-tools.json' }));
  });

  it('search_files: an English and a Chinese question, and a question with no candidates', async () => {
    const en = await source.searchFiles({
      query: 'What should an agent do when a cursor is stale?',
    });
    hasKeys(en, [
      'activeContentRevision',
      'items',
      'searchStatus',
      'searchMode',
      'semanticStatus',
      'rerankerStatus',
      'message',
      'nextActions',
      'nextCursor',
    ]);
    expect(en.items[0]?.fileId).toBe('agent-tools');
    hasKeys(en.items[0]!, [
      'fileId',
      'sourceFileId',
      'path',
      'title',
      'description',
      'score',
      'matchedFields',
      'evidenceTypes',
      'sourceExcerpt',
      'contentAvailable',
      'readActions',
    ]);
    golden('search_files.en', en);
    const zh = await source.searchFiles({ query: '后续搜索最多可以执行几轮?' });
    expect(zh.items[0]?.fileId).toBe('exploration');
    golden('search_files.zh', zh);
    const none = await source.searchFiles({ query: 'xylophone quartet' });
    expect(none.searchStatus).toBe('no_candidates');
    golden('search_files.none', none);
  });

  it('read_related and expand_graph: links both ways and shared tags', async () => {
    const related = await source.readRelated({ fileId: 'agent-tools' });
    hasKeys(related, ['fileId', 'items', 'nextCursor']);
    golden('read_related.agent-tools', related);
    const graph = await source.expandGraph({ fileId: 'exploration', depth: 2 });
    hasKeys(graph, [
      'activeContentRevision',
      'seedFile',
      'relationships',
      'graphPaths',
      'nextCursor',
    ]);
    golden('expand_graph.exploration', graph);
  });
});
