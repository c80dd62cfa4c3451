/**
 * Heading reads and search filters on real documentation (VitePress's docs, English and Chinese side
 * by side, read in place from the shared corpus) over the transports the PostgreSQL test does not
 * cover: a static bundle served by a plain file server on loopback, the HTTP API on a real
 * `node:http` server on loopback (through the client), and MCP through the official client. Each
 * heading read returns exactly the slice of the whole page between the heading's offsets, as the
 * catalog source does; `pathPrefix` and `locale` narrow a search the same way everywhere.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import type {
  KnowledgeSource,
  ReadFileOutput,
  SearchFilesInput,
  SearchFilesOutput,
} from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { createKnowledgeClient } from '../../src/http/index.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { exportKnowledgeBundle, loadKnowledgeDirectory } from '../../src/node/index.js';
import { serveStaticFolder, type StaticServer } from '../helpers/staticServer.js';
import { connectInMemory } from '../helpers/tools-mcp.js';

const docs = new URL('../../../shared/corpus/markdown/vuejs+vitepress/', import.meta.url);
const present = existsSync(fileURLToPath(docs));

let catalog: KnowledgeSource;
let bundleDir: string | undefined;
let files: StaticServer | undefined;
let bundle: KnowledgeSource;
let api: ServedKnowledge | undefined;
let client: KnowledgeSource;
/** A few headings of a few pages, English and Chinese, with each page's whole text. */
const reads: { fileId: string; heading: string; whole: string }[] = [];

beforeAll(async () => {
  if (!present) return;
  const loaded = await loadKnowledgeDirectory(docs);
  catalog = createCatalogSource(loaded.catalog, { id: 'docs', revision: 1, files: loaded.files });
  bundleDir = await mkdtemp(join(tmpdir(), 'kk-headings-bundle-'));
  await exportKnowledgeBundle(catalog, { out: bundleDir, id: 'docs' });
  files = await serveStaticFolder(bundleDir);
  bundle = createStaticSource({ baseUrl: files.url });
  api = await serveKnowledge({
    handler: createKnowledgeHandler({ access: () => ({ knowledgeBases: { docs: catalog } }) }),
  });
  client = createKnowledgeClient({ baseUrl: `${api.url}/knowledge-bases/docs` });
  const ids = loaded.catalog.ids;
  const picked = [
    ...ids.filter((id) => id.startsWith('docs/en/guide/')).slice(0, 2),
    ...ids.filter((id) => id.startsWith('docs/zh/guide/')).slice(0, 2),
  ];
  for (const fileId of picked) {
    const whole = (await catalog.readFile({ fileId, maxChars: 1_000_000 })).content;
    const { headings } = await catalog.getFile({ fileId });
    for (const i of new Set([0, headings.length >> 1, headings.length - 1]))
      if (headings[i] !== undefined) reads.push({ fileId, heading: headings[i]!.id, whole });
  }
}, 120_000);

afterAll(async () => {
  await api?.close();
  await files?.close();
  if (bundleDir !== undefined) await rm(bundleDir, { recursive: true, force: true });
});

/** The slice a heading read must return, from its offsets in code points of the whole page. */
const sliceOf = (whole: string, out: ReadFileOutput) =>
  [...whole].slice(out.file.heading!.start, out.file.heading!.end).join('');

/** What a search answers, transport aside: each item's path, heading and excerpt, and the status. */
const shown = (out: SearchFilesOutput) => ({
  status: out.searchStatus,
  items: out.items.map((i) => [i.path, i.heading?.id ?? null, i.sourceExcerpt]),
});

const SEARCHES: readonly SearchFilesInput[] = [
  { query: 'markdown extensions frontmatter', pathPrefix: 'pages/docs/zh/' },
  { query: 'markdown extensions frontmatter', pathPrefix: ['pages/docs/en/guide/'] },
  { query: 'deploy', pathPrefix: ['pages/docs/en/guide/', 'pages/docs/zh/guide/'] },
  { query: 'deploy', locale: 'en' },
];

describe.skipIf(!present)('heading reads and filters on VitePress’s docs, every transport', () => {
  it('the pages have headings, and the catalog reads each as its slice', async () => {
    expect(reads.length).toBeGreaterThanOrEqual(8);
    for (const { fileId, heading, whole } of reads) {
      const out = await catalog.readFile({ fileId, heading, maxChars: 1_000_000 });
      expect(out.content, `${fileId}#${heading}`).toBe(sliceOf(whole, out));
    }
  });

  it('a static bundle on a file server: the same headings, reads and filtered searches', async () => {
    for (const { fileId, heading, whole } of reads) {
      expect((await bundle.getFile({ fileId })).headings).toEqual(
        (await catalog.getFile({ fileId })).headings,
      );
      const out = await bundle.readFile({ fileId, heading, maxChars: 1_000_000 });
      expect(out.content, `${fileId}#${heading}`).toBe(sliceOf(whole, out));
      expect(out).toEqual(await catalog.readFile({ fileId, heading, maxChars: 1_000_000 }));
    }
    for (const search of SEARCHES)
      expect(shown(await bundle.searchFiles(search)), JSON.stringify(search)).toEqual(
        shown(await catalog.searchFiles(search)),
      );
  });

  it('HTTP on node:http (the client): the same reads and filtered searches', async () => {
    for (const { fileId, heading, whole } of reads) {
      const out = await client.readFile({ fileId, heading, maxChars: 1_000_000 });
      expect(out.file.heading?.id).toBe(heading);
      expect(out.content, `${fileId}#${heading}`).toBe(sliceOf(whole, out));
    }
    for (const search of SEARCHES)
      expect(shown(await client.searchFiles(search)), JSON.stringify(search)).toEqual(
        shown(await catalog.searchFiles(search)),
      );
    // A filter that keeps no page says which one.
    const none = await client.searchFiles({ query: 'deploy', locale: 'en' });
    expect(none.searchStatus).toBe('no_candidates');
    expect(none.message).toMatch(/^The filter locale "en" keeps no page/);
  });

  it('MCP (official client): read_file with heading, search_files with the filters', async () => {
    const { client: mcp, close } = await connectInMemory(
      createKnowledgeMcpServer(catalog, { name: 'docs', version: '1.0.0' }),
    );
    try {
      for (const { fileId, heading, whole } of reads) {
        const result = await mcp.callTool({
          name: 'read_file',
          arguments: { fileId, path: null, heading, maxChars: 1_000_000 },
        });
        expect(result.isError, `${fileId}#${heading}`).toBe(false);
        const out = result.structuredContent as unknown as ReadFileOutput;
        expect(out.content).toBe(sliceOf(whole, out));
      }
      for (const search of SEARCHES) {
        const result = await mcp.callTool({ name: 'search_files', arguments: { ...search } });
        expect(result.isError, JSON.stringify(search)).toBe(false);
        expect(shown(result.structuredContent as unknown as SearchFilesOutput)).toEqual(
          shown(await catalog.searchFiles(search)),
        );
      }
    } finally {
      await close();
    }
  });
});

if (!present) it.skip('the Markdown corpus is absent', () => {});
