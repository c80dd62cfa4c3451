/**
 * The search filters over the transports, all from the one tool definition: HTTP query parameters of
 * the same names on a real `node:http` server on loopback (`pathPrefix` and `tags` repeated once per
 * item, `locale` once), the client (a list sent as repeated parameters), and MCP (`tools/call` with a
 * string or a list, and the listed input schema).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import type { KnowledgeClient } from '../../src/http/types.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { connectInMemory } from '../helpers/tools-mcp.js';
import { BASE_PATH, exampleHandler, exampleSource, READER } from '../helpers/exampleHandler.js';

const QUERY = 'search agents cursors catalog snapshots';

let served: ServedKnowledge;
let kbUrl: string;
let client: KnowledgeClient;

beforeAll(async () => {
  served = await serveKnowledge({ handler: exampleHandler() });
  kbUrl = `${served.url}${BASE_PATH}/knowledge-bases/example`;
  client = createKnowledgeClient({ baseUrl: kbUrl, headers: READER });
});

afterAll(async () => {
  await served?.close();
});

/** A GET on the knowledge base's search route with `params`, as JSON. */
async function search(params: [string, string][]): Promise<{ status: number; body: any }> {
  const url = `${kbUrl}/search?${new URLSearchParams(params).toString()}`;
  const response = await fetch(url, { headers: READER });
  return { status: response.status, body: await response.json() };
}

/** Path and score of each item. */
const ranked = (body: { readonly items: readonly { path: string; score: number }[] }) =>
  body.items.map((i) => [i.path, i.score]);

describe('search filters over HTTP, the client and MCP', () => {
  it('HTTP: repeated tags and pathPrefix, and locale, answer as the source', async () => {
    const tags = await search([
      ['query', QUERY],
      ['tags', 'agents'],
      ['tags', 'search'],
      ['limit', '50'],
    ]);
    expect(tags.status).toBe(200);
    expect(ranked(tags.body)).toEqual(
      ranked(
        await exampleSource().searchFiles({ query: QUERY, tags: ['agents', 'search'], limit: 50 }),
      ),
    );
    expect(tags.body.items.map((i: { path: string }) => i.path).sort()).toEqual([
      'pages/agents/agent-tools.md',
      'pages/agents/exploration.md',
    ]);
    const prefixes = await search([
      ['query', QUERY],
      ['pathPrefix', 'pages/agents/agent'],
      ['pathPrefix', 'pages/anchored'],
      ['locale', 'en'],
    ]);
    expect(prefixes.body.items.map((i: { path: string }) => i.path).sort()).toEqual([
      'pages/agents/agent-tools.md',
      'pages/anchored-markdown.md',
    ]);
    const none = await search([
      ['query', QUERY],
      ['pathPrefix', 'guide/'],
    ]);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ searchStatus: 'no_candidates', items: [] });
    expect(none.body.message).toMatch(/^The filter pathPrefix "guide\/" keeps no page/);
  });

  it('HTTP: bad filter values are 400 INVALID_ARGUMENT naming the parameter; locale once', async () => {
    const empty = await search([
      ['query', QUERY],
      ['tags', 'agents'],
      ['tags', ''],
    ]);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(empty.body.error.message).toMatch(/`tags\[1\]` must be a non-empty string/);
    const slash = await search([
      ['query', QUERY],
      ['pathPrefix', '/pages/'],
    ]);
    expect(slash.status).toBe(400);
    expect(slash.body.error.message).toMatch(
      /`pathPrefix\[0\]` must be a path as the tools write it/,
    );
    const twice = await search([
      ['query', QUERY],
      ['locale', 'en'],
      ['locale', 'fr'],
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(/`locale` is given more than once/);
  });

  it('the client sends a list as repeated parameters and follows cursors bound to the filters', async () => {
    const input = { query: QUERY, limit: 1, pathPrefix: ['pages/agents/'], tags: 'search' };
    const first = await client.searchFiles(input);
    const reference = await exampleSource().searchFiles({ ...input, limit: 2 });
    expect(first.items.map((i) => i.path)).toEqual([reference.items[0]!.path]);
    const second = await client.searchFiles({ cursor: first.nextCursor });
    expect(second.items.map((i) => i.path)).toEqual([reference.items[1]!.path]);
    await expect(
      client.searchFiles({ cursor: first.nextCursor, tags: 'agents' }),
    ).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('MCP: search_files takes the filters as a string or a list; its listed schema has them', async () => {
    const server = createKnowledgeMcpServer(exampleSource(), { name: 'kb', version: '1.0.0' });
    const { client: mcp, close } = await connectInMemory(server);
    try {
      const { tools } = await mcp.listTools();
      const schema = tools.find((t) => t.name === 'search_files')!.inputSchema as {
        properties: Record<string, { anyOf?: { type: string }[]; type?: unknown }>;
      };
      expect(schema.properties['pathPrefix']!.anyOf!.map((b) => b.type)).toEqual([
        'string',
        'array',
        'null',
      ]);
      expect(schema.properties['locale']!.type).toEqual(['string', 'null']);
      const result = await mcp.callTool({
        name: 'search_files',
        arguments: { query: QUERY, locale: 'zh-CN', tags: ['search'] },
      });
      expect(result.isError).toBe(false);
      const output = result.structuredContent as { items: { path: string }[] };
      expect(output.items.map((i) => i.path)).toEqual(['pages/agents/exploration.md']);
      const bad = await mcp.callTool({
        name: 'search_files',
        arguments: { query: QUERY, pathPrefix: [] },
      });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/INVALID_ARGUMENT/);
    } finally {
      await close();
    }
  });
});
