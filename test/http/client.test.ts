/**
 * `createKnowledgeClient` against a scripted `fetch`: the URLs and headers it sends, the server errors
 * it keeps, its retries after `RATE_LIMITED`, its restart after `STALE_CURSOR`, its transport errors,
 * `follow`'s refusals and its option checks. No network; waits run on fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  KNOWLEDGE_TOOL_ERROR_CODES,
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorCode,
} from '../../src/agent/errors/codes.js';
import { isKnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import type { KnowledgeCallContext, KnowledgeToolName } from '../../src/agent/index.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import type { KnowledgeClient, KnowledgeClientOptions } from '../../src/http/types.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  errorAnswer,
  fakeFetch,
  json,
  rateLimited,
  settledState,
  silentServer,
  VALID_BODIES,
  type FakeAnswer,
  type FakeFetch,
} from '../helpers/client-fakeFetch.js';
import { exampleSource } from '../helpers/exampleHandler.js';

const BASE = 'http://kb.test/openapi/v2/knowledge-bases/example';
const KB_PATH = '/openapi/v2/knowledge-bases/example';

/** A client over a scripted fetch. */
function clientOver(
  answers: readonly FakeAnswer[] | ((index: number, request: Request) => FakeAnswer),
  options: Partial<KnowledgeClientOptions> = {},
): { client: KnowledgeClient; fake: FakeFetch } {
  const fake = fakeFetch(answers);
  return { client: createKnowledgeClient({ baseUrl: BASE, fetch: fake.fetch, ...options }), fake };
}

/** One call of each operation, with the inputs the URL tests use. */
const CALLS: Readonly<
  Record<
    KnowledgeToolName,
    (client: KnowledgeClient, context?: KnowledgeCallContext) => Promise<unknown>
  >
> = {
  list_tree: (c, ctx) => c.listTree({ parentPath: 'pages/guides', cursor: 'c1', limit: 5 }, ctx),
  get_file: (c, ctx) => c.getFile({ fileId: 'guides/setup' }, ctx),
  read_file: (c, ctx) =>
    c.readFile(
      { fileId: 'guides/setup', sectionIds: ['install', 'run'], mode: 'self', maxChars: 900 },
      ctx,
    ),
  search_files: (c, ctx) =>
    c.searchFiles(
      {
        query: 'How do I set up?',
        mode: 'graph',
        graphDepth: 2,
        graphFanout: 7,
        rerank: false,
        cursor: 'c2',
        limit: 3,
      },
      ctx,
    ),
  read_related: (c, ctx) => c.readRelated({ fileId: 'guides/setup', cursor: 'c3', limit: 4 }, ctx),
  expand_graph: (c, ctx) =>
    c.expandGraph({ fileId: 'guides/setup', depth: 2, fanout: 6, cursor: 'c4' }, ctx),
};
const OPERATIONS = Object.keys(CALLS) as KnowledgeToolName[];

afterEach(() => {
  vi.useRealTimers();
});

describe('createKnowledgeClient: the requests it sends', () => {
  it.each([
    ['list_tree', `${BASE}/tree?parentPath=pages%2Fguides&cursor=c1&limit=5`],
    ['get_file', `${BASE}/files/guides%2Fsetup`],
    [
      'read_file',
      `${BASE}/files/guides%2Fsetup/content?sectionIds=install%2Crun&mode=self&maxChars=900`,
    ],
    [
      'search_files',
      `${BASE}/search?query=How+do+I+set+up%3F&mode=graph&graphDepth=2&graphFanout=7&rerank=false&cursor=c2&limit=3`,
    ],
    ['read_related', `${BASE}/files/guides%2Fsetup/related?cursor=c3&limit=4`],
    ['expand_graph', `${BASE}/graph/expand?fileId=guides%2Fsetup&depth=2&fanout=6&cursor=c4`],
  ] as const)('%s: GET %s', async (operation, url) => {
    const { client, fake } = clientOver([json(200, VALID_BODIES[operation])]);
    await expect(CALLS[operation](client)).resolves.toEqual(VALID_BODIES[operation]);
    expect(fake.urls()).toEqual([url]);
    expect(fake.requests[0]!.method).toBe('GET');
  });

  it('decodes back to the same parameters: comma-joined sectionIds, the fileId segment with its `/`', async () => {
    const { client, fake } = clientOver(() => json(200, VALID_BODIES.read_file));
    await client.readFile({ fileId: '_graph/by-file/x.json', sectionIds: ['a', 'b', 'c'] });
    await client.readFile({ path: 'pages/a b/中文.md', sectionIds: [] });
    const [byId, byPath] = fake.requests.map((r) => new URL(r.url));
    expect(byId!.pathname).toBe(`${KB_PATH}/files/_graph%2Fby-file%2Fx.json/content`);
    expect(decodeURIComponent(byId!.pathname.split('/')[6]!)).toBe('_graph/by-file/x.json');
    expect([...byId!.searchParams]).toEqual([['sectionIds', 'a,b,c']]);
    expect(byPath!.pathname).toBe(`${KB_PATH}/files/content`);
    expect([...byPath!.searchParams]).toEqual([
      ['path', 'pages/a b/中文.md'],
      ['sectionIds', ''],
    ]);
  });

  it('leaves out absent and null parameters', async () => {
    const { client, fake } = clientOver(() => json(200, VALID_BODIES.list_tree));
    await client.listTree();
    await client.listTree({ parentPath: null, cursor: null, limit: null });
    await client.listTree({});
    expect(fake.urls()).toEqual([`${BASE}/tree`, `${BASE}/tree`, `${BASE}/tree`]);
  });

  it('takes baseUrl as a string with a trailing slash or as a URL, and says it as `baseUrl`', async () => {
    for (const baseUrl of [`${BASE}/`, new URL(BASE)]) {
      const fake = fakeFetch([json(200, VALID_BODIES.get_file)]);
      const client = createKnowledgeClient({ baseUrl, fetch: fake.fetch });
      expect(client.baseUrl).toBe(BASE);
      await client.getFile({ fileId: 'a' });
      expect(fake.urls()).toEqual([`${BASE}/files/a`]);
    }
  });

  it('sends options.headers on every request, Accept: application/json, and X-Request-Id = context.requestId', async () => {
    // One body with every operation's keys, so each call succeeds.
    const anyResult = {
      items: [],
      relationships: [],
      fileId: 'a',
      path: 'pages/a.md',
      file: {},
      content: '',
    };
    const { client, fake } = clientOver(
      (index) => (index === 0 ? rateLimited(0) : json(200, anyResult)),
      {
        headers: {
          authorization: 'Bearer reader-token',
          'x-app': 'kk-tests',
          accept: 'text/markdown',
        },
      },
    );
    await client.searchFiles({ query: 'q' }, { requestId: 'trace-1.a:b_c-d' });
    for (const operation of OPERATIONS)
      await CALLS[operation](client, { requestId: `call-${operation}` });
    expect(fake.requests).toHaveLength(2 + OPERATIONS.length);
    for (const request of fake.requests) {
      expect(request.headers.get('authorization')).toBe('Bearer reader-token');
      expect(request.headers.get('x-app')).toBe('kk-tests');
      expect(request.headers.get('accept')).toBe('application/json');
    }
    expect(fake.requests.map((r) => r.headers.get('x-request-id'))).toEqual([
      'trace-1.a:b_c-d',
      'trace-1.a:b_c-d',
      ...OPERATIONS.map((operation) => `call-${operation}`),
    ]);
  });

  it('sends a fresh req-<uuid> when the call gives no usable requestId', async () => {
    const { client, fake } = clientOver(() => json(200, VALID_BODIES.get_file));
    await client.getFile({ fileId: 'a' });
    await client.getFile({ fileId: 'a' }, { requestId: 'has space\r\nX-Injected: 1' });
    await client.getFile({ fileId: 'a' }, { requestId: 'x'.repeat(129) });
    const ids = fake.requests.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req-[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
    expect(fake.requests[1]!.headers.get('x-injected')).toBeNull();
  });

  it('refuses a call without what its URL needs before any request: INVALID_ARGUMENT', async () => {
    const { client, fake } = clientOver([]);
    await expectKnowledgeError(client.readFile({}), {
      code: 'INVALID_ARGUMENT',
      message: /exactly one of `fileId` and `path`/,
    });
    await expectKnowledgeError(client.readFile({ fileId: 'a', path: 'pages/a.md' }), {
      code: 'INVALID_ARGUMENT',
      message: /exactly one/,
    });
    await expectKnowledgeError(client.getFile({ fileId: '' }), {
      code: 'INVALID_ARGUMENT',
      message: /fileId/,
    });
    await expectKnowledgeError(client.readFile({ fileId: 7 as unknown as string }), {
      code: 'INVALID_ARGUMENT',
      message: /fileId/,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('readRelated with a bad input returns a rejected promise (KnowledgeToolError), never throws', async () => {
    const { client, fake } = clientOver([]);
    let returned: unknown;
    expect(() => {
      returned = client.readRelated({ fileId: '' });
    }).not.toThrow();
    await expectKnowledgeError(returned as Promise<unknown>, {
      code: 'INVALID_ARGUMENT',
      message: /fileId/,
    });
    expect(() => {
      returned = client.readRelated(undefined as unknown as { fileId: string });
    }).not.toThrow();
    await expectKnowledgeError(returned as Promise<unknown>, {
      code: 'INVALID_ARGUMENT',
      message: /fileId/,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('listTree(null) is the root listing; an argument the tool does not take is refused before any request', async () => {
    const tree = await exampleSource().listTree(
      {},
      { actionBase: KB_PATH, knowledgeBaseId: 'example' },
    );
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
});

describe("createKnowledgeClient: the server's errors, kept", () => {
  const passedThrough = KNOWLEDGE_TOOL_ERROR_CODES.filter(
    (code) => code !== 'RATE_LIMITED' && code !== 'STALE_CURSOR',
  );

  it.each(passedThrough)('%s: code, message, httpStatus and the server requestId', async (code) => {
    const status = KNOWLEDGE_TOOL_ERROR_STATUS[code];
    const { client, fake } = clientOver([
      errorAnswer(code, status, { requestId: 'srv-7', message: `Because ${code}.` }),
    ]);
    const error = await expectKnowledgeError(
      client.getFile({ fileId: 'a' }, { requestId: 'mine-1' }),
      { code: code },
    );
    expect(error.toJSON()).toEqual({
      error: { code, message: `Because ${code}.`, httpStatus: status },
      requestId: 'srv-7',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps 414 as the httpStatus of INVALID_ARGUMENT for a URL over the limit', async () => {
    const { client } = clientOver([errorAnswer('INVALID_ARGUMENT', 414, { requestId: 'srv-414' })]);
    const error = await expectKnowledgeError(client.searchFiles({ query: '很长'.repeat(10) }), {
      code: 'INVALID_ARGUMENT',
    });
    expect(error.httpStatus).toBe(414);
    expect(error.requestId).toBe('srv-414');
  });

  it('keeps retryAfterSeconds of a RATE_LIMITED it does not retry', async () => {
    const { client } = clientOver([rateLimited(7, 'srv-rl')], { maxRetries: 0 });
    const error = await expectKnowledgeError(client.listTree(), { code: 'RATE_LIMITED' });
    expect(error.toJSON()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Server says RATE_LIMITED.',
        httpStatus: 429,
        retryAfterSeconds: 7,
      },
      requestId: 'srv-rl',
    });
  });

  it("falls back to the answer's X-Request-Id, then to the id it sent, when the body's requestId is unusable", async () => {
    const body = (requestId: unknown) => ({
      error: { code: 'NOT_FOUND', message: 'No file.', httpStatus: 404 },
      requestId,
    });
    const { client } = clientOver([
      json(404, body('bad id with spaces'), { 'x-request-id': 'hdr-1' }),
      json(404, body(42)),
    ]);
    expect(
      (
        await expectKnowledgeError(client.getFile({ fileId: 'a' }, { requestId: 'mine-1' }), {
          code: 'NOT_FOUND',
        })
      ).requestId,
    ).toBe('hdr-1');
    expect(
      (
        await expectKnowledgeError(client.getFile({ fileId: 'a' }, { requestId: 'mine-2' }), {
          code: 'NOT_FOUND',
        })
      ).requestId,
    ).toBe('mine-2');
  });
});

describe('createKnowledgeClient: RATE_LIMITED', () => {
  it('waits retryAfterSeconds before each retry, then resolves', async () => {
    vi.useFakeTimers();
    const { client, fake } = clientOver([
      rateLimited(2),
      rateLimited(1),
      json(200, VALID_BODIES.list_tree),
    ]);
    const call = client.listTree();
    const state = settledState(call);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fake.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.requests).toHaveLength(2);
    expect(state()).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toEqual(VALID_BODIES.list_tree);
    expect(fake.requests).toHaveLength(3);
  });

  it('retries at most maxRetries times, then rejects with the last error', async () => {
    vi.useFakeTimers();
    const { client, fake } = clientOver([
      rateLimited(1, 'srv-a'),
      rateLimited(1, 'srv-b'),
      rateLimited(3, 'srv-c'),
      json(200, VALID_BODIES.list_tree),
    ]);
    const call = expectKnowledgeError(client.listTree(), { code: 'RATE_LIMITED' });
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await call;
    expect(error.requestId).toBe('srv-c');
    expect(error.retryAfterSeconds).toBe(3);
    expect(fake.requests).toHaveLength(3);
  });

  it.each([0, 1, 4])('maxRetries %i: at most %i + 1 requests', async (maxRetries) => {
    vi.useFakeTimers();
    const { client, fake } = clientOver(() => rateLimited(0), { maxRetries });
    const call = expectKnowledgeError(client.getFile({ fileId: 'a' }), { code: 'RATE_LIMITED' });
    await vi.advanceTimersByTimeAsync(100);
    await call;
    expect(fake.requests).toHaveLength(maxRetries + 1);
  });

  it('rejects at once when Retry-After is over maxRetryAfterSeconds (default 30)', async () => {
    vi.useFakeTimers();
    const { client, fake } = clientOver([rateLimited(31), json(200, VALID_BODIES.list_tree)]);
    const call = client.listTree();
    const state = settledState(call);
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toBe('rejected');
    expect((await expectKnowledgeError(call, { code: 'RATE_LIMITED' })).retryAfterSeconds).toBe(31);
    expect(fake.requests).toHaveLength(1);

    const custom = clientOver([rateLimited(3), json(200, VALID_BODIES.list_tree)], {
      maxRetryAfterSeconds: 2,
    });
    const second = expectKnowledgeError(custom.client.listTree(), { code: 'RATE_LIMITED' });
    await vi.advanceTimersByTimeAsync(0);
    await second;
    expect(custom.fake.requests).toHaveLength(1);
  });

  it('waits exactly maxRetryAfterSeconds when Retry-After equals it', async () => {
    vi.useFakeTimers();
    const { client, fake } = clientOver([rateLimited(2), json(200, VALID_BODIES.list_tree)], {
      maxRetryAfterSeconds: 2,
    });
    const call = client.listTree();
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(call).resolves.toEqual(VALID_BODIES.list_tree);
    expect(fake.requests).toHaveLength(2);
  });

  it("stops waiting when the call's signal aborts: rejects, and makes no more requests", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { client, fake } = clientOver([rateLimited(5), json(200, VALID_BODIES.list_tree)]);
    const call = client.listTree({}, { signal: controller.signal });
    const state = settledState(call);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.requests).toHaveLength(1);
    controller.abort(new Error('user went away'));
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toBe('rejected');
    const error = await call.catch((e: unknown) => e);
    expect(isKnowledgeToolError(error)).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('makes no request when the signal is aborted before the call', async () => {
    const { client, fake } = clientOver([json(200, VALID_BODIES.list_tree)]);
    const error = await client
      .listTree({}, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(isKnowledgeToolError(error)).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it('a 429 without retryAfterSeconds in its body is retried after its Retry-After header', async () => {
    const tree = await exampleSource().listTree(
      {},
      { actionBase: KB_PATH, knowledgeBaseId: 'example' },
    );
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

describe('createKnowledgeClient: STALE_CURSOR', () => {
  const paged = ['list_tree', 'search_files', 'read_related', 'expand_graph'] as const;

  it.each(paged)(
    '%s: repeats once without the cursor and marks the page cursorRestarted',
    async (operation) => {
      const { client, fake } = clientOver([
        errorAnswer('STALE_CURSOR', 409),
        json(200, VALID_BODIES[operation]),
      ]);
      const result = await CALLS[operation](client);
      expect(result).toEqual({ ...VALID_BODIES[operation], cursorRestarted: true });
      const [first, second] = fake.requests.map((r) => new URL(r.url));
      expect(first!.searchParams.has('cursor')).toBe(true);
      expect(second!.searchParams.has('cursor')).toBe(false);
      const withoutCursor = [...first!.searchParams].filter(([name]) => name !== 'cursor');
      expect([...second!.searchParams]).toEqual(withoutCursor);
      expect(second!.pathname).toBe(first!.pathname);
    },
  );

  it('does not mark a page that needed no restart', async () => {
    const { client } = clientOver([json(200, VALID_BODIES.list_tree)]);
    expect(await client.listTree({ cursor: 'fresh' })).not.toHaveProperty('cursorRestarted');
  });

  it('rejects when the restarted call is stale too (two requests, no loop)', async () => {
    const { client, fake } = clientOver([
      errorAnswer('STALE_CURSOR', 409, { requestId: 'srv-1' }),
      errorAnswer('STALE_CURSOR', 409, { requestId: 'srv-2' }),
      json(200, VALID_BODIES.list_tree),
    ]);
    const error = await expectKnowledgeError(client.listTree({ cursor: 'old' }), {
      code: 'STALE_CURSOR',
    });
    expect(error.requestId).toBe('srv-2');
    expect(fake.requests).toHaveLength(2);
  });

  it('passes STALE_CURSOR through when the call had no cursor', async () => {
    const { client, fake } = clientOver([
      errorAnswer('STALE_CURSOR', 409),
      json(200, VALID_BODIES.list_tree),
    ]);
    await expectKnowledgeError(client.listTree({ limit: 3 }), { code: 'STALE_CURSOR' });
    expect(fake.requests).toHaveLength(1);
  });

  it('passes other errors of the cursor call through (INVALID_CURSOR is not restarted)', async () => {
    const { client, fake } = clientOver([
      errorAnswer('INVALID_CURSOR', 400),
      json(200, VALID_BODIES.list_tree),
    ]);
    await expectKnowledgeError(client.listTree({ cursor: 'forged' }), { code: 'INVALID_CURSOR' });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('createKnowledgeClient: TRANSPORT_ERROR, never an empty result', () => {
  it('a network failure: 502 with the cause and the id it sent', async () => {
    const failure = new TypeError('fetch failed', {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:9'),
    });
    const { client } = clientOver([failure]);
    const error = await expectKnowledgeError(client.listTree({}, { requestId: 'mine-1' }), {
      code: 'TRANSPORT_ERROR',
      message: /fetch failed/,
    });
    expect(error.httpStatus).toBe(502);
    expect(error.cause).toBe(failure);
    expect(error.requestId).toBe('mine-1');
  });

  it('a server that does not answer within timeoutMs (the request signal aborts it)', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch([silentServer()]);
    const client = createKnowledgeClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 50 });
    const call = expectKnowledgeError(client.listTree(), {
      code: 'TRANSPORT_ERROR',
      message: /no answer within 50 ms/,
    });
    await vi.advanceTimersByTimeAsync(50);
    const error = await call;
    expect(error.httpStatus).toBe(502);
    expect(error.cause).toBeDefined();
    expect(fake.requests[0]!.signal.aborted).toBe(true);
  });

  it('an answer whose body stops arriving within timeoutMs', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch([
      (request) => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"items":['));
            request.signal.addEventListener(
              'abort',
              () => controller.error(request.signal.reason),
              { once: true },
            );
          },
        });
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
      },
    ]);
    const client = createKnowledgeClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 50 });
    const call = expectKnowledgeError(client.listTree(), { code: 'TRANSPORT_ERROR' });
    await vi.advanceTimersByTimeAsync(50);
    expect((await call).cause).toBeDefined();
  });

  it('a fetch that never resolves (and ignores the signal) still times out after timeoutMs', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch([() => new Promise<Response>(() => undefined)]);
    const client = createKnowledgeClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 50 });
    const call = client.listTree();
    const state = settledState(call);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state()).toBe('rejected');
    await expectKnowledgeError(call, { code: 'TRANSPORT_ERROR' });
  });

  it.each([
    [
      'a 200 that is HTML',
      () =>
        new Response('<html>Login</html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
    ],
    ["a proxy's 502 page", () => new Response('<h1>Bad Gateway</h1>', { status: 502 })],
    ['a 500 with an empty body', () => new Response('', { status: 500 })],
    [
      'a 302 redirect to a login page',
      () => new Response('', { status: 302, headers: { location: 'https://login.example/' } }),
    ],
  ] as const)('a body that is not JSON (%s): cause is the parse error', async (_, answer) => {
    const { client } = clientOver([answer()]);
    const error = await expectKnowledgeError(client.listTree(), {
      code: 'TRANSPORT_ERROR',
      message: /not JSON/,
    });
    expect(error.httpStatus).toBe(502);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it.each(OPERATIONS)('%s: a 200 with JSON that is not its result', async (operation) => {
    const bodies: unknown[] = [
      {},
      [],
      null,
      'ok',
      42,
      { error: { code: 'NOT_FOUND', message: 'x', httpStatus: 404 }, requestId: 'srv-1' },
    ];
    const { client } = clientOver(bodies.map((body) => json(200, body)));
    for (const body of bodies) {
      const error = await expectKnowledgeError(CALLS[operation](client), {
        code: 'TRANSPORT_ERROR',
        message: /not a `/,
      });
      expect(error.httpStatus, JSON.stringify(body)).toBe(502);
    }
  });

  it('a 200 whose result has the keys with the wrong types', async () => {
    const { client } = clientOver([
      json(200, { activeContentRevision: 1, items: {}, nextCursor: null }),
      json(200, { file: 'pages/a.md', content: '# A' }),
      json(200, { file: {}, content: 3 }),
      json(200, { fileId: 1, path: 'pages/a.md' }),
    ]);
    await expectKnowledgeError(client.listTree(), { code: 'TRANSPORT_ERROR' });
    await expectKnowledgeError(client.readFile({ path: 'pages/a.md' }), {
      code: 'TRANSPORT_ERROR',
    });
    await expectKnowledgeError(client.readFile({ path: 'pages/a.md' }), {
      code: 'TRANSPORT_ERROR',
    });
    await expectKnowledgeError(client.getFile({ fileId: 'a' }), { code: 'TRANSPORT_ERROR' });
  });

  it.each([
    ['302 with an error body', () => errorAnswer('NOT_FOUND', 302)],
    ['302 with a result body', () => json(302, VALID_BODIES.list_tree, { location: '/elsewhere' })],
    ['204 without a body', () => new Response(null, { status: 204 })],
    ['418 with an unknown code', () => errorAnswer('TEAPOT', 418)],
    ['500 with an unknown code', () => errorAnswer('DATABASE_ON_FIRE', 500)],
    ['404 without the error shape', () => json(404, { message: 'Not Found' })],
    [
      '400 with an error whose message is not a string',
      () =>
        json(400, {
          error: { code: 'INVALID_ARGUMENT', message: 7, httpStatus: 400 },
          requestId: 'srv-1',
        }),
    ],
    ['201 with a result body', () => json(201, VALID_BODIES.list_tree)],
  ] as const)('a status or body the server should not send (%s)', async (_, answer) => {
    const { client } = clientOver([answer()]);
    const error = await expectKnowledgeError(client.listTree(), { code: 'TRANSPORT_ERROR' });
    expect(error.httpStatus).toBe(502);
  });
});

describe('createKnowledgeClient: follow', () => {
  it('GETs a readActions path of this knowledge base and resolves to its JSON body', async () => {
    const body = { file: { fileId: 'guides/setup', snapshotId: 's1' }, content: '# Setup' };
    const { client, fake } = clientOver(() => json(200, body), {
      headers: { authorization: 'Bearer t' },
    });
    const path = `${KB_PATH}/files/guides%2Fsetup/content?mode=self&sectionIds=install`;
    await expect(client.follow(path, { requestId: 'follow-1' })).resolves.toEqual(body);
    await expect(client.follow(`http://kb.test${path}#frag`)).resolves.toEqual(body);
    expect(fake.urls()).toEqual([`http://kb.test${path}`, `http://kb.test${path}`]);
    expect(fake.requests[0]!.headers.get('authorization')).toBe('Bearer t');
    expect(fake.requests[0]!.headers.get('x-request-id')).toBe('follow-1');
  });

  it('keeps the server errors and transport errors of the followed request', async () => {
    const { client } = clientOver([
      errorAnswer('NOT_FOUND', 404, { requestId: 'srv-f' }),
      new Response('nope', { status: 200 }),
    ]);
    expect(
      (
        await expectKnowledgeError(client.follow(`${KB_PATH}/files/missing/content`), {
          code: 'NOT_FOUND',
        })
      ).requestId,
    ).toBe('srv-f');
    await expectKnowledgeError(client.follow(`${KB_PATH}/tree`), { code: 'TRANSPORT_ERROR' });
  });

  it.each([
    ['another host', 'http://evil.test/openapi/v2/knowledge-bases/example/tree'],
    ['another port', 'http://kb.test:8080/openapi/v2/knowledge-bases/example/tree'],
    ['another scheme', 'https://kb.test/openapi/v2/knowledge-bases/example/tree'],
    ['protocol-relative', '//evil.test/openapi/v2/knowledge-bases/example/tree'],
    [
      'backslashes read as protocol-relative',
      '\\\\evil.test/openapi/v2/knowledge-bases/example/tree',
    ],
    ['slash-backslash', '/\\evil.test/openapi/v2/knowledge-bases/example/tree'],
    ['credentials', 'http://user:secret@kb.test/openapi/v2/knowledge-bases/example/tree'],
    ['a user name only', 'http://user@kb.test/openapi/v2/knowledge-bases/example/tree'],
    ['another knowledge base', '/openapi/v2/knowledge-bases/other/tree'],
    ['a knowledge base whose ID starts the same', '/openapi/v2/knowledge-bases/example-2/tree'],
    ['the knowledge-base list', '/openapi/v2/knowledge-bases'],
    ['a path relative to the knowledge base', '/files/a/content'],
    ['a relative path without /', 'files/a/content'],
    ['a `..` escape', '/openapi/v2/knowledge-bases/example/../other/tree'],
    ['a `%2e%2e` escape', '/openapi/v2/knowledge-bases/example/%2e%2e/other/tree'],
    ['a `%2E%2E` escape', '/openapi/v2/knowledge-bases/example/files/%2E%2E/%2E%2E/private/tree'],
    ['a `.%2e` escape', '/openapi/v2/knowledge-bases/example/.%2e/other/tree'],
    ['a backslash `..` escape', '/openapi/v2/knowledge-bases/example\\..\\other\\tree'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a file: URL', 'file:///etc/passwd'],
    ['a data: URL', 'data:application/json,{}'],
    ['an empty string', ''],
  ])('refuses %s with INVALID_ARGUMENT and makes no request', async (_, readAction) => {
    const { client, fake } = clientOver(() => json(200, { ok: true }));
    await expectKnowledgeError(client.follow(readAction), { code: 'INVALID_ARGUMENT' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a value that is not a string', async () => {
    const { client, fake } = clientOver([]);
    for (const value of [undefined, null, 42, { path: '/x' }]) {
      await expectKnowledgeError(client.follow(value as unknown as string), {
        code: 'INVALID_ARGUMENT',
      });
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('createKnowledgeClient: options', () => {
  it('needs baseUrl', () => {
    expectKnowledgeError(() => createKnowledgeClient({} as KnowledgeClientOptions), {
      code: 'INVALID_INPUT',
      path: ['options', 'baseUrl'],
    });
    expectKnowledgeError(
      () => createKnowledgeClient(undefined as unknown as KnowledgeClientOptions),
      { code: 'INVALID_INPUT', path: ['options', 'baseUrl'] },
    );
  });

  it.each([
    ['not a URL', 'kb.test/knowledge-bases/example'],
    ['not http(s)', 'ftp://kb.test/knowledge-bases/example'],
    ['a query', `${BASE}?token=secret`],
    ['a fragment', `${BASE}#top`],
    ['credentials', 'http://user:pw@kb.test/knowledge-bases/example'],
    ['a number', 42],
  ])('refuses a baseUrl with %s: INVALID_INPUT at options.baseUrl', (_, baseUrl) => {
    expectKnowledgeError(() => createKnowledgeClient({ baseUrl } as KnowledgeClientOptions), {
      code: 'INVALID_INPUT',
      path: ['options', 'baseUrl'],
    });
  });

  it('refuses an unknown option, naming it and the known ones', () => {
    const error = expectKnowledgeError(
      () => createKnowledgeClient({ baseUrl: BASE, retries: 3 } as KnowledgeClientOptions),
      {
        code: 'INVALID_INPUT',
        path: ['options', 'retries'],
      },
    );
    expect(error.message).toMatch(/`retries`/);
    expect(error.message).toMatch(/`maxRetries`/);
  });

  it('lists every bad option in one error', () => {
    const error = expectKnowledgeError(
      () =>
        createKnowledgeClient({
          baseUrl: BASE,
          headers: { authorization: 1 },
          fetch: 'fetch',
          timeoutMs: 0,
          maxRetries: -1,
          maxRetryAfterSeconds: 1.5,
        } as unknown as KnowledgeClientOptions),
      { code: 'INVALID_INPUT' },
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ['options', 'headers'],
      ['options', 'fetch'],
      ['options', 'timeoutMs'],
      ['options', 'maxRetries'],
      ['options', 'maxRetryAfterSeconds'],
    ]);
  });

  it('is frozen, and every method rejects only with KnowledgeToolError', async () => {
    const { client } = clientOver(() => new Error('down'));
    expect(Object.isFrozen(client)).toBe(true);
    for (const operation of OPERATIONS) {
      const error = await CALLS[operation](client).catch((e: unknown) => e);
      expect(isKnowledgeToolError(error) && (error.code as KnowledgeToolErrorCode), operation).toBe(
        'TRANSPORT_ERROR',
      );
    }
  });

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
});
