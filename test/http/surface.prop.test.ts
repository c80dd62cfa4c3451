/**
 * Fuzz target for the HTTP and MCP surface (`npm run fuzz -- surface`): any method, path, query,
 * headers and body (JSON-RPC messages and batches of any shape among them) sent to
 * `createKnowledgeHandler` is answered, never thrown, never `500 INTERNAL`, always with a request ID.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_PATH, exampleHandler, ORIGIN, READER } from '../helpers/exampleHandler.js';

const handler = exampleHandler({ rateLimit: () => ({ ok: true }) });
const KB = `${BASE_PATH}/knowledge-bases/example`;

const segment = fc.oneof(
  fc.constantFrom(
    'files',
    'content',
    'related',
    'tree',
    'search',
    'graph',
    'expand',
    'mcp',
    '..',
    '%00',
    '%2F',
    '__proto__',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.oneof(
  fc.array(segment, { maxLength: 4 }).map((s) => `${KB}/${s.join('/')}`),
  fc.constantFrom(`${KB}/mcp`, `${KB}/tree`, `${KB}/search`, `${BASE_PATH}/knowledge-bases`),
);
const query = fc
  .dictionary(
    fc.constantFrom(
      'query',
      'path',
      'fileId',
      'parentPath',
      'limit',
      'cursor',
      'depth',
      'sectionIds',
      'mode',
      'x',
    ),
    fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('-1', '1e9', '\u0000', '..', 'true')),
    { maxKeys: 3 },
  )
  .map((q) => new URLSearchParams(q).toString());

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const rpc = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0'),
    id: fc.oneof(fc.nat(), fc.string({ maxLength: 5 }), fc.constant(null)),
    method: fc.constantFrom(
      'initialize',
      'tools/list',
      'tools/call',
      'resources/list',
      'resources/read',
      'subscriptions/listen',
      'ping',
      'nope',
    ),
    params: fc.oneof(
      jsonValue,
      fc.record({
        name: fc.constantFrom('search_files', 'read_file', 'list_tree', 'x'),
        arguments: jsonValue,
      }),
      fc.record({ uri: fc.string({ maxLength: 30 }) }),
    ),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);
const body = fc.oneof(
  rpc.map((m) => JSON.stringify(m)),
  fc.array(rpc, { maxLength: 40 }).map((b) => JSON.stringify(b)),
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 100 }),
);

describe('the HTTP and MCP surface', () => {
  it('answers every request, never 500, always with a request ID', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE', 'PUT'),
        path,
        query,
        fc.boolean(),
        fc.constantFrom(undefined, '2025-11-25', '2026-07-28', 'garbage'),
        body,
        async (method, p, q, authorized, version, text) => {
          const headers: Record<string, string> = {
            ...(authorized ? READER : { authorization: 'Bearer forged' }),
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          };
          if (version !== undefined) headers['mcp-protocol-version'] = version;
          const request = new Request(`${ORIGIN}${p}${q === '' ? '' : `?${q}`}`, {
            method,
            headers,
            ...(method === 'POST' || method === 'PUT' || method === 'DELETE' ? { body: text } : {}),
          });
          const response = await handler(request);
          expect(response.status).not.toBe(500);
          expect(response.headers.get('x-request-id') ?? '').toMatch(/^req-/);
          await response.body?.cancel();
        },
      ),
    );
  });
});
