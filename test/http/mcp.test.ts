/**
 * MCP over Streamable HTTP at `{KB}/mcp` of `createKnowledgeHandler`, on a real loopback server, with
 * the real SDK v1 and v2 clients: the tools and resources behind `access`; 401 without credentials,
 * 404 for a knowledge base the caller may not read (the same body as a missing one), the rate limit
 * before `access`, both protocol eras, and `mcp: false`.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import { KNOWLEDGE_TOOL_NAMES } from '../../src/agent/index.js';
import { connectHttp, textJson, type ClientKind } from '../mcp/clients.js';
import { BASE_PATH, exampleHandler, OTHER, READER } from '../helpers/exampleHandler.js';
import type { RateLimitRequestInfo } from '../../src/http/types.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { createCatalogSource } from '../../src/agent/index.js';
import { catalogOf } from '../helpers/files-catalog.js';

const KINDS: readonly ClientKind[] = ['sdk-v1', 'sdk-v2', 'sdk-v2-2026'];
const limited: RateLimitRequestInfo[] = [];
let served: ServedKnowledge;
let url: string;

beforeAll(async () => {
  served = await serveKnowledge({
    handler: exampleHandler({
      mcp: { version: '9.9.9' },
      rateLimit: (request, info) => {
        limited.push(info);
        return request.headers.get('x-flood') === '1'
          ? { ok: false, retryAfterSeconds: 7 }
          : { ok: true };
      },
    }),
    port: 0,
    hostname: '127.0.0.1',
  });
  url = `${served.url}${BASE_PATH}/knowledge-bases/example/mcp`;
});
afterAll(async () => served?.close());

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});
const post = (target: string, headers: Record<string, string>, body = INITIALIZE) =>
  fetch(target, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });

describe.each(KINDS)('%s over Streamable HTTP (createKnowledgeHandler)', (kind) => {
  it('lists and calls the tools, shows an error with its code, takes string scalars, lists and reads resources', async () => {
    const { client } = await connectHttp(kind, url, READER);
    try {
      if (kind !== 'sdk-v1')
        expect(client.getNegotiatedProtocolVersion?.()).toBe(
          kind === 'sdk-v2-2026' ? '2026-07-28' : '2025-11-25',
        );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...KNOWLEDGE_TOOL_NAMES].sort());
      const tree = await client.callTool({ name: 'list_tree', arguments: { limit: '1' } });
      expect(tree.isError).toBe(false);
      expect((tree.structuredContent as { items: unknown[] }).items).toHaveLength(1);
      const missing = await client.callTool({ name: 'get_file', arguments: { fileId: 'nope' } });
      expect(missing.isError).toBe(true);
      expect((textJson(missing) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      const { resources } = await client.listResources();
      const index = resources.find((resource) => resource.name === 'index.md')!;
      expect(index).toMatchObject({ uri: 'knowledge:///index.md', mimeType: 'text/markdown' });
      const { contents } = await client.readResource({ uri: index.uri });
      const read = await client.callTool({ name: 'read_file', arguments: { path: 'index.md' } });
      expect(contents[0]!.text).toBe((read.structuredContent as { content: string }).content);
    } finally {
      await client.close();
    }
  });

  it('refuses to connect without credentials (401) and to a knowledge base the caller may not read (404)', async () => {
    await expect(connectHttp(kind, url)).rejects.toThrow(/401|nauthorized/);
    await expect(connectHttp(kind, url, OTHER)).rejects.toThrow(
      /404|Not Found|Version negotiation failed/i,
    );
  });
});

describe('the /mcp route', () => {
  it('answers 401 with the error body, and 404 for a forbidden knowledge base exactly as for a missing one', async () => {
    const none = await post(url, {});
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    const forbidden = await post(url, OTHER);
    const missing = await post(url.replace('/example/', '/nothing-here/'), OTHER);
    expect([forbidden.status, missing.status]).toEqual([404, 404]);
    const strip = (body: unknown) => ({ ...(body as object), requestId: undefined });
    const forbiddenBody = strip(await forbidden.json());
    expect(JSON.stringify(forbiddenBody).replace('example', 'nothing-here')).toBe(
      JSON.stringify(strip(await missing.json())),
    );
  });

  it('is rate limited before access, with operation mcp', async () => {
    limited.length = 0;
    const flood = await post(url, { 'x-flood': '1' });
    expect(flood.status).toBe(429);
    expect(flood.headers.get('retry-after')).toBe('7');
    expect(limited).toEqual([
      { knowledgeBaseId: 'example', clientAddress: '127.0.0.1', operation: 'mcp' },
    ]);
  });

  it('serves the 2025 protocol statelessly (initialize answered with the server info) and names its request ID', async () => {
    const response = await post(url, READER);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req-/);
    const text = await response.text();
    expect(text).toContain('"serverInfo":{"name":"Example knowledge","version":"9.9.9"}');
  });

  it('serves the 2026-07-28 protocol too (server/discover)', async () => {
    const response = await post(
      url,
      { ...READER, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'server/discover',
        params: {
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
            [CLIENT_CAPABILITIES_META_KEY]: {},
            [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
          },
        },
      }),
    );
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(text).toContain('2026-07-28');
  });

  it('is not served with mcp: false, and the REST routes still refuse POST', async () => {
    const off = await serveKnowledge({
      handler: exampleHandler({ mcp: false }),
      port: 0,
      hostname: '127.0.0.1',
    });
    try {
      const target = `${off.url}${BASE_PATH}/knowledge-bases/example/mcp`;
      expect((await post(target, READER)).status).toBe(405);
      expect(
        (await post(`${off.url}${BASE_PATH}/knowledge-bases/example/tree`, READER)).status,
      ).toBe(405);
    } finally {
      await off.close();
    }
    expect((await post(url.replace(/\/mcp$/, '/tree'), READER)).status).toBe(405);
  });

  it('refuses an mcp option that is not true, false or { version, text, cursorKey }, naming it', () => {
    for (const mcp of [
      'yes',
      { version: '' },
      { name: 'x' },
      { text: 'yaml' },
      { cursorKey: 'short' },
    ])
      expectKnowledgeError(
        () => createKnowledgeHandler({ access: () => null, mcp: mcp as never }),
        { code: 'INVALID_INPUT', path: ['options', 'mcp'] },
      );
  });

  it('OPTIONS answers 204 with the methods it takes, without credentials, as every route does', async () => {
    for (const headers of [{}, READER]) {
      const response = await fetch(url, { method: 'OPTIONS', headers });
      expect(response.status).toBe(204);
      expect(response.headers.get('allow')).toBe('OPTIONS, POST');
      expect(response.headers.get('x-request-id')).toMatch(/^req-/);
      expect(await response.text()).toBe('');
    }
    const rest = await fetch(url.replace(/\/mcp$/, '/tree'), { method: 'OPTIONS' });
    expect(rest.status).toBe(204);
    expect(rest.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('with cors, lets a browser preflight a POST to /mcp', async () => {
    const handler = exampleHandler({ cors: { origin: 'http://app.test' } });
    const response = await handler(
      new Request(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://app.test',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization, mcp-protocol-version',
        },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test');
  });
});

describe('calls over {KB}/mcp get the context the REST routes give theirs', () => {
  it('read actions name the knowledge base URL, and REST and MCP accept each other’s cursors', async () => {
    // A source made with neither `actionBase` nor the route's ID, as an app's `access` may hand it.
    const source = createCatalogSource(
      catalogOf({ a: '# A\n\nSee [b](b.md).\n', b: '# B\n', c: '# C\n' }),
      { id: 'internal-name' },
    );
    const mounted = await serveKnowledge({
      handler: createKnowledgeHandler({
        basePath: BASE_PATH,
        access: () => ({ knowledgeBases: { docs: source } }),
      }),
      port: 0,
      hostname: '127.0.0.1',
    });
    const base = `${mounted.url}${BASE_PATH}/knowledge-bases/docs`;
    const { client } = await connectHttp('sdk-v2', `${base}/mcp`);
    try {
      const read = await client.callTool({ name: 'read_file', arguments: { fileId: 'a' } });
      expect(read.isError).toBe(false);
      const actions = (read.structuredContent as { file: { readActions: object } }).file
        .readActions;
      for (const url of Object.values(actions) as string[])
        expect(url.startsWith(`${BASE_PATH}/knowledge-bases/docs/`), url).toBe(true);
      // A REST cursor continues over MCP, given alone.
      const rest = (await (await fetch(`${base}/tree?parentPath=pages&limit=1`)).json()) as {
        nextCursor: string;
        items: { fileId: string }[];
      };
      const next = await client.callTool({
        name: 'list_tree',
        arguments: { cursor: rest.nextCursor },
      });
      expect(next.isError, JSON.stringify(next.content)).toBe(false);
      const items = (next.structuredContent as { items: { fileId: string }[] }).items;
      expect(items.map((item) => item.fileId)).not.toContain(rest.items[0]!.fileId);
    } finally {
      await client.close();
      await mounted.close();
    }
  });
});

describe('mcp: { text, cursorKey }', () => {
  it("text: 'json' gives the structuredContent as the text block; resources/list cursors signed with cursorKey are honoured by another handler with the same key", async () => {
    const pages: Record<string, string> = {};
    for (let n = 1; n <= 55; n++) pages[`p${n}`] = `# Page ${n}\n\nText ${n}.\n`;
    const source = createCatalogSource(catalogOf(pages), { id: 'docs' });
    const KEY = 'a key shared by the replicas';
    const serve = (mcp: object) =>
      serveKnowledge({
        handler: createKnowledgeHandler({
          access: () => ({ knowledgeBases: { docs: source } }),
          mcp,
        }),
        port: 0,
        hostname: '127.0.0.1',
      });
    const [a, b, other] = await Promise.all([
      serve({ text: 'json', cursorKey: KEY }),
      serve({ cursorKey: new TextEncoder().encode(KEY) }),
      serve({}),
    ]);
    const connect = (at: ServedKnowledge) =>
      connectHttp('sdk-v1', `${at.url}/knowledge-bases/docs/mcp`);
    const [onA, onB, onOther] = await Promise.all([connect(a), connect(b), connect(other)]);
    try {
      const tree = await onA.client.callTool({ name: 'list_tree', arguments: { limit: 1 } });
      expect(textJson(tree)).toEqual(tree.structuredContent);
      const compact = await onB.client.callTool({ name: 'list_tree', arguments: { limit: 1 } });
      expect((compact.content[0] as { text: string }).text).toMatch(/^1 entries/);
      const first = await onA.client.listResources();
      expect(first.nextCursor).toEqual(expect.any(String));
      const rest = await onB.client.listResources({ cursor: first.nextCursor! });
      expect(rest.resources.length).toBeGreaterThan(0);
      await expect(onOther.client.listResources({ cursor: first.nextCursor! })).rejects.toThrow(
        /INVALID_CURSOR/,
      );
    } finally {
      await Promise.all([onA, onB, onOther].map((c) => c.client.close()));
      await Promise.all([a, b, other].map((s) => s.close()));
    }
  });
});
