/**
 * The rate limit counts calls, not HTTP requests: each member of an MCP batch is asked for, under its
 * tool's name; the hook hears the client's address; and refused credentials are limited per address,
 * so rotating forged tokens cannot dodge a limit keyed on the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import type { RateLimitRequestInfo } from '../../src/http/types.js';
import { REFUSALS_ALLOWED } from '../../src/http/handler/refusedCredentials.js';
import { BASE_PATH, exampleHandler, READER } from '../helpers/exampleHandler.js';

const heard: RateLimitRequestInfo[] = [];
let served: ServedKnowledge;
let mcpUrl: string;

beforeAll(async () => {
  served = await serveKnowledge({
    handler: exampleHandler({
      rateLimit: (_request, info) => {
        heard.push(info);
        return { ok: true };
      },
    }),
  });
  mcpUrl = `${served.url}${BASE_PATH}/knowledge-bases/example/mcp`;
});
afterAll(async () => served?.close());

const post = (body: unknown, headers: Record<string, string> = READER) =>
  fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(body),
  });

describe('rate limit per call', () => {
  it('asks once per member of an MCP batch, naming the tool called', async () => {
    heard.length = 0;
    const batch = [
      ...Array.from({ length: 5 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'search_files', arguments: { query: 'refund' } },
      })),
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    ];
    const response = await post(batch);
    await response.arrayBuffer();
    expect(heard.map((info) => info.operation)).toEqual([
      'search_files',
      'search_files',
      'search_files',
      'search_files',
      'search_files',
      'mcp',
    ]);
    expect(heard[0]).toMatchObject({ knowledgeBaseId: 'example', clientAddress: '127.0.0.1' });
  });

  it('names an unknown tool `mcp`, and a REST route its tool', async () => {
    heard.length = 0;
    await (
      await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: {} },
      })
    ).arrayBuffer();
    await (
      await fetch(`${served.url}${BASE_PATH}/knowledge-bases/example/tree`, { headers: READER })
    ).arrayBuffer();
    expect(heard.map((info) => info.operation)).toEqual(['mcp', 'list_tree']);
  });

  it('refuses a batch as soon as one member is refused', async () => {
    let left = 3;
    const limited = await serveKnowledge({
      handler: exampleHandler({
        rateLimit: () => (left-- > 0 ? { ok: true } : { ok: false, retryAfterSeconds: 2 }),
      }),
    });
    try {
      const batch = Array.from({ length: 10 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'search_files', arguments: { query: 'refund' } },
      }));
      const response = await fetch(`${limited.url}${BASE_PATH}/knowledge-bases/example/mcp`, {
        method: 'POST',
        headers: {
          ...READER,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(batch),
      });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(left).toBe(-1);
    } finally {
      await limited.close();
    }
  });
});

describe('refused credentials per address', () => {
  it('answers 429 before access once an address had its credentials refused too often, whatever the token', async () => {
    let asked = 0;
    const guarded = await serveKnowledge({
      handler: exampleHandler({
        // Keyed on the token, as many apps do: each forged token would get a fresh bucket.
        rateLimit: () => ({ ok: true }),
        access: (request) => {
          asked += 1;
          return request.headers.get('authorization') === READER.authorization
            ? { knowledgeBases: {} }
            : null;
        },
      }),
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < REFUSALS_ALLOWED + 3; i++) {
        const response = await fetch(`${guarded.url}${BASE_PATH}/knowledge-bases`, {
          headers: { authorization: `Bearer forged-${i}` },
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses.slice(0, REFUSALS_ALLOWED)).toEqual(
        Array.from({ length: REFUSALS_ALLOWED }, () => 401),
      );
      expect(statuses.slice(REFUSALS_ALLOWED)).toEqual([429, 429, 429]);
      expect(asked).toBe(REFUSALS_ALLOWED);
    } finally {
      await guarded.close();
    }
  });
});
