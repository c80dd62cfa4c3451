/**
 * Every status and error code the handler can send, each with its body (the seed's shape, `requestId`
 * equal to `X-Request-Id`) and headers; and the errors of `createKnowledgeHandler`'s options.
 */
import { describe, expect, it } from 'vitest';
import {
  KNOWLEDGE_TOOL_ERROR_CODES,
  KNOWLEDGE_TOOL_ERROR_STATUS,
} from '../../src/agent/errors/codes.js';
import { KnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createBm25fEngine } from '../../src/agent/search/createBm25fEngine.js';
import type { KnowledgeCallContext, KnowledgeSource } from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { createMemoryRateLimiter } from '../../src/http/createMemoryRateLimiter.js';
import type { KnowledgeHandlerOptions, RateLimitRequestInfo } from '../../src/http/types.js';
import { catalogOf } from '../helpers/files-catalog.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  BASE_PATH,
  exampleAccess,
  exampleHandler,
  exampleSource,
  ORIGIN,
  READER,
} from '../helpers/exampleHandler.js';
import { ALLOW, call, expectError, expectJson, get, never } from '../helpers/handler-http.js';
import { recordingSource } from '../helpers/fakeSource.js';

const KB = `${BASE_PATH}/knowledge-bases/example`;
const handler = exampleHandler();

/** A handler whose `example` knowledge base is `source`. */
function over(source: KnowledgeSource, options: Partial<KnowledgeHandlerOptions> = {}) {
  return exampleHandler({ access: () => ({ knowledgeBases: { example: source } }), ...options });
}

describe('400 INVALID_ARGUMENT', () => {
  it.each([
    [
      '/tree?parent=pages',
      /Unknown query parameter "parent"\. This route takes `parentPath`, `cursor`, `limit`/,
    ],
    ['/search?query=x&q=y', /Unknown query parameter "q"/],
    [
      '/files/agent-tools?limit=1',
      /Unknown query parameter "limit"\. This route takes `version`\./,
    ],
    ['/files/agent-tools/content?path=index.md', /Unknown query parameter "path"/],
    ['/files/content?path=index.md&fileId=agent-tools', /Unknown query parameter "fileId"/],
    ['/graph/expand?fileId=agent-tools&limit=2', /Unknown query parameter "limit"/],
    ['/files/agent-tools/related?LIMIT=2', /Unknown query parameter "LIMIT"/],
    ['/tree?__proto__=1', /Unknown query parameter "__proto__"/],
  ])('unknown parameter: KB%s', async (route, message) => {
    await expectError(await get(handler, `${KB}${route}`), { code: 'INVALID_ARGUMENT', message });
  });

  it('an unknown parameter on the knowledge-base list', async () => {
    await expectError(await get(handler, `${BASE_PATH}/knowledge-bases?limit=1`), {
      code: 'INVALID_ARGUMENT',
      message: /"limit"\. This route takes no query parameters/,
    });
  });

  it.each([
    ['/tree?limit=1&limit=2', 'limit'],
    ['/tree?limit=1&limit=1', 'limit'],
    ['/search?query=a&query=b', 'query'],
    ['/files/agent-tools/content?sectionIds=search&sectionIds=cursors', 'sectionIds'],
    ['/search?query=a&rerank=true&rerank=true', 'rerank'],
  ])('repeated parameter: KB%s', async (route, name) => {
    await expectError(await get(handler, `${KB}${route}`), {
      code: 'INVALID_ARGUMENT',
      message: new RegExp(`\`${name}\` is given more than once`),
    });
  });

  it.each([
    '1.5',
    'abc',
    '',
    '+1',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '１',
    '--1',
    '-',
    '9999999999999999',
    'Infinity',
    'NaN',
  ])('malformed integer limit=%j', async (value) => {
    await expectError(await get(handler, `${KB}/tree?limit=${encodeURIComponent(value)}`), {
      code: 'INVALID_ARGUMENT',
      message: /`limit` must be a whole number in decimal digits/,
    });
  });

  it.each([
    ['/files/agent-tools/content?maxChars=ten', 'maxChars'],
    ['/graph/expand?fileId=agent-tools&depth=1.0', 'depth'],
    ['/graph/expand?fileId=agent-tools&fanout=2x', 'fanout'],
    ['/search?query=x&graphDepth=one', 'graphDepth'],
    ['/search?query=x&graphFanout=%20', 'graphFanout'],
    ['/files/agent-tools/related?limit=5.', 'limit'],
  ])('malformed integer in KB%s names it', async (route, name) => {
    await expectError(await get(handler, `${KB}${route}`), {
      code: 'INVALID_ARGUMENT',
      message: new RegExp(`\`${name}\` must be a whole number`),
    });
  });

  it.each(['TRUE', 'True', '1', '0', 'yes', '', 'false '])(
    'malformed boolean rerank=%j',
    async (value) => {
      await expectError(
        await get(handler, `${KB}/search?query=x&rerank=${encodeURIComponent(value)}`),
        { code: 'INVALID_ARGUMENT', message: /`rerank` must be `true` or `false`/ },
      );
    },
  );

  it.each(['search,,cursors', ',search', 'search,', ','])(
    'empty item in sectionIds=%j',
    async (value) => {
      await expectError(await get(handler, `${KB}/files/agent-tools/content?sectionIds=${value}`), {
        code: 'INVALID_ARGUMENT',
        message: /`sectionIds` must be IDs separated by single commas/,
      });
    },
  );

  it('an empty sectionIds is an empty list, which the source refuses', async () => {
    await expectError(await get(handler, `${KB}/files/agent-tools/content?sectionIds=`), {
      code: 'INVALID_ARGUMENT',
      message: /`sectionIds` must be a non-empty array/,
    });
  });

  it('a query over 2,000 code points (Chinese) is 400 naming `query`; 2,000 are searched', async () => {
    const long = '知'.repeat(2001);
    const url = `${KB}/search?query=${encodeURIComponent(long)}`;
    expect(url.length).toBeGreaterThan(18_000);
    expect(url.length).toBeLessThan(32_768);
    await expectError(await get(handler, url), {
      code: 'INVALID_ARGUMENT',
      message: /`query` is longer than 2000 characters/,
    });
    const ok = await get(handler, `${KB}/search?query=${encodeURIComponent('知'.repeat(2000))}`);
    expect(ok.status).toBe(200);
    // Code points, not UTF-16 units: 2,000 emoji are 4,000 units.
    expect(
      (await get(handler, `${KB}/search?query=${encodeURIComponent('😀'.repeat(2000))}`)).status,
    ).toBe(200);
    await expectError(
      await get(handler, `${KB}/search?query=${encodeURIComponent('😀'.repeat(2001))}`),
      { code: 'INVALID_ARGUMENT', message: /`query`/ },
    );
  });

  it('limits.maxQueryChars lowers the query limit', async () => {
    const h = exampleHandler({ limits: { maxQueryChars: 5 } });
    expect((await get(h, `${KB}/search?query=abcde`)).status).toBe(200);
    await expectError(await get(h, `${KB}/search?query=abcdef`), {
      code: 'INVALID_ARGUMENT',
      message: /longer than 5 characters/,
    });
  });

  it.each([
    ['/search', 'query'],
    ['/search?mode=file', 'query'],
    ['/files/content', 'path'],
    ['/files/content?sectionIds=overview', 'path'],
    ['/graph/expand', 'fileId'],
    ['/graph/expand?depth=2', 'fileId'],
  ])('missing required parameter: KB%s', async (route, name) => {
    await expectError(await get(handler, `${KB}${route}`), {
      code: 'INVALID_ARGUMENT',
      message: new RegExp(`Query parameter \`${name}\` is required`),
    });
  });

  it.each([
    ['/tree?limit=0', /`limit` must be an integer from 1 to 200/],
    ['/tree?limit=201', /`limit` must be an integer from 1 to 200/],
    ['/tree?limit=-1', /`limit`/],
    ['/tree?limit=999999999999999', /`limit`/],
    ['/tree?parentPath=%2Fpages', /no leading or trailing/],
    ['/tree?parentPath=index.md', /is a file/],
    ['/files/agent-tools/related?limit=51', /`limit`/],
    ['/graph/expand?fileId=agent-tools&depth=4', /`depth` must be an integer from 1 to 3/],
    ['/graph/expand?fileId=agent-tools&fanout=0', /`fanout`/],
    ['/search?query=x&limit=51', /`limit`/],
    ['/search?query=x&graphDepth=4', /`graphDepth`/],
    ['/search?query=x&graphFanout=51', /`graphFanout`/],
    ['/search?query=x&mode=fuzzy', /one of "hybrid", "file", "graph"/],
    ['/search?query=%20%20', /1 to 2000 characters/],
    ['/search?query=', /1 to 2000 characters/],
    ['/files/agent-tools/content?mode=self', /`mode` applies only with `sectionIds`/],
    ['/files/agent-tools/content?sectionIds=search&mode=whole', /`mode`/],
    ['/files/agent-tools/content?sectionIds=search,search', /twice/],
    ['/files/agent-tools/content?maxChars=0', /`maxChars`/],
    ['/files/content?path=pages', /is a directory/],
    ['/files/content?path=index.md&sectionIds=a', /navigation file/],
    ['/files/index.md/related', /navigation file/],
  ])('range and rule errors from the source: KB%s', async (route, message) => {
    await expectError(await get(handler, `${KB}${route}`), { code: 'INVALID_ARGUMENT', message });
  });

  it('a query of 2,000 code points with padding is counted after trimming, as the source counts it', async () => {
    const query = ` ${'知'.repeat(2_000)} `;
    const response = await get(exampleHandler(), `${KB}/search?query=${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
  });
});

describe('400 INVALID_CURSOR', () => {
  it('an unreadable cursor, one used with other parameters, and one of another operation', async () => {
    await expectError(await get(handler, `${KB}/tree?cursor=not-a-cursor`), {
      code: 'INVALID_CURSOR',
      message: /without `cursor`/,
    });
    await expectError(await get(handler, `${KB}/tree?cursor=${encodeURIComponent('%%%')}`), {
      code: 'INVALID_CURSOR',
    });
    const first = (await expectJson(await get(handler, `${KB}/tree?parentPath=pages&limit=1`))) as {
      nextCursor: string;
    };
    await expectError(
      await get(handler, `${KB}/tree?parentPath=pages&limit=2&cursor=${first.nextCursor}`),
      { code: 'INVALID_CURSOR', message: /other parameters/ },
    );
    await expectError(
      await get(handler, `${KB}/files/agent-tools/related?cursor=${first.nextCursor}`),
      { code: 'INVALID_CURSOR', message: /issued by `list_tree`/ },
    );
    await expectError(await get(handler, `${KB}/search?query=x&cursor=${first.nextCursor}`), {
      code: 'INVALID_CURSOR',
    });
  });
});

describe('401 UNAUTHENTICATED', () => {
  it('without credentials, with wrong ones, and when access returns undefined; no WWW-Authenticate unless configured', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }]) {
      const response = await call(handler, `${KB}/tree`, { headers });
      expect(response.headers.get('www-authenticate')).toBeNull();
      await expectError(response, { code: 'UNAUTHENTICATED', message: /no valid credentials/ });
    }
    const h = exampleHandler({ access: () => undefined });
    await expectError(await get(h, `${KB}/tree`), { code: 'UNAUTHENTICATED' });
  });

  it('with authenticateHeader, every 401 carries WWW-Authenticate', async () => {
    const h = exampleHandler({ authenticateHeader: 'Bearer realm="knowledge"' });
    for (const path of [`${KB}/tree`, `${BASE_PATH}/knowledge-bases`, `${KB}/search?query=x`]) {
      const response = await call(h, path, { headers: {} });
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="knowledge"');
      await expectError(response, { code: 'UNAUTHENTICATED' });
    }
    const ok = await get(h, `${KB}/tree`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('www-authenticate')).toBeNull();
  });

  it('an async access that resolves null is 401 too', async () => {
    const h = exampleHandler({ access: async () => null });
    await expectError(await get(h, `${KB}/tree`), { code: 'UNAUTHENTICATED' });
  });
});

describe('404 NOT_FOUND', () => {
  it('an unknown knowledge base names the list route', async () => {
    await expectError(await get(handler, `${BASE_PATH}/knowledge-bases/nope/tree`), {
      code: 'NOT_FOUND',
      message:
        /No knowledge base "nope" is readable here\. Call GET \/openapi\/v2\/knowledge-bases/,
    });
  });

  it.each([
    ['/files/agent-tool', /no file has the ID `agent-tool`.*`agent-tools`/],
    ['/files/agent-tool/content', /`agent-tools`/],
    ['/files/agent-tool/related', /agent-tool/],
    ['/graph/expand?fileId=agent-tool', /agent-tool/],
    ['/files/content?path=pages%2Fagents%2Fagent-tool.md', /`pages\/agents\/agent-tools.md`/],
    ['/tree?parentPath=pagez', /no directory `pagez`/],
    ['/files/agent-tools/content?sectionIds=serch', /get_file/],
  ])('unknown file, path, directory or section: KB%s', async (route, message) => {
    await expectError(await get(handler, `${KB}${route}`), { code: 'NOT_FOUND', message });
  });

  it.each([
    `${KB}/nope`,
    `${KB}/tree/`,
    `${KB}/files`,
    `${KB}/files/agent-tools/content/more`,
    `${BASE_PATH}/knowledge-bases/`,
    `${BASE_PATH}`,
    '/',
    '/elsewhere',
    `${BASE_PATH}/KNOWLEDGE-BASES/example/tree`,
  ])('unknown route %s lists the routes', async (path) => {
    await expectError(await get(handler, path), {
      code: 'NOT_FOUND',
      message: /No route .*Routes: \/openapi\/v2\/knowledge-bases, then \/tree/,
    });
  });

  it.each([KB, `${KB}/`, `${BASE_PATH}/knowledge-bases/no-such-kb`])(
    "a knowledge base's own URL %s (serve's KNOWLEDGE_BASE_URL) says it is the base of the routes, and names one",
    async (path) => {
      await expectError(await get(handler, path), {
        code: 'NOT_FOUND',
        message:
          /is a knowledge base's URL, the base of its routes, not a route itself: add one of \/tree.*, such as "?\/openapi\/v2\/knowledge-bases\/[\w-]+\/tree\?limit=50/,
      });
    },
  );

  it('an unknown route is quoted shortened, not echoed whole', async () => {
    const response = await get(handler, `/${'x'.repeat(20_000)}`);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message.length).toBeLessThan(1_000);
    expect(body.error.message).toContain('…');
  });
});

describe('405 METHOD_NOT_ALLOWED', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'LOCK'])(
    '%s → 405 with Allow: GET, HEAD, OPTIONS',
    async (method) => {
      const response = await call(handler, `${KB}/files/agent-tools`, { method, headers: READER });
      expect(response.headers.get('allow')).toBe(ALLOW);
      await expectError(response, {
        code: 'METHOD_NOT_ALLOWED',
        message: new RegExp(`${method} is not allowed.*Use GET`),
      });
    },
  );
});

describe('409 STALE_CURSOR', () => {
  it('a cursor from a source with another revision of the same knowledge base', async () => {
    const first = (await expectJson(await get(handler, `${KB}/tree?parentPath=pages&limit=1`))) as {
      nextCursor: string;
    };
    const changed = over(
      createCatalogSource(exampleCatalog(), exampleSourceOptions({ revision: 43 })),
    );
    await expectError(
      await get(changed, `${KB}/tree?parentPath=pages&limit=1&cursor=${first.nextCursor}`),
      { code: 'STALE_CURSOR', message: /changed/ },
    );
    const search = (await expectJson(
      await get(handler, `${KB}/search?query=knowledge+snapshot&limit=1`),
    )) as { nextCursor: string };
    await expectError(
      await get(
        changed,
        `${KB}/search?query=knowledge+snapshot&limit=1&cursor=${search.nextCursor}`,
      ),
      { code: 'STALE_CURSOR' },
    );
  });
});

describe('413 CONTENT_TOO_LARGE', () => {
  it('a whole read over maxChars lists the sections to read instead', async () => {
    await expectError(
      await get(handler, `${KB}/files/agent-tools/content?maxChars=100&whole=true`),
      {
        code: 'CONTENT_TOO_LARGE',
        message: /`overview` \d+, `search` \d+, `cursors` \d+/,
      },
    );
    await expectError(
      await get(
        handler,
        `${KB}/files/content?path=pages%2Fagents%2Fagent-tools.md&maxChars=10&whole=true`,
        {
          accept: 'text/markdown',
        },
      ),
      { code: 'CONTENT_TOO_LARGE' },
    );
  });
});

describe('414 (INVALID_ARGUMENT)', () => {
  it('a URL over 32,768 characters, before access is asked', async () => {
    let asked = 0;
    const h = exampleHandler({
      access: (request) => {
        asked++;
        return exampleAccess(request);
      },
    });
    const prefix = `${ORIGIN}${KB}/search?query=`;
    const over = `${prefix}${'a'.repeat(32_769 - prefix.length)}`;
    expect(over.length).toBe(32_769);
    await expectError(await get(h, over), {
      code: 'INVALID_ARGUMENT',
      status: 414,
      message: /longer than 32768 characters/,
    });
    await expectError(await call(h, over, { headers: {} }), {
      code: 'INVALID_ARGUMENT',
      status: 414,
    });
    expect(asked).toBe(0);
    // At the limit the URL is read (and its query refused for its own length).
    const at = `${prefix}${'a'.repeat(32_768 - prefix.length)}`;
    await expectError(await get(h, at), {
      code: 'INVALID_ARGUMENT',
      status: 400,
      message: /`query` is longer/,
    });
  });

  it('limits.maxUrlLength lowers it', async () => {
    const h = exampleHandler({ limits: { maxUrlLength: 100 } });
    await expectError(await get(h, `${KB}/search?query=${'b'.repeat(100)}`), {
      code: 'INVALID_ARGUMENT',
      status: 414,
      message: /longer than 100 characters/,
    });
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
  });
});

describe('429 RATE_LIMITED', () => {
  it('with Retry-After and retryAfterSeconds, rounded up to whole seconds', async () => {
    const h = exampleHandler({ rateLimit: () => ({ ok: false, retryAfterSeconds: 1.2 }) });
    await expectError(await get(h, `${KB}/tree`), {
      code: 'RATE_LIMITED',
      retryAfterSeconds: 2,
      message: /Wait 2 s/,
    });
    const zero = exampleHandler({ rateLimit: async () => ({ ok: false, retryAfterSeconds: 0 }) });
    await expectError(await get(zero, `${KB}/tree`), {
      code: 'RATE_LIMITED',
      retryAfterSeconds: 0,
    });
  });

  // String(1e21) is `1e+21`, which is not HTTP's delay-seconds (digits only).
  it('Retry-After is digits even for a very long wait', async () => {
    const h = exampleHandler({ rateLimit: () => ({ ok: false, retryAfterSeconds: 1e21 }) });
    const response = await get(h, `${KB}/tree`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('the hook hears the operation and knowledge base of each route, before access (so unauthenticated floods count)', async () => {
    const heard: RateLimitRequestInfo[] = [];
    const h = exampleHandler({
      rateLimit: (_request, info) => {
        heard.push(info);
        return { ok: true };
      },
    });
    const routes = [
      '/tree',
      '/files/agent-tools',
      '/files/agent-tools/content',
      '/files/content?path=index.md',
      '/files/agent-tools/related',
      '/graph/expand?fileId=agent-tools',
      '/search?query=x',
    ];
    for (const route of routes) expect((await get(h, `${KB}${route}`)).status).toBe(200);
    expect((await get(h, `${BASE_PATH}/knowledge-bases`)).status).toBe(200);
    expect((await call(h, `${KB}/tree`, { headers: {} })).status).toBe(401);
    expect(heard).toEqual([
      { knowledgeBaseId: 'example', operation: 'list_tree', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'get_file', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'read_file', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'read_file', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'read_related', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'expand_graph', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'search_files', clientAddress: null },
      { knowledgeBaseId: null, operation: 'list_knowledge_bases', clientAddress: null },
      { knowledgeBaseId: 'example', operation: 'list_tree', clientAddress: null },
    ]);
  });

  it('a refused caller without credentials gets 429 before access runs', async () => {
    let accessCalls = 0;
    const h = exampleHandler({
      access: (request) => {
        accessCalls++;
        return exampleAccess(request);
      },
      rateLimit: createMemoryRateLimiter({ capacity: 1, refillPerSecond: 0.001, now: () => 0 }),
    });
    expect((await call(h, `${KB}/tree`, { headers: {} })).status).toBe(401);
    await expectError(await call(h, `${KB}/tree`, { headers: {} }), {
      code: 'RATE_LIMITED',
      retryAfterSeconds: 1000,
    });
    expect(accessCalls).toBe(1);
  });

  it('createMemoryRateLimiter as the hook: the burst passes, then 429 with the wait for the next token', async () => {
    let now = 0;
    const h = exampleHandler({
      rateLimit: createMemoryRateLimiter({ capacity: 2, refillPerSecond: 0.5, now: () => now }),
    });
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
    await expectError(await get(h, `${KB}/tree`), { code: 'RATE_LIMITED', retryAfterSeconds: 2 });
    now = 2000;
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
  });
});

describe('500 INTERNAL', () => {
  const SECRET = 'secret at /srv/app/src/store.ts:12';

  /** A 500 whose body says nothing of `error`'s message, stack or paths; `onError` heard `error`. */
  async function expectInternal(
    options: Partial<KnowledgeHandlerOptions>,
    path = `${KB}/tree`,
    headers: Record<string, string> = {},
  ): Promise<unknown[]> {
    const heard: unknown[] = [];
    const h = exampleHandler({ ...options, onError: (error, info) => heard.push(error, info) });
    const response = await get(h, path, { ...headers, 'x-request-id': 'req-trace-1' });
    const body = await expectError(response, {
      code: 'INTERNAL',
      message: /failed unexpectedly.*report request req-trace-1/,
    });
    const text = JSON.stringify(body);
    for (const leak of [
      'secret',
      '/srv',
      'store.ts',
      '    at ',
      'TypeError',
      'Error:',
      'access()',
      'rateLimit()',
      'createKnowledgeHandler',
    ])
      expect(text).not.toContain(leak);
    expect(heard).toHaveLength(2);
    expect(heard[1]).toEqual({ requestId: 'req-trace-1' });
    return heard;
  }

  it('a source that throws a plain error, synchronously or by rejecting', async () => {
    const thrown = new Error(SECRET);
    const sync = recordingSource(exampleSource(), {
      listTree: () => {
        throw thrown;
      },
    });
    expect(
      (await expectInternal({ access: () => ({ knowledgeBases: { example: sync.source } }) }))[0],
    ).toBe(thrown);
    const rejecting = recordingSource(exampleSource(), { getFile: () => Promise.reject(thrown) });
    expect(
      (
        await expectInternal(
          { access: () => ({ knowledgeBases: { example: rejecting.source } }) },
          `${KB}/files/agent-tools`,
        )
      )[0],
    ).toBe(thrown);
  });

  it("a source's own INTERNAL gets the handler's message, not the source's", async () => {
    const error = new KnowledgeToolError('INTERNAL', SECRET);
    const broken = recordingSource(exampleSource(), { searchFiles: () => Promise.reject(error) });
    expect(
      (
        await expectInternal(
          { access: () => ({ knowledgeBases: { example: broken.source } }) },
          `${KB}/search?query=x`,
        )
      )[0],
    ).toBe(error);
  });

  it('a source that answers something not JSON, or nothing', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    for (const answer of [circular, undefined, { activeContentRevision: 1n }]) {
      const odd = recordingSource(exampleSource(), { listTree: async () => answer });
      await expectInternal({ access: () => ({ knowledgeBases: { example: odd.source } }) });
    }
    // Markdown needs the file record for its headers.
    const noFile = recordingSource(exampleSource(), { readFile: async () => ({ content: 'x' }) });
    await expectInternal(
      { access: () => ({ knowledgeBases: { example: noFile.source } }) },
      `${KB}/files/agent-tools/content`,
      { accept: 'text/markdown' },
    );
  });

  it('a throwing or rejecting access', async () => {
    const thrown = new Error(SECRET);
    expect(
      (
        await expectInternal({
          access: () => {
            throw thrown;
          },
        })
      )[0],
    ).toBe(thrown);
    expect((await expectInternal({ access: async () => Promise.reject(thrown) }))[0]).toBe(thrown);
  });

  it.each([
    ['a string', 'yes'],
    ['an object without knowledgeBases', {}],
    ['knowledgeBases null', { knowledgeBases: null }],
    ['knowledgeBases an array', { knowledgeBases: [exampleSource()] }],
    ['a grant that is not a source', { knowledgeBases: { example: 'source' } }],
    ['a grant missing a method', { knowledgeBases: { example: { listTree: () => undefined } } }],
    [
      'a title that is not a string',
      { knowledgeBases: { example: { source: exampleSource(), title: 7 } } },
    ],
  ])('access returning %s', async (_, value) => {
    const [error] = await expectInternal({ access: () => value as never });
    expect(error).toBeInstanceOf(TypeError);
  });

  it('a bad grant fails the knowledge-base list too', async () => {
    await expectInternal(
      { access: () => ({ knowledgeBases: { example: exampleSource(), bad: 42 as never } }) },
      `${BASE_PATH}/knowledge-bases`,
    );
  });

  it.each([
    ['undefined', undefined],
    ['true', true],
    ['{ ok: "yes" }', { ok: 'yes' }],
    ['{ ok: false } without seconds', { ok: false }],
    ['negative seconds', { ok: false, retryAfterSeconds: -1 }],
    ['NaN seconds', { ok: false, retryAfterSeconds: Number.NaN }],
    ['infinite seconds', { ok: false, retryAfterSeconds: Number.POSITIVE_INFINITY }],
    ['seconds as a string', { ok: false, retryAfterSeconds: '5' }],
  ])('rateLimit returning %s', async (_, value) => {
    const [error] = await expectInternal({ rateLimit: () => value as never });
    expect(error).toBeInstanceOf(TypeError);
  });

  it('a throwing or rejecting rateLimit', async () => {
    const thrown = new Error(SECRET);
    expect(
      (
        await expectInternal({
          rateLimit: () => {
            throw thrown;
          },
        })
      )[0],
    ).toBe(thrown);
    expect((await expectInternal({ rateLimit: () => Promise.reject(thrown) }))[0]).toBe(thrown);
  });

  it('an onError that throws does not change the answer', async () => {
    const h = exampleHandler({
      access: () => {
        throw new Error(SECRET);
      },
      onError: () => {
        throw new Error('logger down');
      },
    });
    await expectError(await get(h, `${KB}/tree`), { code: 'INTERNAL' });
  });

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
});

describe('errors a source raises pass through with their status', () => {
  const passing = KNOWLEDGE_TOOL_ERROR_CODES.filter((code) => code !== 'INTERNAL');

  it.each(passing)('%s', async (code) => {
    const retryAfterSeconds = code === 'RATE_LIMITED' ? 3 : undefined;
    const failing = recordingSource(exampleSource(), {
      getFile: () =>
        Promise.reject(
          new KnowledgeToolError(code, `the source says ${code}`, { retryAfterSeconds }),
        ),
    });
    const response = await get(over(failing.source), `${KB}/files/agent-tools`);
    await expectError(response, {
      code,
      status: KNOWLEDGE_TOOL_ERROR_STATUS[code],
      message: new RegExp(`the source says ${code}`),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  });

  it('a source error with a code outside the table is 500 INTERNAL, never a 200', async () => {
    const odd = [
      new KnowledgeToolError('TEAPOT' as never, 'a code this handler does not know'),
      Object.assign(new Error('from another copy'), {
        name: 'KnowledgeToolError',
        code: 'NEWER_CODE',
        httpStatus: 418,
      }),
    ];
    for (const error of odd) {
      const failing = recordingSource(exampleSource(), { getFile: () => Promise.reject(error) });
      await expectError(await get(over(failing.source), `${KB}/files/agent-tools`), {
        code: 'INTERNAL',
      });
    }
  });

  /** A 429 from a source error with this wait: Retry-After, if sent, is digits; the body's wait, if sent, an integer. */
  async function expectWholeRetryAfter(retryAfterSeconds: number): Promise<void> {
    const failing = recordingSource(exampleSource(), {
      listTree: () =>
        Promise.reject(new KnowledgeToolError('RATE_LIMITED', 'slow down', { retryAfterSeconds })),
    });
    const response = await get(over(failing.source), `${KB}/tree`);
    expect(response.status).toBe(429);
    const retryAfter = response.headers.get('retry-after');
    if (retryAfter !== null) expect(retryAfter).toMatch(/^\d+$/);
    const body = (await response.json()) as { error: { retryAfterSeconds?: unknown } };
    if ('retryAfterSeconds' in body.error)
      expect(Number.isSafeInteger(body.error.retryAfterSeconds)).toBe(true);
  }

  it('Retry-After from a source error with a huge or infinite wait is whole seconds in digits', async () => {
    await expectWholeRetryAfter(1e21);
    await expectWholeRetryAfter(Number.POSITIVE_INFINITY);
    await expectWholeRetryAfter(2.2);
  });

  it('Retry-After from a source error with a NaN wait is digits or absent', async () => {
    await expectWholeRetryAfter(Number.NaN);
  });

  it('502 TRANSPORT_ERROR from a remote source', async () => {
    const remote = recordingSource(exampleSource(), {
      listTree: () =>
        Promise.reject(new KnowledgeToolError('TRANSPORT_ERROR', 'The server did not answer.')),
    });
    await expectError(await get(over(remote.source), `${KB}/tree`), {
      code: 'TRANSPORT_ERROR',
      message: /did not answer/,
    });
  });
});

describe('503 and 504', () => {
  it('503 SEARCH_UNAVAILABLE from a catalog source whose index cannot be built', async () => {
    let broken = false;
    const catalog = catalogOf({ x: '# X\n\nhello\n' });
    const flaky = {
      ids: catalog.ids,
      sectionIds: (id: string) => catalog.sectionIds(id),
      document: (id: string) => {
        if (broken) throw new Error('storage offline at /srv/data');
        return catalog.document(id);
      },
      assertSelection: (request: unknown) => catalog.assertSelection(request as never),
      read: (request: Parameters<typeof catalog.read>[0]) => catalog.read(request),
    };
    const source = createCatalogSource(flaky as never, { id: 'example' });
    broken = true;
    const body = await expectError(await get(over(source), `${KB}/search?query=hello`), {
      code: 'SEARCH_UNAVAILABLE',
      message: /list_tree/,
    });
    expect(JSON.stringify(body)).not.toContain('/srv');
  });

  it('504 SEARCH_TIMEOUT for a search that hangs past timeoutMs; its signal is aborted', async () => {
    const hanging = recordingSource(exampleSource(), { searchFiles: () => never() });
    const h = over(hanging.source, { timeoutMs: 20 });
    await expectError(await get(h, `${KB}/search?query=x`), {
      code: 'SEARCH_TIMEOUT',
      message: /`search_files` took longer than 20 ms/,
    });
    expect(hanging.calls[0]!.context!.signal!.aborted).toBe(true);
  });

  it("504 SEARCH_TIMEOUT from the source's own search timeout", async () => {
    const slow = createCatalogSource(
      exampleCatalog(),
      exampleSourceOptions({
        search: createBm25fEngine({
          searchTimeoutMs: 20,
          semanticTimeoutMs: 10_000,
          embedder: { embed: () => never() },
        }),
      }),
    );
    await expectError(await get(over(slow), `${KB}/search?query=cursor`), {
      code: 'SEARCH_TIMEOUT',
    });
  });

  it.each([
    ['/tree', 'listTree', 'list_tree'],
    ['/files/agent-tools', 'getFile', 'get_file'],
    ['/files/agent-tools/content', 'readFile', 'read_file'],
    ['/files/content?path=index.md', 'readFile', 'read_file'],
    ['/files/agent-tools/related', 'readRelated', 'read_related'],
    ['/graph/expand?fileId=agent-tools', 'expandGraph', 'expand_graph'],
  ] as const)(
    '504 TIMEOUT for KB%s when %s hangs; its signal is aborted',
    async (route, method, operation) => {
      const hanging = recordingSource(exampleSource(), { [method]: () => never() });
      const h = over(hanging.source, { timeoutMs: 20 });
      await expectError(await get(h, `${KB}${route}`), {
        code: 'TIMEOUT',
        message: new RegExp(`\`${operation}\` took longer than 20 ms`),
      });
      const context = hanging.calls.find((c) => c.method === method)!
        .context as KnowledgeCallContext;
      expect(context.signal!.aborted).toBe(true);
    },
  );

  it('504 TIMEOUT for the list when a source hangs, and when access or rateLimit hangs', async () => {
    const hanging = recordingSource(exampleSource(), { listTree: () => never() });
    await expectError(
      await get(over(hanging.source, { timeoutMs: 20 }), `${BASE_PATH}/knowledge-bases`),
      { code: 'TIMEOUT', message: /list_knowledge_bases/ },
    );
    await expectError(
      await get(exampleHandler({ timeoutMs: 20, access: () => never() }), `${KB}/tree`),
      { code: 'TIMEOUT' },
    );
    await expectError(
      await get(
        exampleHandler({ timeoutMs: 20, rateLimit: () => never() }),
        `${KB}/search?query=x`,
      ),
      { code: 'SEARCH_TIMEOUT' },
    );
  });

  it('a timeoutMs over 2^31 - 1 is refused or honoured, never a 504 after a millisecond', async () => {
    const slow = recordingSource(exampleSource(), {
      listTree: (input, context) =>
        new Promise((resolve) =>
          setTimeout(() => resolve(exampleSource().listTree(input as never, context)), 30),
        ),
    });
    let h: ReturnType<typeof over>;
    try {
      h = over(slow.source, { timeoutMs: 3_000_000_000 });
    } catch (error) {
      expect(error).toMatchObject({ name: 'KnowledgeError', code: 'INVALID_INPUT' });
      return;
    }
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
  });

  it('a caller that hangs up aborts a search at once, and is not waited for', async () => {
    const controller = new AbortController();
    let heard: AbortSignal | undefined;
    const hanging = recordingSource(exampleSource(), {
      searchFiles: (_input, context) => {
        heard = context?.signal;
        setTimeout(() => controller.abort(), 5);
        return never();
      },
    });
    const h = over(hanging.source, { timeoutMs: 60_000 });
    const response = await h(
      new Request(`${ORIGIN}${KB}/search?query=x`, { headers: READER, signal: controller.signal }),
    );
    expect(heard!.aborted).toBe(true);
    await expectError(response, { code: 'SEARCH_TIMEOUT' });
  });

  it('the signal of any other call is aborted when the time is up', async () => {
    let heard: AbortSignal | undefined;
    const hanging = recordingSource(exampleSource(), {
      readFile: (_input, context) => {
        heard = context?.signal;
        return never();
      },
    });
    const response = await over(hanging.source, { timeoutMs: 30 })(
      new Request(`${ORIGIN}${KB}/files/agent-tools/content`, { headers: READER }),
    );
    expect(heard!.aborted).toBe(true);
    await expectError(response, { code: 'TIMEOUT' });
  });
});

describe('createKnowledgeHandler options', () => {
  const access = exampleAccess;

  it('access is required', () => {
    expectKnowledgeError(() => createKnowledgeHandler({} as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'access'],
    });
    expectKnowledgeError(() => createKnowledgeHandler(undefined as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'access'],
    });
    expectKnowledgeError(() => createKnowledgeHandler({ access: 'yes' } as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'access'],
    });
    expectKnowledgeError(() => createKnowledgeHandler(null as never), {
      code: 'INVALID_INPUT',
      path: ['options'],
    });
  });

  it.each(['/', 'openapi', '/openapi/', '/a b', '/a?b', '/a#b', '/a\\b', 7])(
    'basePath %j is refused',
    (basePath) => {
      expectKnowledgeError(() => createKnowledgeHandler({ access, basePath } as never), {
        code: 'INVALID_INPUT',
        path: ['options', 'basePath'],
      });
    },
  );

  it('an unknown option is named', () => {
    const error = expectKnowledgeError(
      () => createKnowledgeHandler({ access, timeout: 5 } as never),
      { code: 'INVALID_INPUT', path: ['options', 'timeout'] },
    );
    expect(error.issues[0]!.message).toMatch(/unknown option `timeout`.*`timeoutMs`/);
  });

  it.each([
    [{ limits: { maxUrlLength: 0 } }, ['options', 'limits', 'maxUrlLength']],
    [{ limits: { maxQueryChars: 1.5 } }, ['options', 'limits', 'maxQueryChars']],
    [{ limits: { maxUrl: 5 } }, ['options', 'limits', 'maxUrl']],
    [{ limits: 5 }, ['options', 'limits']],
    [{ timeoutMs: 0 }, ['options', 'timeoutMs']],
    [{ timeoutMs: Number.POSITIVE_INFINITY }, ['options', 'timeoutMs']],
    [{ rateLimit: {} }, ['options', 'rateLimit']],
    [{ onError: 'log' }, ['options', 'onError']],
    [{ authenticateHeader: '' }, ['options', 'authenticateHeader']],
    [{ authenticateHeader: 'Bearer\r\nSet-Cookie: x' }, ['options', 'authenticateHeader']],
    [{ cors: true }, ['options', 'cors']],
    [{ cors: { origin: 5 } }, ['options', 'cors']],
    [{ cors: { origin: '*', maxAgeSeconds: -1 } }, ['options', 'cors', 'maxAgeSeconds']],
    [{ cors: { origin: '*', credentials: 'yes' } }, ['options', 'cors', 'credentials']],
    [{ cors: { origin: '*', methods: ['POST'] } }, ['options', 'cors', 'methods']],
    [{ cors: { origin: '*', credentials: true } }, ['options', 'cors', 'credentials']],
    [{ timeoutMs: 2_147_483_648 }, ['options', 'timeoutMs']],
  ])('%j is refused at its path', (extra, path) => {
    expectKnowledgeError(() => createKnowledgeHandler({ access, ...extra } as never), {
      code: 'INVALID_INPUT',
      path,
    });
  });

  it('every problem is listed at once', () => {
    const error = expectKnowledgeError(
      () =>
        createKnowledgeHandler({
          basePath: '/x/',
          timeoutMs: -1,
          limits: { maxUrlLength: 'long' },
        } as never),
      { code: 'INVALID_INPUT' },
    );
    expect(error.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        ['options', 'basePath'],
        ['options', 'timeoutMs'],
        ['options', 'access'],
        ['options', 'limits', 'maxUrlLength'],
      ]),
    );
    expect(error.issues).toHaveLength(4);
  });

  it('undefined options are ignored, as if not given', async () => {
    const h = createKnowledgeHandler({
      access,
      basePath: undefined,
      cors: undefined,
      rateLimit: undefined,
    });
    expect((await get(h, '/knowledge-bases/example/tree')).status).toBe(200);
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
});
