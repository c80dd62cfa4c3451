/**
 * What the independent review of the HTTP layer found, each pinned: an async `onError` that rejects,
 * a failing grant that leaves a sibling's call running, `authenticateHeader` values no runtime sends,
 * the client's header, retry and input checks, a padded query, and CORS preflights' `Cache-Control`.
 */
import { describe, expect, it } from 'vitest';
import { KnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  BASE_PATH,
  exampleAccess,
  exampleHandler,
  exampleSource,
  ORIGIN,
} from './helpers/exampleHandler.js';
import { fakeFetch } from './helpers/client-fakeFetch.js';
import { call, expectError, get, never, recordingSource } from './helpers/handler-http.js';

const KB = `${BASE_PATH}/knowledge-bases/example`;
const BASE = `${ORIGIN}${KB}`;

describe('handler', () => {
  it('an async onError that rejects changes nothing: 500 INTERNAL, no unhandled rejection', async () => {
    const failing = recordingSource(exampleSource(), {
      getFile: () => {
        throw new Error('boom');
      },
    });
    let heard = 0;
    const h = createKnowledgeHandler({
      access: () => ({ knowledgeBases: { example: failing.source } }),
      onError: async () => {
        heard++;
        throw new Error('logger unreachable');
      },
    });
    await expectError(await call(h, '/knowledge-bases/example/files/agent-tools'), {
      code: 'INTERNAL',
    });
    await new Promise((resolve) => setTimeout(resolve, 10)); // an unhandled rejection would surface by now
    expect(heard).toBe(1);
  });

  it('a grant that fails the knowledge-base list aborts the call still running for another grant', async () => {
    let heard: AbortSignal | undefined;
    const hanging = recordingSource(exampleSource(), {
      listTree: (_input, context) => {
        heard = context?.signal;
        return never();
      },
    });
    const failing = recordingSource(exampleSource(), {
      listTree: async () => {
        throw new KnowledgeToolError('TRANSPORT_ERROR', 'remote down');
      },
    });
    const h = createKnowledgeHandler({
      access: () => ({ knowledgeBases: { a: hanging.source, b: failing.source } }),
      timeoutMs: 60_000,
    });
    await expectError(await call(h, '/knowledge-bases'), { code: 'TRANSPORT_ERROR' });
    expect(heard?.aborted).toBe(true);
  });

  it.each(['Bearer realm="知识"', 'Bearer\u0001realm', ' Bearer', 'Bearer ', 'Bearer\r\nX: y'])(
    'authenticateHeader %j is refused when the handler is made',
    (value) => {
      expectKnowledgeError(
        () => createKnowledgeHandler({ access: exampleAccess, authenticateHeader: value }),
        {
          code: 'INVALID_INPUT',
          path: ['options', 'authenticateHeader'],
        },
      );
    },
  );

  it('a query of 2,000 code points with padding is counted after trimming, as the source counts it', async () => {
    const query = ` ${'知'.repeat(2_000)} `;
    const response = await get(exampleHandler(), `${KB}/search?query=${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
  });

  it('a CORS preflight carries Cache-Control and the request ID too', async () => {
    const h = exampleHandler({ cors: { origin: 'https://agent.example' } });
    const response = await call(h, `${KB}/tree`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'GET',
        'x-request-id': 'pre-1',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('x-request-id')).toBe('pre-1');
    expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });
});

describe('client', () => {
  it('header values no runtime sends are refused when the client is made', () => {
    expectKnowledgeError(
      () => createKnowledgeClient({ baseUrl: BASE, headers: { authorization: 'Bearer a\nb' } }),
      {
        code: 'INVALID_INPUT',
        path: ['options', 'headers'],
      },
    );
  });

  it('maxRetryAfterSeconds is at most what a timer can wait', () => {
    expectKnowledgeError(
      () => createKnowledgeClient({ baseUrl: BASE, maxRetryAfterSeconds: 3_000_000 }),
      {
        code: 'INVALID_INPUT',
        path: ['options', 'maxRetryAfterSeconds'],
      },
    );
  });

  it('listTree(null) is the root listing; an argument the tool does not take is refused before any request', async () => {
    const tree = await exampleSource().listTree({}, { actionBase: KB, knowledgeBaseId: 'example' });
    const fake = fakeFetch([() => Response.json(tree)]);
    const client = createKnowledgeClient({ baseUrl: BASE, fetch: fake.fetch });
    await expect(client.listTree(null as never)).resolves.toEqual(tree);
    for (const [call, name] of [
      [() => client.listTree({ bogus: 1 } as never), 'list_tree'],
      [() => client.getFile({ fileId: 'a', path: 'x' } as never), 'get_file'],
      [() => client.searchFiles({ query: 'q', filter: 'x' } as never), 'search_files'],
      [() => client.readFile('pages/a.md' as never), 'read_file'],
    ] as const) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toMatchObject({ name: 'KnowledgeToolError', code: 'INVALID_ARGUMENT' });
      expect((error as Error).message).toContain(`\`${name}\``);
    }
    expect(fake.requests).toHaveLength(1);
  });

  it('a 429 without retryAfterSeconds in its body is retried after its Retry-After header', async () => {
    const tree = await exampleSource().listTree({}, { actionBase: KB, knowledgeBaseId: 'example' });
    const limited = () =>
      new Response(
        JSON.stringify({
          error: { code: 'RATE_LIMITED', message: 'slow down', httpStatus: 429 },
          requestId: 'r-1',
        }),
        {
          status: 429,
          headers: { 'retry-after': '0', 'content-type': 'application/json' },
        },
      );
    const fake = fakeFetch([limited, () => Response.json(tree)]);
    const client = createKnowledgeClient({ baseUrl: BASE, fetch: fake.fetch });
    await expect(client.listTree()).resolves.toEqual(tree);
    expect(fake.requests).toHaveLength(2);
  });
});
