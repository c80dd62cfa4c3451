/**
 * What a static source keeps of one revision: a file refused as broken (`files.json` that is no list
 * of pages, a shard that is not JSON) is read and parsed once per revision, not on every call; graph
 * files are kept like shards; a new revision reads everything again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';

let files: Map<string, string>;

beforeAll(async () => {
  const bundle = await buildKnowledgeBundle(
    createCatalogSource(exampleCatalog(), exampleSourceOptions()),
    { id: 'example' },
  );
  files = new Map(bundle.files);
});

/** A `read` over `bundle` that counts the reads of each path. */
function counted(bundle: ReadonlyMap<string, string>) {
  const reads = new Map<string, number>();
  return {
    reads,
    read: async (path: string) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return bundle.get(path) ?? null;
    },
  };
}

const firstPage = () =>
  (
    JSON.parse(files.get('_index/files.json')!) as {
      pages: { fileId: string; graphPath: string }[];
    }
  ).pages[0]!;

describe('kept files', () => {
  it('reads a files.json of nested brackets once per revision, refusing it each call', async () => {
    const hostile = new Map(files);
    hostile.set('_index/files.json', `${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    const { reads, read } = counted(hostile);
    const source = createStaticSource({ read });
    for (let i = 0; i < 3; i++)
      await expect(source.listTree({})).rejects.toMatchObject({
        code: 'INTERNAL',
        message: expect.stringContaining(
          '`_index/files.json` of the bundle is not a list of pages (`{ pages: [...] }`). Export the bundle again',
        ),
      });
    expect(reads.get('_index/files.json')).toBe(1);
    expect(reads.get('manifest.json')).toBe(3);
  });

  it('tries a files.json that could not be read again on the next call', async () => {
    let fail = true;
    const source = createStaticSource({
      read: async (path) => {
        if (path === '_index/files.json' && fail) throw new Error('connection reset');
        return files.get(path) ?? null;
      },
    });
    await expect(source.listTree({})).rejects.toMatchObject({ code: 'TRANSPORT_ERROR' });
    fail = false;
    expect((await source.listTree({})).items.length).toBeGreaterThan(0);
  });

  it('keeps a page graph file for the revision: read_related twice reads it once', async () => {
    const page = firstPage();
    const { reads, read } = counted(files);
    const source = createStaticSource({ read });
    const first = await source.readRelated({ fileId: page.fileId });
    const again = await source.readRelated({ fileId: page.fileId });
    expect(again.items).toEqual(first.items);
    expect(reads.get(page.graphPath)).toBe(1);
  });

  it('reads a shard that is not JSON once per revision', async () => {
    const hostile = new Map(files);
    const search = JSON.parse(hostile.get('_index/search/manifest.json')!) as {
      dictionary: [string, string][];
    };
    for (const [, name] of search.dictionary) hostile.set(`_index/search/${name}`, '{{');
    const { reads, read } = counted(hostile);
    const source = createStaticSource({ read });
    for (let i = 0; i < 2; i++)
      await expect(source.searchFiles({ query: 'anchored Markdown' })).rejects.toMatchObject({
        code: 'INTERNAL',
      });
    const shardReads = [...reads].filter(([path]) => path.includes('/dictionary-'));
    expect(shardReads.length).toBeGreaterThan(0);
    for (const [path, count] of shardReads) expect(count, path).toBe(1);
  });
});
