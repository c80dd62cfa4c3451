/**
 * `openEmbeddingCache`: the chunk vectors survive a restart in one file, so a restart embeds nothing
 * and a new revision with one changed page embeds only that page's chunks.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createCatalogSource,
  createBm25fEngine,
  type KnowledgeEmbedder,
} from '../../src/agent/index.js';
import { loadKnowledgeDirectory, openEmbeddingCache } from '../../src/node/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { bagOfTokens } from '../helpers/search-fakes.js';

const folder = useTempFolders();

const PAGES = {
  'billing.md': [
    '# Billing',
    '',
    'Invoices are issued on the first working day of each month.',
    '',
    '## Refunds',
    '',
    'Refunds are paid back to the original card within ten days.',
    '',
  ].join('\n'),
  'delivery.md': '# Delivery\n\nOrders ship within two working days. Parcels travel by courier.\n',
  'returns.md': '# Returns\n\nA product can be returned within thirty days of delivery.\n',
};

/** The pages as a tree under `pages/`. */
const pagesTree = () =>
  Object.fromEntries(Object.entries(PAGES).map(([name, text]) => [`pages/${name}`, text]));

function recordingEmbedder(): KnowledgeEmbedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    async embed(batch) {
      texts.push(...batch);
      return batch.map(bagOfTokens);
    },
  };
}

/** A source over the folder, as an app starting up builds it, with the cache file. */
async function start(dir: string, cacheFile: string, model = 'toy-64') {
  const { catalog, files } = await loadKnowledgeDirectory(join(dir, 'pages'));
  const embedder = recordingEmbedder();
  const embeddingCache = await openEmbeddingCache(cacheFile, { model });
  const source = createCatalogSource(catalog, {
    files,
    search: createBm25fEngine({ embedder, embeddingCache }),
  });
  await source.warm!();
  return { source, embedder, embeddingCache };
}

describe('openEmbeddingCache', () => {
  it("a restart embeds nothing; a new revision with one changed page embeds only that page's chunk", async () => {
    const dir = await folder(pagesTree());
    const cacheFile = join(dir, '.cache', 'embeddings.bin');

    const first = await start(dir, cacheFile);
    const chunkCount = first.embedder.texts.length;
    expect(chunkCount).toBe(3); // one chunk a page: these pages have no sections
    expect((await openEmbeddingCache(cacheFile, { model: 'toy-64' })).size).toBe(chunkCount);

    const restart = await start(dir, cacheFile);
    expect(restart.embedder.texts).toEqual([]);
    const result = await restart.source.searchFiles({ query: 'parcels courier' });
    expect(result.semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(restart.embedder.texts).toEqual(['parcels courier']);

    await writeFile(
      join(dir, 'pages', 'billing.md'),
      PAGES['billing.md'].replace('within ten days', 'within five working days'),
    );
    const revised = await start(dir, cacheFile);
    expect(revised.embedder.texts).toEqual([expect.stringContaining('within five working days')]);
    // The file keeps the vectors this run used: the old billing page's is gone from it.
    expect((await openEmbeddingCache(cacheFile, { model: 'toy-64' })).size).toBe(chunkCount);
    // No temporary file is left beside it.
    expect(await readdir(join(dir, '.cache'))).toEqual(['embeddings.bin']);
  });

  it('round-trips vectors exactly as 32-bit floats, in the documented layout', async () => {
    const dir = await folder();
    const file = join(dir, 'cache.bin');
    const cache = await openEmbeddingCache(pathToFileURL(file), { model: 'm' });
    expect(cache.file).toBe(file);
    cache.set('a', [0.1, -2, 3e-8]);
    cache.set('b', new Float32Array([1, 2, 3]));
    await Promise.all([cache.flush(), cache.flush()]);
    const bytes = await readFile(file);
    const text = bytes.toString('latin1');
    expect(text.startsWith('knowledge-kit embeddings 1\n{"model":"m","dimensions":3,')).toBe(true);
    const dataStart = bytes.indexOf(10, 27) + 1;
    expect(dataStart % 4).toBe(0);
    expect(bytes.length - dataStart).toBe(2 * 3 * 4);
    const reopened = await openEmbeddingCache(file, { model: 'm' });
    expect(reopened.size).toBe(2);
    expect(reopened.get('a')).toEqual(new Float32Array([0.1, -2, 3e-8]));
    expect(reopened.get('b')).toEqual(new Float32Array([1, 2, 3]));
    expect(reopened.get('c')).toBeUndefined();
  });

  it('starts empty for a file of another model, and its first save replaces it', async () => {
    const dir = await folder();
    const file = join(dir, 'cache.bin');
    const small = await openEmbeddingCache(file, { model: 'small' });
    small.set('k', [1, 2]);
    await small.flush();
    const large = await openEmbeddingCache(file, { model: 'large' });
    expect(large.size).toBe(0);
    large.set('k', [1, 2, 3, 4]);
    await large.flush();
    expect((await openEmbeddingCache(file, { model: 'small' })).size).toBe(0);
    expect((await openEmbeddingCache(file, { model: 'large' })).get('k')).toHaveLength(4);
  });

  it('a vector of another length replaces the lot (one model per cache)', async () => {
    const cache = await openEmbeddingCache(join(await folder(), 'c.bin'), { model: 'm' });
    cache.set('a', [1, 2]);
    cache.set('b', [1, 2]);
    cache.set('c', [1, 2, 3]);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('flush writes nothing when nothing was stored', async () => {
    const dir = await folder();
    const file = join(dir, 'cache.bin');
    await (await openEmbeddingCache(file, { model: 'm' })).flush();
    expect(await readdir(dir)).toEqual([]);
  });

  it('READ_FAILED for a file that is not an embedding cache, and never overwrites it', async () => {
    const dir = await folder({ 'notes.txt': 'my notes\n' });
    const file = join(dir, 'notes.txt');
    await expectKnowledgeError(openEmbeddingCache(file, { model: 'm' }), {
      code: 'READ_FAILED',
      path: ['file'],
      file,
      message: `openEmbeddingCache: \`${file}\` is not a Knowledge Kit embedding cache (its first line is not \`knowledge-kit embeddings 1\`). Pass the cache's own file; if it is a damaged cache, delete it and the next start embeds again.`,
    });
    const truncated = join(dir, 'cut.bin');
    await writeFile(
      truncated,
      'knowledge-kit embeddings 1\n{"model":"m","dimensions":2,"keys":["a"]}  \n\u0000',
    );
    await expectKnowledgeError(openEmbeddingCache(truncated, { model: 'm' }), {
      code: 'READ_FAILED',
      file: truncated,
      message: expect.stringContaining('it holds 1 bytes of vectors, not 1 × 2 floats'),
    });
    expect(await readFile(file, 'utf8')).toBe('my notes\n');
  });

  it('READ_FAILED for a path that cannot be read (a folder)', async () => {
    const dir = await folder();
    await expectKnowledgeError(openEmbeddingCache(dir, { model: 'm' }), {
      code: 'READ_FAILED',
      file: dir,
      message: expect.stringMatching(
        /^openEmbeddingCache: the embedding cache `.*` cannot be read/,
      ),
    });
  });

  it('WRITE_FAILED naming the file when it cannot be saved; warm() says so and search goes on', async () => {
    const dir = await folder({ blocker: 'a file, not a folder\n', ...pagesTree() });
    const file = join(dir, 'blocker', 'embeddings.bin');
    const cache = await openEmbeddingCache(file, { model: 'm' });
    cache.set('a', [1]);
    const error = await expectKnowledgeError(cache.flush(), {
      code: 'WRITE_FAILED',
      path: ['file'],
      file,
      message: expect.stringMatching(
        /^openEmbeddingCache: the embedding cache `.*embeddings\.bin` cannot be saved \(.+\)\. Make its folder writable, or open the cache on another file\.$/,
      ),
    });
    expect(error.cause).toBeInstanceOf(Error);

    const { catalog, files } = await loadKnowledgeDirectory(join(dir, 'pages'));
    const source = createCatalogSource(catalog, {
      files,
      search: createBm25fEngine({
        embedder: recordingEmbedder(),
        embeddingCache: await openEmbeddingCache(file, { model: 'm' }),
      }),
    });
    const warmError = await expectKnowledgeError(source.warm!(), {
      code: 'SEARCH_UNAVAILABLE',
      message: /embedding cache could not save/,
    });
    expect(warmError.cause).toMatchObject({ code: 'WRITE_FAILED' });
    const result = await source.searchFiles({ query: 'courier' });
    expect(result.semanticStatus).toEqual({ state: 'ready', safeCode: null });
  });

  it('INVALID_INPUT for a bad file or a missing model', async () => {
    await expectKnowledgeError(openEmbeddingCache('', { model: 'm' }), {
      code: 'INVALID_INPUT',
      path: ['file'],
    });
    await expectKnowledgeError(openEmbeddingCache(new URL('https://x/c.bin'), { model: 'm' }), {
      code: 'INVALID_INPUT',
      path: ['file'],
    });
    await expectKnowledgeError(openEmbeddingCache('c.bin', {} as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'model'],
    });
    await expectKnowledgeError(openEmbeddingCache('c.bin', undefined as never), {
      code: 'INVALID_INPUT',
      path: ['options'],
    });
    await expectKnowledgeError(openEmbeddingCache('c.bin', { model: 'm', dims: 3 } as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'dims'],
    });
  });
});
