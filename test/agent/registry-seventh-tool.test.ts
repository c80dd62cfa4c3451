/**
 * The registry is the one place a tool is declared: a toy seventh tool, defined in one folder
 * (`helpers/countWords/`: its schema, body and read plan) and added to a registry in one line, is
 * served by every source (the catalog source, a static bundle, the PostgreSQL store) with no method
 * written for it, and by the tool definitions, the MCP server, the HTTP handler and the client.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import {
  createCatalogSource,
  registryCatalogSource,
} from '../../src/agent/source/createCatalogSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import { registryStaticSource } from '../../src/agent/static/createStaticSource.js';
import type { KnowledgeSource, ToolMethods } from '../../src/agent/tools/knowledgeSource.js';
import { registryTools } from '../../src/agent/tools/knowledgeTools.js';
import { KNOWLEDGE_TOOLS } from '../../src/agent/tools/registry.js';
import { VERSION_ARG } from '../../src/agent/tools/args.js';
import type { KnowledgeCallContext } from '../../src/agent/index.js';
import { registerKnowledgeTools } from '../../src/mcp/index.js';
import { registryClient } from '../../src/http/createKnowledgeClient.js';
import { registryHandler } from '../../src/http/createKnowledgeHandler.js';
import { registryPostgresSource } from '../../src/postgres/createPostgresSource.js';
import { migrateKnowledgeStore, publishKnowledge } from '../../src/postgres/index.js';
import { HOOK_TIMEOUT, openTestDatabase, type TestDatabase } from '../helpers/postgres-database.js';
import {
  COUNT_WORDS_CALLS as calls,
  countWordsTool,
  type CountWordsInput,
  type CountWordsOutput,
} from '../helpers/countWords/definition.js';

// The one line a registry needs.
const REGISTRY = [...KNOWLEDGE_TOOLS, countWordsTool] as const;

/** A source serving the toy: its type is derived from the registry too. */
type ToySource = KnowledgeSource & ToolMethods<typeof REGISTRY>;

const catalog = defineKnowledgeCatalog([
  parseKnowledgeDocument({
    id: 'guide',
    revision: 'r1',
    text: '# Guide\n\nRenewal notices are sent thirty days ahead.\n',
  }),
]);
const files = { guide: { path: 'pages/guide.md' } };
const source = registryCatalogSource(REGISTRY, catalog, { files }) as ToySource;
const base = createCatalogSource(catalog, { files });

/** What the catalog source answers: every other source and transport must give the same. */
const EXPECTED = await source.countWords({ fileId: 'guide', top: 2 });

describe('a seventh tool, declared once', () => {
  it('is defined by the tools, after the six, with its derived input schema', async () => {
    expect(EXPECTED.words).toBeGreaterThan(0);
    const tools = registryTools(REGISTRY, source);
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_files',
      'read_file',
      'list_tree',
      'get_file',
      'read_related',
      'expand_graph',
      'count_words',
    ]);
    const tool = tools[6]!;
    expect(tool.inputSchema).toEqual({
      type: 'object',
      description: 'Arguments of count_words.',
      properties: {
        fileId: { type: 'string', description: 'The fileId of a page.' },
        top: {
          type: 'integer',
          minimum: 1,
          maximum: 5,
          description: 'Longest words listed, 1..5, default 1.',
        },
        // Every tool takes `version` (`defineTool` adds it).
        version: VERSION_ARG.schema,
      },
      required: ['fileId'],
      additionalProperties: false,
    });
    expect(await tool.execute({ fileId: 'guide', top: 2 })).toEqual({
      isError: false,
      structuredContent: EXPECTED,
    });
    // `include` knows it too, and a source without its method is refused by name.
    expect(registryTools(REGISTRY, source, { include: ['count_words' as never] })).toHaveLength(1);
    expect(() => registryTools(REGISTRY, base)).toThrow(/no `countWords` method/);
  });

  it('is served by the MCP server', async () => {
    const server = registerKnowledgeTools(
      new McpServer({ name: 'toy', version: '1.0.0' }),
      registryTools(REGISTRY, source),
    );
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientTransport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('count_words');
      const result = await client.callTool({
        name: 'count_words',
        arguments: { fileId: 'guide', top: 2 },
      });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toEqual(EXPECTED);
    } finally {
      await client.close();
      await server.close();
    }
  });

  const handler = registryHandler(REGISTRY, { access: () => ({ knowledgeBases: { kb: source } }) });

  it('is served by the HTTP handler, on its route, with its parameters read by their kind', async () => {
    const response = await handler(
      new Request('http://kb.test/knowledge-bases/kb/files/guide/words?top=2'),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(EXPECTED);
    const bad = await handler(
      new Request('http://kb.test/knowledge-bases/kb/files/guide/words?top=x'),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Query parameter `top` must be a whole number');
    const unknown = await handler(
      new Request('http://kb.test/knowledge-bases/kb/files/guide/words?n=1'),
    );
    expect(await unknown.text()).toContain('This route takes `top`, `version`.');
    const missing = await handler(new Request('http://kb.test/nowhere'));
    expect(await missing.text()).toContain(
      '/search?query=, /files/{fileId}/words under a knowledge base.',
    );
  });

  it('is a method of the client, over the handler', async () => {
    const client = registryClient(REGISTRY, {
      baseUrl: 'http://kb.test/knowledge-bases/kb',
      fetch: (request) => handler(request),
    }) as unknown as ToySource;
    calls.length = 0;
    expect(await client.countWords({ fileId: 'guide', top: 2 })).toEqual(EXPECTED);
    expect(calls).toEqual([{ top: 2, fileId: 'guide' }]);
    expect(EXPECTED).toEqual({ fileId: 'guide', words: 8, longest: ['Renewal', 'notices'] });
    await expect(
      client.countWords({ fileId: 'guide', words: 1 } as CountWordsInput),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '`count_words` has no argument `words`. Its arguments: `fileId`, `top`, `version`.',
    });
    await expect(client.countWords({} as CountWordsInput)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '`count_words` needs `fileId`: a non-empty string.',
    });
    // Its range comes from its one declaration: checked by the source, through HTTP.
    await expect(client.countWords({ fileId: 'guide', top: 9 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '`count_words`: `top` must be an integer from 1 to 5, not 9.',
    });
    // The six are still there.
    expect((await client.searchFiles({ query: 'renewal notices' })).items[0]?.fileId).toBe('guide');
  });
});

/** The code and message a call rejects with (a call that resolves fails the test). */
async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error('the call resolved; it should have been refused');
}

describe('a seventh tool, served by every source from its folder', () => {
  let test: TestDatabase;
  let stored: ToySource;
  let bundled: ToySource;

  beforeAll(async () => {
    const bundle = await buildKnowledgeBundle(base, { id: 'kb' });
    bundled = registryStaticSource(REGISTRY, {
      read: async (path) => bundle.files.get(path) ?? null,
    }) as ToySource;
    test = await openTestDatabase('seventh');
    await migrateKnowledgeStore(test.db, { schema: test.schema });
    await publishKnowledge(test.db, { knowledgeBase: 'kb', catalog, files, schema: test.schema });
    stored = registryPostgresSource(REGISTRY, test.db, {
      knowledgeBase: 'kb',
      schema: test.schema,
    }) as ToySource;
  }, HOOK_TIMEOUT);
  afterAll(async () => test?.close(), HOOK_TIMEOUT);

  it('has a typed method on every source, derived from its body', () => {
    expectTypeOf<ToySource['countWords']>().toEqualTypeOf<
      (input: CountWordsInput, context?: KnowledgeCallContext) => Promise<CountWordsOutput>
    >();
  });

  it('is answered by the static and PostgreSQL sources as by the catalog source', async () => {
    for (const [name, other] of [
      ['static', bundled],
      ['postgres', stored],
    ] as const) {
      expect(await other.countWords({ fileId: 'guide', top: 2 }), name).toEqual(EXPECTED);
      // Its refusals are the catalog source's too: a missing page, a navigation file, a bad argument.
      for (const input of [
        { fileId: 'gone' },
        { fileId: 'index.md' },
        { fileId: 'guide', top: 9 },
      ]) {
        const want = await refusal(source.countWords(input));
        expect(want.code).toMatch(/^(NOT_FOUND|INVALID_ARGUMENT)$/);
        expect(await refusal(other.countWords(input)), `${name} ${input.fileId}`).toEqual(want);
      }
      // The six are still there.
      expect((await other.getFile({ fileId: 'guide' })).path, name).toBe('pages/guide.md');
    }
  });

  it('is served over HTTP and by the client from the static and PostgreSQL sources', async () => {
    const handler = registryHandler(REGISTRY, {
      access: () => ({ knowledgeBases: { bundled, stored } }),
    });
    for (const kb of ['bundled', 'stored']) {
      const response = await handler(
        new Request(`http://kb.test/knowledge-bases/${kb}/files/guide/words?top=2`),
      );
      expect(response.status, kb).toBe(200);
      expect(await response.json(), kb).toEqual(EXPECTED);
      const client = registryClient(REGISTRY, {
        baseUrl: `http://kb.test/knowledge-bases/${kb}`,
        fetch: (request) => handler(request),
      }) as unknown as ToySource;
      expect(await client.countWords({ fileId: 'guide', top: 2 }), kb).toEqual(EXPECTED);
    }
  });
});
