/**
 * Versions over MCP: a versioned knowledge base's server instructions name its versions; its
 * resources list the default version's files at today's URIs first, then each other version's under
 * `knowledge:///versions/{label}/`, paged by the signed cursor across versions; a resource of a
 * version reads that version's page; a version it lacks is a resource error with
 * `VERSION_NOT_FOUND`. Over Streamable HTTP on a real loopback server, with the SDK v1 and v2 clients,
 * and in memory.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource, type KnowledgeSource } from '../../src/agent/index.js';
import { createVersionedSource } from '../../src/agent/versions/createVersionedSource.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import {
  createKnowledgeMcpServer,
  KNOWLEDGE_MCP_INSTRUCTIONS,
  KNOWLEDGE_RESOURCE_TEMPLATE,
  KNOWLEDGE_VERSION_RESOURCE_TEMPLATE,
  knowledgeFileUri,
} from '../../src/mcp/index.js';
import { knowledgeFilePath } from '../../src/mcp/resourceUri.js';
import { BILLING_PAGES, scenarioSource } from '../helpers/scenarioSources.js';
import { connectInMemory } from '../helpers/tools-mcp.js';
import { manyVersionedPages, versionedDocs } from '../helpers/versionedScenario.js';
import { connectHttp, textJson, type ClientKind, type RealClient } from './clients.js';

const docs = versionedDocs();
const many = manyVersionedPages();
let served: ServedKnowledge;
let base: string;

beforeAll(async () => {
  served = await serveKnowledge({
    handler: createKnowledgeHandler({ access: () => ({ knowledgeBases: { docs, many } }) }),
  });
  base = `${served.url}/knowledge-bases`;
});
afterAll(async () => served?.close());

/** Every resource of `client`'s listing, following its cursor. */
async function listAll(
  client: RealClient,
): Promise<{ uri: string; name: string; title?: string }[]> {
  const all: { uri: string; name: string; title?: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    all.push(...page.resources);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 20);
  return all;
}

describe('resource URIs of versions', () => {
  it('puts a version other than the default under knowledge:///versions/{label}/, and reads it back', () => {
    expect(knowledgeFileUri('pages/a b.md', undefined, '2.x')).toBe(
      'knowledge:///versions/2.x/pages/a%20b.md',
    );
    expect(knowledgeFileUri('pages/a.md', 'c1', '2.x')).toBe(
      'knowledge:///versions/2.x/pages/a.md?cursor=c1',
    );
    expect(knowledgeFilePath('knowledge:///versions/2.x/pages/a%20b.md?cursor=c1')).toEqual({
      path: 'pages/a b.md',
      cursor: 'c1',
      version: '2.x',
    });
    expect(knowledgeFilePath('knowledge:///pages/a.md')).toEqual({ path: 'pages/a.md' });
    expect(knowledgeFilePath('knowledge:///versions/2.x')).toMatch(
      /does not name a version and a file: it has no file path after the version/,
    );
    expect(knowledgeFilePath('knowledge:///versions/2%20x/index.md')).toMatch(
      /the version is not a label/,
    );
  });
});

describe('resource URIs of versions (property)', () => {
  const label = fc
    .string({
      unit: fc.constantFrom(...'ABCXYZabcxyz0189._-'.split('')),
      minLength: 1,
      maxLength: 64,
    })
    // `.` and `..` are not labels (a label names a folder and a URI segment).
    .filter((text) => text !== '.' && text !== '..');
  const segment = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((text) => !text.includes('/'));
  it('reads back the path, the cursor and the version of every URI it writes', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
        fc.option(label, { nil: undefined }),
        (segments, cursor, version) => {
          const path = segments.join('/');
          fc.pre(version !== undefined || segments[0] !== 'versions');
          expect(knowledgeFilePath(knowledgeFileUri(path, cursor, version))).toEqual({
            path,
            ...(cursor === undefined ? {} : { cursor }),
            ...(version === undefined ? {} : { version }),
          });
        },
      ),
      { seed: 20261207, numRuns: 400 },
    );
  });
});

describe.each<ClientKind>(['sdk-v1', 'sdk-v2'])(
  'a versioned knowledge base over {KB}/mcp (%s)',
  (kind) => {
    it('names the versions and the default in its instructions, and says to pass version', async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        const instructions = (client as unknown as { getInstructions(): string }).getInstructions();
        expect(instructions.startsWith(KNOWLEDGE_MCP_INSTRUCTIONS)).toBe(true);
        expect(instructions).toContain(
          'This knowledge base has versions: `3.x` (default), `2.x`. Every tool takes `version`',
        );
        expect(instructions).toContain('knowledge:///versions/2.x/index.md');
      } finally {
        await client.close();
      }
    });

    it("lists the default's files at today's URIs first, then 2.x's under knowledge:///versions/2.x/", async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        const uris = (await listAll(client)).map((resource) => resource.uri);
        const firstOther = uris.findIndex((uri) => uri.startsWith('knowledge:///versions/'));
        expect(uris.slice(0, 3)).toEqual([
          'knowledge:///pages/config.md',
          'knowledge:///pages/install.md',
          'knowledge:///pages/themes.md',
        ]);
        expect(uris.slice(0, firstOther)).toContain('knowledge:///index.md');
        expect(uris.slice(0, firstOther).every((uri) => !uri.includes('/versions/'))).toBe(true);
        expect(uris.slice(firstOther, firstOther + 3)).toEqual([
          'knowledge:///versions/2.x/pages/config.md',
          'knowledge:///versions/2.x/pages/install.md',
          'knowledge:///versions/2.x/pages/plugins.md',
        ]);
        expect(uris.slice(firstOther)).toContain('knowledge:///versions/2.x/index.md');
        expect(uris).not.toContain('knowledge:///versions/2.x/pages/themes.md');
        expect(uris).not.toContain('knowledge:///pages/plugins.md');
        expect(new Set(uris).size).toBe(uris.length);
      } finally {
        await client.close();
      }
    });

    it("reads a resource of a version from that version's page, and the default's at today's URI", async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        const old = await client.readResource({ uri: 'knowledge:///versions/2.x/pages/config.md' });
        expect(old.contents[0]!.text).toContain('legacyRoutes');
        expect(old.contents[0]!.text).not.toContain('cleanUrls');
        const current = await client.readResource({ uri: 'knowledge:///pages/config.md' });
        expect(current.contents[0]!.text).toContain('cleanUrls');
        const plugins = await client.readResource({
          uri: 'knowledge:///versions/2.x/pages/plugins.md',
        });
        expect(plugins.contents[0]!.text).toContain('Plugins extend the build.');
        // 3.x has no plugins page: not answered from 2.x.
        await expect(client.readResource({ uri: 'knowledge:///pages/plugins.md' })).rejects.toThrow(
          /NOT_FOUND/,
        );
      } finally {
        await client.close();
      }
    });

    it('refuses a version it lacks with a resource error carrying VERSION_NOT_FOUND and the versions', async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        await expect(
          client.readResource({ uri: 'knowledge:///versions/4.x/pages/config.md' }),
        ).rejects.toThrow(
          /VERSION_NOT_FOUND: `read_file`: this knowledge base has no version `4\.x`\. Its versions: `3\.x` \(default\), `2\.x`/,
        );
      } finally {
        await client.close();
      }
    });

    it("answers the same question from each version's own pages through the tools' version argument", async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        const tools = await client.listTools();
        for (const tool of tools.tools)
          expect(
            (tool.inputSchema as { properties: Record<string, unknown> }).properties,
            tool.name,
          ).toHaveProperty('version');
        const read = async (version?: string) =>
          (
            await client.callTool({
              name: 'read_file',
              arguments: { path: 'pages/config.md', ...(version === undefined ? {} : { version }) },
            })
          ).structuredContent as { file: { version: string }; content: string };
        const old = await read('2.x');
        expect(old.file.version).toBe('2.x');
        expect(old.content).toContain('legacyRoutes');
        const current = await read();
        expect(current.file.version).toBe('3.x');
        expect(current.content).toContain('cleanUrls');
        const search = async (version: string) =>
          (
            await client.callTool({
              name: 'search_files',
              arguments: { query: 'plugins', version },
            })
          ).structuredContent as { version: string; items: { path: string }[] };
        const hits2 = await search('2.x');
        expect(hits2.version).toBe('2.x');
        expect(hits2.items.map((item) => item.path)).toContain('pages/plugins.md');
        const hits3 = await search('3.x');
        expect(hits3.version).toBe('3.x');
        expect(hits3.items.map((item) => item.path)).not.toContain('pages/plugins.md');
      } finally {
        await client.close();
      }
    });

    it('answers a version the knowledge base lacks with an isError result carrying VERSION_NOT_FOUND', async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        const reply = await client.callTool({
          name: 'search_files',
          arguments: { query: 'config', version: '4.x' },
        });
        expect(reply.isError).toBe(true);
        const body = textJson(reply) as {
          error: { code: string; httpStatus: number; message: string };
        };
        expect(body.error.code).toBe('VERSION_NOT_FOUND');
        expect(body.error.httpStatus).toBe(404);
        expect(body.error.message).toContain('`3.x` (default), `2.x`');
      } finally {
        await client.close();
      }
    });

    it('lists the version template beside the default one', async () => {
      const { client } = await connectHttp(kind, `${base}/docs/mcp`);
      try {
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
          KNOWLEDGE_RESOURCE_TEMPLATE,
          KNOWLEDGE_VERSION_RESOURCE_TEMPLATE,
        ]);
      } finally {
        await client.close();
      }
    });

    it('pages a listing of three versions with its cursor: every file of every version once, the default first', async () => {
      const { client } = await connectHttp(kind, `${base}/many/mcp`);
      try {
        const resources = await listAll(client);
        const uris = resources.map((resource) => resource.uri);
        expect(new Set(uris).size).toBe(uris.length);
        const pagesOf = (prefix: string) =>
          uris.filter((uri) => uri.startsWith(`knowledge:///${prefix}pages/`)).length;
        expect([pagesOf(''), pagesOf('versions/a/'), pagesOf('versions/c/')]).toEqual([30, 30, 30]);
        expect(uris).not.toContain('knowledge:///versions/b/pages/p00.md');
        // The default, then a, then c: the order the knowledge base lists its versions in.
        const at = (uri: string) => uris.indexOf(uri);
        expect(at('knowledge:///pages/p29.md')).toBeLessThan(
          at('knowledge:///versions/a/pages/p00.md'),
        );
        expect(at('knowledge:///versions/a/index.md')).toBeLessThan(
          at('knowledge:///versions/c/pages/p00.md'),
        );
        const c = resources.find(
          (resource) => resource.uri === 'knowledge:///versions/c/pages/p07.md',
        )!;
        expect(c.name).toBe('versions/c/pages/p07.md');
        expect(c.title).toBe('Page 7 of c (c)');
        const read = await client.readResource({ uri: c.uri });
        expect(read.contents[0]!.text).toContain('This is version c.');
      } finally {
        await client.close();
      }
    });
  },
);

describe('in memory (createKnowledgeMcpServer)', () => {
  it('keeps the instructions of a source without versions as they are, and adds the versions after given ones', async () => {
    const plain = await connectInMemory(
      createKnowledgeMcpServer(scenarioSource(BILLING_PAGES), { name: 'plain', version: '1.0.0' }),
    );
    expect(plain.client.getInstructions()).toBe(KNOWLEDGE_MCP_INSTRUCTIONS);
    const templates = await plain.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      KNOWLEDGE_RESOURCE_TEMPLATE,
    ]);
    await plain.close();
    const custom = await connectInMemory(
      createKnowledgeMcpServer(versionedDocs(), {
        name: 'docs',
        version: '9.9.9',
        instructions: 'Read the docs.',
      }),
    );
    expect(custom.client.getInstructions()).toMatch(
      /^Read the docs\.\n\nThis knowledge base has versions: `3\.x` \(default\), `2\.x`\./,
    );
    // The server's software version is not a knowledge base version.
    expect(custom.client.getServerVersion()?.version).toBe('9.9.9');
    await custom.close();
  });

  it('reads a long page of a version in parts whose next URI stays in that version, and follows it', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(20)}`);
    const text = `# Long\n\n${paragraphs.join('\n\n')}\n`;
    const long = (label: string) =>
      createCatalogSource(
        defineKnowledgeCatalog([
          parseKnowledgeDocument({
            id: 'long',
            revision: '1',
            text: text.replace('# Long', `# Long ${label}`),
          }),
        ]),
        { id: 'long', files: { long: { path: 'pages/long.md' } }, maxReadChars: 1000 },
      );
    const source = createVersionedSource({
      versions: { new: long('new'), old: long('old') },
      default: 'new',
    });
    const { client, close } = await connectInMemory(
      createKnowledgeMcpServer(source, { name: 'long', version: '1.0.0', resourceMaxChars: 1500 }),
    );
    try {
      let uri: string | undefined = 'knowledge:///versions/old/pages/long.md';
      let whole = '';
      let reads = 0;
      while (uri !== undefined && reads < 10) {
        const read = await client.readResource({ uri });
        const content = read.contents[0]!;
        const meta = content._meta as Record<string, unknown>;
        expect(meta['knowledge-kit/version']).toBe('old');
        const next = meta['knowledge-kit/nextUri'] as string | undefined;
        const text = 'text' in content ? content.text : '';
        if (next !== undefined) {
          expect(next).toMatch(/^knowledge:\/\/\/versions\/old\/pages\/long\.md\?cursor=/);
          whole += text.slice(0, text.indexOf('\n\n---\n\n> **Cut here.**'));
        } else whole += text;
        uri = next;
        reads++;
      }
      expect(reads).toBeGreaterThan(1);
      // The parts concatenate to the old version's whole page, every paragraph once.
      expect(whole.startsWith('# Long old\n\nParagraph 0 ')).toBe(true);
      expect(whole).not.toContain('Long new');
      expect(whole.split('Paragraph ').length - 1).toBe(40);
      expect(whole.trimEnd()).toBe(text.replace('# Long', '# Long old').trimEnd());
    } finally {
      await close();
    }
  });

  it('a listing paged across a reload of any version (not only the default) is STALE_CURSOR', async () => {
    const pages = (label: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `p${i}`,
        path: `pages/p${i}.md`,
        text: `# Page ${i}\n\nVersion ${label}.\n`,
      }));
    let old: KnowledgeSource = scenarioSource(pages('old', 40), 'kb', 'rev-old-1');
    const reloading = new Proxy({} as KnowledgeSource, {
      get: (_, key) => {
        const value = (old as unknown as Record<string | symbol, unknown>)[key];
        return typeof value === 'function' ? value.bind(old) : value;
      },
      ownKeys: () => Reflect.ownKeys(old),
      getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(old, key),
    });
    const source = createVersionedSource({
      versions: { new: scenarioSource(pages('new', 40), 'kb', 'rev-new'), old: reloading },
      default: 'new',
    });
    // The SDK v1 client pages resources/list by hand (the v2 client follows the cursor itself).
    const server = createKnowledgeMcpServer(source, { name: 'kb', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'v1-cursors', version: '1.0.0' });
    await client.connect(clientSide as never);
    const close = async () => {
      await client.close();
      await server.close();
    };
    try {
      const first = await client.listResources();
      expect(first.nextCursor).toBeDefined();
      const second = await client.listResources({ cursor: first.nextCursor! });
      expect(second.resources.length).toBeGreaterThan(0);
      old = scenarioSource(pages('old, edited', 40), 'kb', 'rev-old-2');
      await expect(client.listResources({ cursor: first.nextCursor! })).rejects.toThrow(
        /STALE_CURSOR: `resources\/list`: the knowledge base changed since this cursor was issued/,
      );
    } finally {
      await close();
    }
  });
});
