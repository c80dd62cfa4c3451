/**
 * Headings on real documentation (a VitePress guide, read in place from the shared corpus): every
 * heading read over MCP, over HTTP and from the PostgreSQL store (PGlite) returns exactly the slice
 * of the whole page between its offsets, as the catalog source does.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource, ReadFileOutput } from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { createKnowledgeClient } from '../../src/http/index.js';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { loadKnowledgeDirectory, type LoadedKnowledgeDirectory } from '../../src/node/index.js';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import { connectInMemory } from '../helpers/tools-mcp.js';
import { HOOK_TIMEOUT, openTestDatabase, type TestDatabase } from '../helpers/postgres-database.js';
import { timeless } from '../helpers/versions.js';

const guide = new URL(
  '../../../shared/corpus/markdown/vuejs+vitepress/docs/en/guide/',
  import.meta.url,
);
const present = existsSync(fileURLToPath(guide));

let loaded: LoadedKnowledgeDirectory;
let catalog: KnowledgeSource;
let store: KnowledgeSource;
let database: TestDatabase | undefined;
/** Pages with their headings and whole text, and a few headings to read on every transport. */
const reads: { fileId: string; heading: string; whole: string }[] = [];

beforeAll(async () => {
  if (!present) return;
  loaded = await loadKnowledgeDirectory(guide);
  catalog = createCatalogSource(loaded.catalog, { id: 'guide', revision: 1, files: loaded.files });
  database = await openTestDatabase('headings');
  await migrateKnowledgeStore(database.db, { schema: database.schema });
  await publishKnowledge(database.db, {
    knowledgeBase: 'guide',
    catalog: loaded.catalog,
    files: loaded.files,
    revision: 1,
    schema: database.schema,
  });
  store = createPostgresSource(database.db, { knowledgeBase: 'guide', schema: database.schema });
  for (const fileId of loaded.catalog.ids.slice(0, 6)) {
    const whole = (await catalog.readFile({ fileId })).content;
    const { headings } = await catalog.getFile({ fileId });
    // The first, a middle and the last heading of each page.
    const picked = new Set([0, headings.length >> 1, headings.length - 1]);
    for (const i of picked)
      if (headings[i] !== undefined) reads.push({ fileId, heading: headings[i]!.id, whole });
  }
}, HOOK_TIMEOUT);
afterAll(async () => database?.close(), HOOK_TIMEOUT);

/** The slice a heading read must return, from its offsets in code points of the whole page. */
const sliceOf = (whole: string, out: ReadFileOutput) =>
  [...whole].slice(out.file.heading!.start, out.file.heading!.end).join('');

describe.skipIf(!present)('heading reads on a VitePress guide', () => {
  it('the catalog source: every page has headings, and each read is its slice', async () => {
    expect(reads.length).toBeGreaterThan(6);
    for (const { fileId, heading, whole } of reads) {
      const out = await catalog.readFile({ fileId, heading });
      expect(out.content, `${fileId}#${heading}`).toBe(sliceOf(whole, out));
      expect(out.content.startsWith('#'), `${fileId}#${heading}`).toBe(true);
    }
  });

  it('the PostgreSQL store (PGlite): the same headings and the same reads', async () => {
    for (const { fileId, heading } of reads) {
      expect((await store.getFile({ fileId })).headings).toEqual(
        (await catalog.getFile({ fileId })).headings,
      );
      // Two sources: each its own publishedAt.
      expect(timeless(await store.readFile({ fileId, heading }))).toEqual(
        timeless(await catalog.readFile({ fileId, heading })),
      );
    }
  });

  it('HTTP: the heading query parameter reads the range', async () => {
    const handler = createKnowledgeHandler({
      access: () => ({ knowledgeBases: { guide: catalog } }),
    });
    for (const { fileId, heading, whole } of reads) {
      const response = await handler(
        new Request(
          `http://kb.test/knowledge-bases/guide/files/${encodeURIComponent(fileId)}/content?heading=${encodeURIComponent(heading)}`,
        ),
      );
      expect(response.status, `${fileId}#${heading}`).toBe(200);
      const body = (await response.json()) as ReadFileOutput;
      expect(body.file.heading!.id).toBe(heading);
      expect(body.content).toBe(sliceOf(whole, body));
    }
    // The client sends `heading` as the route's query parameter.
    const client = createKnowledgeClient({
      baseUrl: 'http://kb.test/knowledge-bases/guide',
      fetch: (request) => handler(request),
    });
    const { fileId, heading } = reads[0]!;
    const remote = await client.readFile({ fileId, heading });
    const local = await catalog.readFile({ fileId, heading });
    expect([remote.content, remote.file.heading, remote.file.snapshotId]).toEqual([
      local.content,
      local.file.heading,
      local.file.snapshotId,
    ]);
  });

  it('outline lists the headings of the folder, each indented by depth', async () => {
    const run = await cliInProcess(['outline', fileURLToPath(guide)]);
    expect(run.code).toBe(0);
    const { headings } = await catalog.getFile({ fileId: reads[0]!.fileId });
    for (const h of headings)
      expect(run.stdout).toContain(
        `${'  '.repeat(h.depth)}${'#'.repeat(h.depth)} ${h.text}  {#${h.id}}  ${h.chars}\n`,
      );
    expect(run.stdout).toMatch(/ \d+ headings\n$/);
  });

  it('MCP: read_file with heading returns the range', async () => {
    const { client, close } = await connectInMemory(
      createKnowledgeMcpServer(catalog, { name: 'guide', version: '1.0.0' }),
    );
    try {
      for (const { fileId, heading, whole } of reads) {
        const result = await client.callTool({
          name: 'read_file',
          arguments: { fileId, path: null, heading },
        });
        expect(result.isError, `${fileId}#${heading}`).toBe(false);
        const out = result.structuredContent as unknown as ReadFileOutput;
        expect(out.content).toBe(sliceOf(whole, out));
      }
    } finally {
      await close();
    }
  });

  it('search names the heading that holds the match on the store as on the catalog', async () => {
    for (const query of ['deploy static site', 'custom theme layout', 'frontmatter']) {
      const a = await catalog.searchFiles({ query });
      const b = await store.searchFiles({ query });
      expect(b.items.map((i) => [i.fileId, i.heading, i.sourceExcerpt])).toEqual(
        a.items.map((i) => [i.fileId, i.heading, i.sourceExcerpt]),
      );
      expect(
        a.items.some((i) => i.heading !== null),
        query,
      ).toBe(true);
    }
  });
});
