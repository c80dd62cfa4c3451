/**
 * `exportKnowledgeBundle`: the layout and formats of a bundle, the same bytes for the same knowledge,
 * only what changed rewritten by a new revision, the folders it refuses; and `createStaticSource`'s
 * revisions, option checks and errors.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import type { CatalogSourceOptions, KnowledgeSource } from '../../src/agent/index.js';
import { defineKnowledgeCatalog } from '../../src/index.js';
import { exportKnowledgeBundle, readBundleDirectory } from '../../src/node/index.js';
import { exampleDocuments, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();
const example = (extra: CatalogSourceOptions = {}): KnowledgeSource =>
  createCatalogSource(defineKnowledgeCatalog(exampleDocuments()), exampleSourceOptions(extra));

/** Every file under `dir` with its text, by `/`-separated path. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) {
      const full = join(e.parentPath, e.name);
      out[
        full
          .slice(dir.length + 1)
          .split('\\')
          .join('/')
      ] = await readFile(full, 'utf8');
    }
  return out;
}

describe('exportKnowledgeBundle', () => {
  it('writes the documented layout: pages as read_file returns them, indexes, graph, llms.txt', async () => {
    const source = example();
    const dir = await folder();
    const result = await exportKnowledgeBundle(source, { out: dir, id: 'example' });
    const files = await tree(dir);
    const paths = Object.keys(files).sort();
    expect(paths.filter((p) => !p.startsWith('_index/search/') && !p.startsWith('_graph/by-file/')))
      .toMatchInlineSnapshot(`
      [
        "_graph/index.json",
        "_index/files.json",
        "index.md",
        "llms-full.txt",
        "llms.txt",
        "manifest.json",
        "pages/agents/agent-tools.md",
        "pages/agents/exploration.md",
        "pages/anchored-markdown.md",
        "pages/knowledge-kit-guide.md",
      ]
    `);
    expect(result.written).toEqual(paths);
    // Every file of the source's tree, as read_file returns it.
    const { items } = await source.listTree({ parentPath: '_graph/by-file' });
    for (const path of ['index.md', 'pages/anchored-markdown.md', ...items.map((i) => i.path)])
      expect(files[path], path).toBe((await source.readFile({ path })).content);
    const manifest = JSON.parse(files['manifest.json']!);
    expect(manifest).toMatchObject({
      format: 'knowledge-kit-bundle',
      version: 1,
      knowledgeBaseId: 'example',
      activeContentRevision: 42,
      counts: { pages: 4 },
    });
    const filesJson = JSON.parse(files['_index/files.json']!);
    expect(filesJson.pages.map((p: { path: string }) => p.path)).toEqual(
      [...filesJson.pages.map((p: { path: string }) => p.path)].sort(),
    );
    const info = await source.getFile({ fileId: 'anchored-markdown' });
    const page = filesJson.pages.find((p: { fileId: string }) => p.fileId === 'anchored-markdown');
    expect(page.sections).toEqual(info.sections);
    // Each range holds its section's subtree text.
    const text = files['pages/anchored-markdown.md']!;
    for (const [i, s] of info.sections.entries()) {
      const [start, end] = page.ranges[i];
      const read = await source.readFile({
        fileId: 'anchored-markdown',
        sectionIds: [s.id],
        mode: 'subtree',
      });
      expect(text.slice(start, end)).toBe(read.content);
    }
    // Each page carries the SHA-256 of its file's exact bytes (what an agent without tools can check).
    for (const p of filesJson.pages as { path: string; textSha256: string }[])
      expect(p.textSha256, p.path).toBe(
        createHash('sha256').update(files[p.path]!, 'utf8').digest('hex'),
      );
    // Search shards are named by their content.
    const search = JSON.parse(files['_index/search/manifest.json']!);
    expect(search.stats.pageCount).toBe(4);
    for (const [, name] of search.dictionary) expect(files[`_index/search/${name}`]).toBeDefined();
    // llms.txt: an H1, a summary, H2 sections of links.
    const llms = files['llms.txt']!.split('\n');
    expect(llms[0]).toBe('# example');
    expect(llms[2]).toMatch(/^> example: 4 pages of Markdown/);
    expect(llms).toContain('## pages/agents');
    expect(llms).toContain('## Optional');
    for (const line of llms.filter((l) => l.startsWith('- ')))
      expect(line).toMatch(/^- \[[^\]]+\]\([^)\s]+\)(: .+)?$/);
    expect(files['llms-full.txt']).toContain(text);
  });

  it('gives the same bytes for the same knowledge, and writes nothing the second time', async () => {
    const [a, b] = [await folder(), await folder()];
    // The same knowledge: the same content, published at the same time.
    const publishedAt = '2026-10-01T00:00:00.000Z';
    await exportKnowledgeBundle(example({ publishedAt }), { out: a, id: 'example' });
    await exportKnowledgeBundle(example({ publishedAt }), { out: b, id: 'example' });
    expect(await tree(a)).toEqual(await tree(b));
    expect(JSON.parse((await tree(a))['manifest.json']!).publishedAt).toBe(publishedAt);
    // Exported again from a source created later: the revision is the same, so its publish time is kept.
    const again = await exportKnowledgeBundle(example(), { out: a, id: 'example' });
    expect(again.written).toEqual([]);
    expect(again.removed).toEqual([]);
  });

  it('rewrites only what a one-page edit changed, and removes the shards it replaced', async () => {
    const dir = await folder();
    const first = await exportKnowledgeBundle(example(), { out: dir, id: 'example' });
    const documents = exampleDocuments().map((d) =>
      d.id === 'exploration'
        ? { ...d, revision: `${d.revision}-2`, parts: [...d.parts, 'Stop after two searches.'] }
        : d,
    );
    const edited = createCatalogSource(
      defineKnowledgeCatalog(documents),
      exampleSourceOptions({ revision: 43 }),
    );
    const second = await exportKnowledgeBundle(edited, { out: dir, id: 'example' });
    const total = first.written.length;
    expect(second.written).toContain('pages/agents/exploration.md');
    expect(second.written).toContain('manifest.json');
    expect(second.written).not.toContain('pages/anchored-markdown.md');
    expect(second.written.length).toBeLessThan(total);
    for (const path of second.removed) expect(path).toMatch(/^_index\/search\//);
    // The folder now is exactly the new bundle.
    const fresh = await folder();
    await exportKnowledgeBundle(edited, { out: fresh, id: 'example' });
    expect(await tree(dir)).toEqual(await tree(fresh));
  });

  it('refuses a folder that holds other files, naming `out`', async () => {
    const dir = await folder({ 'notes.txt': 'mine' });
    await expectKnowledgeError(exportKnowledgeBundle(example(), { out: dir }), {
      code: 'INVALID_INPUT',
      path: ['options', 'out'],
    });
    await expectKnowledgeError(exportKnowledgeBundle(example(), {} as unknown as { out: string }), {
      code: 'INVALID_INPUT',
      path: ['options', 'out'],
    });
  });

  it('refuses a source with files not served as they are, naming them', async () => {
    const source = example({ fileStatus: { previous: { exploration: 'a broken anchor' } } });
    const error = await expectKnowledgeError(buildKnowledgeBundle(source), {
      code: 'INVALID_INPUT',
      path: ['source'],
    });
    expect(error.message).toMatch(/pages\/agents\/exploration\.md` is previous_available/);
  });
});

describe('createStaticSource', () => {
  it('sees a new revision on its next call, and never mixes it with files kept of the old one', async () => {
    const one = await buildKnowledgeBundle(example(), { id: 'example' });
    const documents = exampleDocuments().map((d) =>
      d.id === 'exploration'
        ? {
            ...d,
            revision: `${d.revision}-2`,
            parts: ['Zebrafish appear only in the new revision.'],
          }
        : d,
    );
    const edited = createCatalogSource(
      defineKnowledgeCatalog(documents),
      exampleSourceOptions({ revision: 43 }),
    );
    const two = await buildKnowledgeBundle(edited, { id: 'example' });
    let files = one.files;
    const source = createStaticSource({ read: (p) => Promise.resolve(files.get(p) ?? null) });
    expect((await source.searchFiles({ query: 'zebrafish' })).items).toEqual([]);
    const cursor = (await source.listTree({ limit: 1 })).nextCursor!;
    files = two.files;
    const found = await source.searchFiles({ query: 'zebrafish' });
    expect(found.activeContentRevision).toBe(43);
    expect(found.items.map((i) => i.fileId)).toEqual(['exploration']);
    expect(found).toEqual(await edited.searchFiles({ query: 'zebrafish' }));
    await expectKnowledgeError(source.listTree({ cursor }), { code: 'STALE_CURSOR' });
  });

  it('says TRANSPORT_ERROR when the bundle cannot be read, INTERNAL when it is of another version', async () => {
    const empty = createStaticSource({ read: () => Promise.resolve(null) });
    await expectKnowledgeError(empty.listTree({}), {
      code: 'TRANSPORT_ERROR',
      message: /manifest\.json/,
    });
    const down = createStaticSource({
      baseUrl: 'http://127.0.0.1:9/kb/',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expectKnowledgeError(down.searchFiles({ query: 'x' }), {
      code: 'TRANSPORT_ERROR',
      message: /http:\/\/127\.0\.0\.1:9\/kb\//,
    });
    const { files } = await buildKnowledgeBundle(example(), { id: 'example' });
    const future = createStaticSource({
      read: (p) =>
        Promise.resolve(
          p === 'manifest.json'
            ? files.get(p)!.replace('"version":1', '"version":2')
            : (files.get(p) ?? null),
        ),
    });
    await expectKnowledgeError(future.getFile({ fileId: 'exploration' }), {
      code: 'INTERNAL',
      message: /version 1.*Export the bundle again/,
    });
  });

  it('reads files.json once per revision, and a page or graph file only for the calls that need it, once', async () => {
    const { files } = await buildKnowledgeBundle(example(), { id: 'example' });
    const reads: string[] = [];
    const source = createStaticSource({
      read: (p) => (reads.push(p), Promise.resolve(files.get(p) ?? null)),
    });
    // get_file lists the page's headings, so it reads that page (and no other).
    await source.getFile({ fileId: 'exploration' });
    expect(reads).toEqual(['manifest.json', '_index/files.json', 'pages/agents/exploration.md']);
    reads.length = 0;
    await source.getFile({ fileId: 'agent-tools' });
    await source.listTree({ parentPath: 'pages' });
    expect(reads).toEqual(['manifest.json', 'pages/agents/agent-tools.md', 'manifest.json']);
    reads.length = 0;
    // The page's document is kept for the revision: read_file reads only the manifest.
    await source.readFile({ fileId: 'agent-tools' });
    await source.readRelated({ fileId: 'agent-tools' });
    await source.readRelated({ fileId: 'agent-tools' });
    expect(reads).toEqual([
      'manifest.json',
      'manifest.json',
      '_graph/by-file/agent-tools.json',
      'manifest.json',
    ]);
  });

  it('says TRANSPORT_ERROR naming the shard when one fails during a search', async () => {
    const { files } = await buildKnowledgeBundle(example(), { id: 'example' });
    const source = createStaticSource({
      read: (p) =>
        p.includes('/postings-')
          ? Promise.reject(new Error('connection reset'))
          : Promise.resolve(files.get(p) ?? null),
    });
    await expectKnowledgeError(source.searchFiles({ query: 'stale cursor' }), {
      code: 'TRANSPORT_ERROR',
      message: /_index\/search\/postings-[0-9a-f]{16}\.json.*connection reset/,
    });
  });

  it('fetches bundle paths percent-encoded, once', async () => {
    const { files } = await buildKnowledgeBundle(
      createCatalogSource(defineKnowledgeCatalog(exampleDocuments()), {
        ...exampleSourceOptions(),
        files: {
          ...exampleSourceOptions().files!,
          exploration: { path: 'pages/agents/有界 探索.md' },
        },
      } as CatalogSourceOptions),
      { id: 'example' },
    );
    const urls: string[] = [];
    const source = createStaticSource({
      baseUrl: 'https://cdn.example/kb',
      fetch: async (request) => {
        urls.push(request.url);
        const path = decodeURIComponent(new URL(request.url).pathname.slice('/kb/'.length));
        const text = files.get(path);
        return text === undefined ? new Response('', { status: 404 }) : new Response(text);
      },
    });
    const read = await source.readFile({ path: 'pages/agents/有界 探索.md' });
    expect(read.content.length).toBeGreaterThan(0);
    expect(urls).toContain(
      `https://cdn.example/kb/pages/agents/${encodeURIComponent('有界 探索.md')}`,
    );
  });

  it('refuses options without exactly one of baseUrl and read, naming them', () => {
    expectKnowledgeError(() => createStaticSource({}), {
      code: 'INVALID_INPUT',
      path: ['options'],
    });
    expectKnowledgeError(
      () => createStaticSource({ baseUrl: 'https://x/', read: () => Promise.resolve(null) }),
      { code: 'INVALID_INPUT', path: ['options'] },
    );
    expectKnowledgeError(() => createStaticSource({ baseUrl: 'not a url' }), {
      code: 'INVALID_INPUT',
      path: ['options', 'baseUrl'],
    });
  });

  it('reads a folder given as a path through readBundleDirectory', async () => {
    const dir = await folder();
    const exported = example();
    await exportKnowledgeBundle(exported, { out: dir, id: 'example' });
    const source = createStaticSource({ read: readBundleDirectory(dir) });
    // The same output, its publishedAt included (the bundle recorded the exported source's).
    expect(await source.getFile({ fileId: 'exploration' })).toEqual(
      await exported.getFile({ fileId: 'exploration' }),
    );
    expect(await readBundleDirectory(dir)('../outside.json')).toBeNull();
    await writeFile(join(dir, 'manifest.json'), 'not json');
    await expectKnowledgeError(source.listTree({}), { code: 'INTERNAL' });
  });
});
