/**
 * The tools, the MCP server and exploration run on a static bundle as on the catalog source; and
 * `knowledge-kit export` writes the bundle the library writes for the same folder.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callKnowledgeTool, knowledgeTools } from '../../src/agent/index.js';
import { startExploration } from '../../src/agent/exploration/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { exportKnowledgeDirectory, readBundleDirectory } from '../../src/node/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { connectInMemory } from '../helpers/tools-mcp.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { HANDBOOK, treeOf } from '../helpers/cli-knowledge.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { exportKnowledgeBundle } from '../../src/node/index.js';
import { serveStaticFolder, type StaticServer } from '../helpers/staticServer.js';
import { timeless } from '../helpers/versions.js';

/** A bundle file's text with the manifest's `publishedAt` (a load time) written as one placeholder. */
const sameTime = (text: string): string =>
  text.replace(/"publishedAt":"[^"]*"/, '"publishedAt":"<publishedAt>"');

const temp = useTempFolders({ removeAfter: 'all', prefix: 'kk-static-' });
const reference = (): KnowledgeSource =>
  createCatalogSource(exampleCatalog(), exampleSourceOptions());
let server: StaticServer;
let source: KnowledgeSource;

beforeAll(async () => {
  const dir = await temp();
  await exportKnowledgeBundle(reference(), { out: dir, id: 'example' });
  server = await serveStaticFolder(dir);
  source = createStaticSource({ baseUrl: server.url });
});
afterAll(async () => server?.close());

describe('a static bundle behind the agent layers', () => {
  it('answers the tools as the catalog source does', async () => {
    const tools = knowledgeTools(source);
    const expected = knowledgeTools(reference());
    for (const [name, input] of [
      ['search_files', { query: 'How do agents read anchored Markdown?' }],
      ['read_file', { path: 'pages/anchored-markdown.md', sectionIds: ['reads'] }],
      ['list_tree', { parentPath: 'pages' }],
      ['get_file', { fileId: 'exploration' }],
      ['read_related', { fileId: 'agent-tools' }],
      ['expand_graph', { fileId: 'agent-tools', depth: 2 }],
      ['read_file', { fileId: 'missing' }],
    ] as const) {
      const [got, want] = await Promise.all([
        callKnowledgeTool(tools, name, input),
        callKnowledgeTool(expected, name, input),
      ]);
      // The bundle and the reference are two sources: each its own publishedAt.
      const strip = (r: typeof got) =>
        timeless(JSON.parse(JSON.stringify(r).replace(/"requestId":"[^"]*"/g, '"requestId":"-"')));
      expect(strip(got), name).toEqual(strip(want));
    }
  });

  it('serves MCP: the SDK client lists the tools and gets a search and a read', async () => {
    const { client, close } = await connectInMemory(
      createKnowledgeMcpServer(source, { name: 'kb', version: '1.0.0' }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_files');
      const found = await client.callTool({
        name: 'search_files',
        arguments: { query: 'When does exploration stop?' },
      });
      expect(found.isError).toBeFalsy();
      const items = (found.structuredContent as { items: { fileId: string }[] }).items;
      expect(items.length).toBeGreaterThan(0);
      const read = await client.callTool({
        name: 'read_file',
        arguments: { fileId: items[0]!.fileId },
      });
      expect((read.structuredContent as { content: string }).content).toBe(
        (await reference().readFile({ fileId: items[0]!.fileId })).content,
      );
    } finally {
      await close();
    }
  });

  it('runs exploration: search, read, follow-up, as on the catalog source', async () => {
    const question = 'How do agents read anchored Markdown?';
    const mine = startExploration(source, { question });
    const theirs = startExploration(reference(), { question });
    const [a, b] = await Promise.all([mine.search(), theirs.search()]);
    expect(timeless(a)).toEqual(timeless({ ...b }));
    const fileId = a.items[0]!.fileId;
    const [c, d] = await Promise.all([mine.read({ fileId }), theirs.read({ fileId })]);
    expect(timeless(c)).toEqual(timeless(d));
  });
});

describe('knowledge-kit export', () => {
  beforeAll(requireBuiltCli);

  it('writes the bundle exportKnowledgeDirectory writes, and says what it wrote', async () => {
    const root = await temp(treeOf(HANDBOOK));
    const [viaCli, viaLibrary] = [join(await temp(), 'bundle'), await temp()];
    const run = await runCli(['export', root, '--out', viaCli, '--id', 'handbook']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^exported handbook at revision "rev-[0-9a-f]+" to .*: \d+ pages, \d+ files written, 0 unchanged, 0 removed\n$/,
    );
    await exportKnowledgeDirectory(root, { out: viaLibrary, id: 'handbook' });
    const list = async (dir: string) =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length))
        .sort();
    const files = await list(viaCli);
    expect(files).toEqual(await list(viaLibrary));
    for (const file of files)
      // Each export loaded the folder at its own time: the manifests' publishedAt differ.
      expect(sameTime(await readFile(join(viaCli, file), 'utf8')), file).toBe(
        sameTime(await readFile(join(viaLibrary, file), 'utf8')),
      );
    const again = await runCli(['export', root, '--out', viaCli, '--id', 'handbook']);
    expect(again.stdout).toMatch(/ 0 files written, \d+ unchanged, 0 removed\n$/);
    const bundle = createStaticSource({ read: readBundleDirectory(viaCli) });
    expect((await bundle.searchFiles({ query: 'returns' })).searchStatus).toBe('ok');
  });

  it('exits 2 with one line without --out, and 1 with the problems of a broken folder', async () => {
    const usage = await runCli(['export', '.']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^knowledge-kit export: needs a folder and --out/);
    const broken = await temp({ 'a.md': '<!-- agent-section:x -->\nopen\n' });
    const run = await runCli(['export', broken, '--out', join(broken, 'out')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/UNCLOSED_SECTION/);
    const help = await runCli(['export', '--help']);
    expect(help.stdout).toMatch(/^Usage: knowledge-kit export <dir> --out <folder>/);
  });
});
