/**
 * The registry is the one place a tool is declared: a toy seventh tool, defined once (as a folder
 * would hold it) with its source method on a source, is served by the tool definitions, the MCP
 * server, the HTTP handler and the client, with no other change.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { rangeArg, stringArg } from '../../src/agent/tools/args.js';
import { defineTool } from '../../src/agent/tools/defineTool.js';
import { registryTools } from '../../src/agent/tools/knowledgeTools.js';
import { KNOWLEDGE_TOOLS } from '../../src/agent/tools/registry.js';
import { objectSchema, typed } from '../../src/agent/tools/schemas/common.js';
import { registerKnowledgeTools } from '../../src/mcp/index.js';
import { registryClient } from '../../src/http/createKnowledgeClient.js';
import { registryHandler } from '../../src/http/createKnowledgeHandler.js';
import { openScope, toToolError } from '../../src/agent/source/callScope.js';
import { readInput } from '../../src/agent/source/readInput.js';
import type { KnowledgeCallContext, KnowledgeSource } from '../../src/agent/index.js';

// --- The toy tool: what `src/agent/tools/countWords/` would hold. ---------------------------------

/** `count_words`: the number of words of a page (the toy's whole declaration). */
const countWordsTool = defineTool({
  name: 'count_words',
  method: 'countWords',
  title: 'Count words',
  description: 'Count the words of one page.',
  inputDescription: 'Arguments of count_words.',
  args: {
    fileId: stringArg({ description: 'The fileId of a page.', required: true, nonEmpty: true }),
    top: rangeArg(1, 5, 1, 'Longest words listed,'),
  },
  outputSchema: objectSchema(
    'The page and its word count.',
    {
      fileId: typed('string', 'The page.'),
      words: typed('integer', 'Its words.'),
      longest: { type: 'array', items: typed('string', 'A word.'), description: 'Longest first.' },
    },
    ['fileId', 'words', 'longest'],
  ),
  http: { routes: [{ id: 'words', path: '/files/:fileId/words' }] },
  client: { shape: { fileId: 'string' } },
});

const REGISTRY = [...KNOWLEDGE_TOOLS, countWordsTool];

// --- Its source method, on a catalog source. ------------------------------------------------------

interface CountWordsOutput {
  readonly fileId: string;
  readonly words: number;
  readonly longest: readonly string[];
}

type ToySource = KnowledgeSource & {
  countWords(input: unknown, context?: KnowledgeCallContext): Promise<CountWordsOutput>;
};

const catalog = defineKnowledgeCatalog([
  parseKnowledgeDocument({
    id: 'guide',
    revision: 'r1',
    text: '# Guide\n\nRenewal notices are sent thirty days ahead.\n',
  }),
]);
const base = createCatalogSource(catalog, { files: { guide: { path: 'pages/guide.md' } } });
const calls: unknown[] = [];
const source: ToySource = {
  ...base,
  async countWords(input, context) {
    calls.push(input);
    // The source's input check, derived from the same declaration as the schema.
    const scope = openScope('count_words' as never, context, {
      actionBase: '',
      knowledgeBaseId: '',
    });
    let args: Readonly<Record<string, unknown>>;
    try {
      args = readInput(scope, input, countWordsTool.rules);
    } catch (error) {
      throw toToolError(scope, error);
    }
    const fileId = args['fileId'] as string;
    const top = (args['top'] as number | undefined) ?? 1;
    const { content } = await base.readFile({ fileId }, context);
    const words = content.split(/\s+/).filter((w) => /\w/.test(w));
    const longest = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    return { fileId, words: words.length, longest: longest.slice(0, top) };
  },
};

/** What the source itself answers: every transport must give the same. */
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
          description: 'Longest words listed, 1..5; absent or null means 1.',
        },
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
    expect(await unknown.text()).toContain('This route takes `top`.');
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
    await expect(client.countWords({ fileId: 'guide', words: 1 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '`count_words` has no argument `words`. Its arguments: `fileId`, `top`.',
    });
    await expect(client.countWords({})).rejects.toMatchObject({
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
