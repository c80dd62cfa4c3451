/**
 * The security suite of `shared/spec/http.md` ("What must be shown"): every route without access (401);
 * with access to another knowledge base only (404, the same body as a missing one); every non-GET method
 * (405); traversal and encoding tricks; oversize URL and query; header injection in `X-Request-Id`; a
 * foreign cursor; a failing or hanging source (500 / 504, the handler still serving the next request).
 */
import { describe, expect, it } from 'vitest';
import type { KnowledgeToolErrorBody } from '../../src/agent/errors/codes.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import type { KnowledgeAccess, KnowledgeHandler } from '../../src/http/types.js';
import {
  BASE_PATH,
  exampleHandler,
  exampleSource,
  ORIGIN,
  OTHER,
  privateSource,
  READER,
} from '../helpers/exampleHandler.js';
import {
  ALLOW,
  call,
  expectError,
  expectJson,
  FRESH_ID,
  get,
  headerEntries,
  never,
} from '../helpers/handler-http.js';
import { recordingSource } from '../helpers/fakeSource.js';
import { sourceWithIds } from '../helpers/scenarioSources.js';

const KBS = `${BASE_PATH}/knowledge-bases`;
const KB = `${KBS}/example`;
const handler = exampleHandler();

/** Every route under a knowledge base, with valid parameters. */
const KB_ROUTES = [
  '/tree',
  '/tree?parentPath=pages&limit=2',
  '/files/agent-tools',
  '/files/agent-tools/content',
  '/files/content?path=index.md',
  '/files/agent-tools/related',
  '/graph/expand?fileId=agent-tools',
  '/search?query=cursor',
];
/** Every route: the list, and each knowledge-base route on `example`. */
const ALL_ROUTES = [KBS, ...KB_ROUTES.map((r) => `${KB}${r}`)];

describe('no access: 401 on every route', () => {
  it.each(ALL_ROUTES)('%s', async (path) => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'reader-token' },
      { cookie: 'session=reader-token' },
    ]) {
      await expectError(await call(handler, path, { headers }), { code: 'UNAUTHENTICATED' });
    }
  });

  it('an unknown or unreadable knowledge base is 401 too without credentials (nothing learnt before access)', async () => {
    for (const kb of ['private', 'nope', '__proto__']) {
      await expectError(await call(handler, `${KBS}/${kb}/tree?bogus=1`, { headers: {} }), {
        code: 'UNAUTHENTICATED',
      });
    }
  });
});

describe('access to another knowledge base only: 404, as for one that does not exist', () => {
  /** The same handler, but no caller may read `private`: it does not exist. */
  const withoutPrivate = exampleHandler({
    access: (request) =>
      request.headers.get('authorization') === READER.authorization
        ? { knowledgeBases: { example: exampleSource() } }
        : null,
  });

  async function body(
    h: KnowledgeHandler,
    path: string,
    headers: Record<string, string> = READER,
  ): Promise<{ error: KnowledgeToolErrorBody['error']; headers: string[] }> {
    const response = await call(h, path, { headers });
    const parsed = await expectError(response.clone(), { code: 'NOT_FOUND' });
    return { error: parsed.error, headers: headerEntries(response).map(([name]) => name) };
  }

  it.each([...KB_ROUTES, '/tree?bogus=1&limit=x', '/search', '/files/secret/content?sectionIds=,'])(
    'reader on private%s',
    async (route) => {
      const unreadable = await body(handler, `${KBS}/private${route}`);
      const missing = await body(withoutPrivate, `${KBS}/private${route}`);
      expect(unreadable).toEqual(missing);
      // And the same as any other missing ID, but for the ID it names.
      const other = await body(handler, `${KBS}/zzz${route}`);
      expect({
        ...other,
        error: { ...other.error, message: other.error.message.replace('"zzz"', '"private"') },
      }).toEqual(unreadable);
    },
  );

  it("the other user on example, even with the file's exact ID", async () => {
    const unreadable = await body(handler, `${KB}/files/agent-tools/content`, OTHER);
    const missing = await body(handler, `${KBS}/exampl/files/agent-tools/content`, OTHER);
    expect(unreadable.error.message.replace('"example"', '"exampl"')).toBe(missing.error.message);
    expect(unreadable.headers).toEqual(missing.headers);
  });

  it("the knowledge-base list shows only the caller's own", async () => {
    const items = (
      (await expectJson(await get(handler, KBS))) as { items: { knowledgeBaseId: string }[] }
    ).items.map((i) => i.knowledgeBaseId);
    expect(items).toEqual(['example']);
    expect(
      JSON.stringify(await expectJson(await call(handler, KBS, { headers: OTHER }))),
    ).not.toContain('example');
  });
});

describe('every method but GET, HEAD and OPTIONS: 405 on every route', () => {
  const METHODS = [
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'PROPFIND',
    'PROPPATCH',
    'MKCOL',
    'COPY',
    'MOVE',
    'LOCK',
    'UNLOCK',
    'PURGE',
    'LINK',
    'X-WRITE',
  ];

  it.each(ALL_ROUTES)('%s', async (path) => {
    const source = recordingSource(exampleSource());
    const h = exampleHandler({ access: () => ({ knowledgeBases: { example: source.source } }) });
    for (const method of METHODS) {
      for (const headers of [READER, {}]) {
        const response = await call(h, path, {
          method,
          headers,
          ...(method === 'POST' || method === 'PUT' ? { body: '{"fileId":"x"}' } : {}),
        });
        expect(response.headers.get('allow')).toBe(ALLOW);
        await expectError(response, { code: 'METHOD_NOT_ALLOWED' });
      }
    }
    expect(source.calls).toEqual([]);
  });

  it('on an unknown or unreadable knowledge base as well', async () => {
    for (const path of [`${KBS}/private/tree`, `${KBS}/nope/files/x`]) {
      await expectError(await call(handler, path, { method: 'DELETE' }), {
        code: 'METHOD_NOT_ALLOWED',
      });
    }
  });
});

describe('traversal and encoding tricks: 404 or 400, never another file, never a crash', () => {
  // `ids` has pages whose IDs hold `/` and `%`, and `secret` lives in `private`, which the caller cannot read.
  const ids = sourceWithIds(['guides/setup', 'guides', 'a/b', 'a%2Fb', 'a%252Fb']);
  const errors: unknown[] = [];
  const h = createKnowledgeHandler({
    basePath: BASE_PATH,
    access: (request): KnowledgeAccess | null =>
      request.headers.get('authorization') === READER.authorization
        ? { knowledgeBases: { example: exampleSource(), ids } }
        : null,
    onError: (error) => errors.push(error),
  });

  it.each([
    // Dot segments, raw and encoded: the URL parser resolves them before routing; none reaches `private`.
    `${KB}/files/%2e%2e/content`,
    `${KB}/files/.%2E/%2e%2e/private/files/secret`,
    `${KB}/../private/tree`,
    `${KB}/%2e%2e/private/tree`,
    `${KB}/files/..%2F..%2Fprivate%2Ffiles%2Fsecret`,
    `${KB}/files/..%2Fsecret/content`,
    `${KB}/files/%2e%2e%2fsecret/content`,
    `${KB}/files/....%2F%2F....%2F%2Fsecret`,
    `${KBS}/example%2F..%2Fprivate/tree`,
    `${KBS}/example%2F%2E%2E%2Fprivate/files/secret/content`,
    `${KBS}/private%00/tree`,
    `${KBS}/%2e%2e/tree`,
    // Backslashes: raw ones are slashes to the URL parser, encoded ones are part of the name.
    `${KB}/files/..\\..\\private\\files\\secret`,
    `${KB}/files/..%5C..%5Cprivate%5Csecret/content`,
    `${KB}/files/pages%5Cagents%5Cagent-tools.md/content`,
    // Control characters and line breaks.
    `${KB}/files/agent-tools%00/content`,
    `${KB}/files/agent-tools%00.md`,
    `${KB}/files/agent-tools%0d%0aX-Injected:%20yes/content`,
    `${KB}/files/%1b%5b31m/content`,
    `${KBS}/example%0d%0a/tree`,
    // Malformed and overlong UTF-8, and look-alikes.
    `${KB}/files/%c0%ae%c0%ae%2fsecret`,
    `${KB}/files/%E0%A4%A/content`,
    `${KB}/files/%/content`,
    `${KB}/files/%ef%bc%8e%ef%bc%8e%ef%bc%8fsecret`,
    `${KB}/files/AGENT-TOOLS`,
    `${KB}/files/agent-tools%20`,
    // Paths that are names, never opened.
    `${KB}/files/content?path=..%2Fprivate%2Fpages%2Fsecret.md`,
    `${KB}/files/content?path=pages%2F..%2Findex.md`,
    `${KB}/files/content?path=.%2Findex.md`,
    `${KB}/files/content?path=%2Fetc%2Fpasswd`,
    `${KB}/files/content?path=file%3A%2F%2F%2Fetc%2Fpasswd`,
    `${KB}/files/content?path=pages%5Cagents%5Cagent-tools.md`,
    `${KB}/files/content?path=index.md%00`,
    `${KB}/files/content?path=index.md%0d%0a`,
    `${KB}/files/content?path=PAGES%2Fagents%2Fagent-tools.md`,
    `${KB}/tree?parentPath=..`,
    `${KB}/tree?parentPath=pages%2F..`,
    `${KB}/tree?parentPath=pages%5Cagents`,
    `${KB}/tree?parentPath=%2E`,
    `${KB}/graph/expand?fileId=..%2F..%2Fsecret`,
    // Prototype keys as knowledge-base and file IDs.
    `${KBS}/__proto__/tree`,
    `${KBS}/constructor/tree`,
    `${KBS}/toString/files/x`,
    `${KBS}/hasOwnProperty/search?query=x`,
    `${KBS}/prototype/tree`,
    `${KBS}/valueOf/tree`,
    `${KB}/files/__proto__`,
    `${KB}/files/constructor/content`,
    `${KB}/files/content?path=__proto__`,
    `${KB}/tree?parentPath=__proto__`,
    // Double encoding is decoded once: `%25252F` is the ID `a%252Fb`… which exists; `%2525252F` does not.
    `${BASE_PATH}/knowledge-bases/ids/files/a%2525252Fb`,
    `${BASE_PATH}/knowledge-bases/ids/files/guides%252Fsetup`,
    `${BASE_PATH}/knowledge-bases/ids/files/guides%2F..%2Fguides%2Fsetup`,
    `${BASE_PATH}/knowledge-bases/ids/files/guides%2F%2Fsetup`,
    `${BASE_PATH}/knowledge-bases/ids/files/guides/setup`,
  ])('%s', async (path) => {
    const response = await get(h, path);
    const body = await expectError(response, {
      code: response.status === 400 ? 'INVALID_ARGUMENT' : 'NOT_FOUND',
    });
    expect([400, 404]).toContain(body.error.httpStatus);
    expect(response.headers.get('x-injected')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('%2F in a file ID is a slash of the ID, and double encoding is decoded exactly once', async () => {
    const read = async (segment: string): Promise<string> =>
      ((await expectJson(await get(h, `${KBS}/ids/files/${segment}`))) as { fileId: string })
        .fileId;
    expect(await read('guides%2Fsetup')).toBe('guides/setup');
    expect(await read('guides')).toBe('guides');
    expect(await read('a%2Fb')).toBe('a/b');
    expect(await read('a%252Fb')).toBe('a%2Fb');
    expect(await read('a%25252Fb')).toBe('a%252Fb');
    const content = (await expectJson(await get(h, `${KBS}/ids/files/guides%2Fsetup/content`))) as {
      file: { fileId: string };
    };
    expect(content.file.fileId).toBe('guides/setup');
  });

  it('prototype keys are not knowledge bases with a Map grant either', async () => {
    const m = createKnowledgeHandler({
      access: () => ({ knowledgeBases: new Map([['example', exampleSource()]]) }),
    });
    for (const kb of ['__proto__', 'constructor', 'size', 'get', 'has']) {
      await expectError(await call(m, `/knowledge-bases/${kb}/tree`), { code: 'NOT_FOUND' });
    }
  });
});

describe('oversize URL and query', () => {
  it('a URL over 32,768 characters is 414 INVALID_ARGUMENT, before anything else', async () => {
    const huge = `${ORIGIN}${KB}/files/${'x'.repeat(33_000)}`;
    await expectError(await get(handler, huge), { code: 'INVALID_ARGUMENT', status: 414 });
    await expectError(await call(handler, huge, { headers: {} }), {
      code: 'INVALID_ARGUMENT',
      status: 414,
    });
    await expectError(await get(handler, `${KB}/tree?cursor=${'c'.repeat(40_000)}`), {
      code: 'INVALID_ARGUMENT',
      status: 414,
    });
  });

  it('a query of 2,001 Chinese characters is 400 INVALID_ARGUMENT', async () => {
    await expectError(
      await get(handler, `${KB}/search?query=${encodeURIComponent('问'.repeat(2001))}`),
      { code: 'INVALID_ARGUMENT', message: /`query`/ },
    );
  });
});

describe('header injection in X-Request-Id', () => {
  const BAD = [
    '',
    ' ',
    'x'.repeat(129),
    'id\tX-Injected: yes',
    'id X-Injected: yes',
    'id%0d%0aX-Injected:%20yes',
    'id\\r\\nX-Injected: yes',
    'id\u0085next',
    'id\u00e9',
    'a/b',
    'a,b',
    'a;b',
    '<script>alert(1)</script>',
    '"quoted"',
  ];

  it.each(BAD)('%j is replaced by a fresh req-<uuid>, never echoed', async (value) => {
    for (const path of [`${KB}/tree`, `${KB}/nope`, `${KB}/files/nope`]) {
      for (const method of ['GET', 'POST', 'OPTIONS']) {
        const response = await call(handler, path, {
          method,
          headers: { ...READER, 'x-request-id': value },
        });
        const id = response.headers.get('x-request-id')!;
        expect(id).toMatch(FRESH_ID);
        expect(response.headers.get('x-injected')).toBeNull();
        const text = await response.text();
        if (text !== '' && response.status >= 400)
          expect((JSON.parse(text) as KnowledgeToolErrorBody).requestId).toBe(id);
        if (value.trim() !== '') expect(text).not.toContain(value);
      }
    }
  });

  it('two X-Request-Id headers are one comma-joined value: fresh', async () => {
    const headers = new Headers(READER);
    headers.append('x-request-id', 'one');
    headers.append('x-request-id', 'two');
    expect((await call(handler, `${KB}/tree`, { headers })).headers.get('x-request-id')).toMatch(
      FRESH_ID,
    );
  });

  it('1 to 128 characters of A-Za-z0-9._:- are kept, on every status', async () => {
    const valid = ['a', 'x'.repeat(128), 'req-0123', 'A.b_c:d-E', '...', '-'];
    const rateLimited = exampleHandler({ rateLimit: () => ({ ok: false, retryAfterSeconds: 1 }) });
    for (const value of valid) {
      for (const [h, path, method, headers] of [
        [handler, `${KB}/tree`, 'GET', READER],
        [handler, `${KB}/tree`, 'GET', {}],
        [handler, `${KB}/nope`, 'GET', READER],
        [handler, `${KB}/tree`, 'PUT', READER],
        [handler, `${KB}/tree`, 'OPTIONS', {}],
        [rateLimited, `${KB}/tree`, 'GET', READER],
      ] as const) {
        const response = await call(h, path, {
          method,
          headers: { ...headers, 'x-request-id': value },
        });
        expect(response.headers.get('x-request-id')).toBe(value);
        if (response.status >= 400)
          expect(((await response.json()) as KnowledgeToolErrorBody).requestId).toBe(value);
      }
    }
  });

  it('a fresh ID is fresh on each request', async () => {
    const a = (await get(handler, `${KB}/tree`)).headers.get('x-request-id');
    const b = (await get(handler, `${KB}/tree`)).headers.get('x-request-id');
    expect(a).toMatch(FRESH_ID);
    expect(a).not.toBe(b);
  });
});

describe('a foreign cursor is INVALID_CURSOR', () => {
  async function cursorOf(
    h: KnowledgeHandler,
    path: string,
    headers: Record<string, string> = READER,
  ): Promise<string> {
    const page = (await expectJson(await call(h, path, { headers }))) as {
      nextCursor: string | null;
    };
    expect(page.nextCursor).toEqual(expect.any(String));
    return page.nextCursor!;
  }

  it('minted for example, used on private by its reader', async () => {
    const cursor = await cursorOf(handler, `${KB}/tree?limit=1`);
    await expectError(
      await call(handler, `${KBS}/private/tree?limit=1&cursor=${cursor}`, { headers: OTHER }),
      { code: 'INVALID_CURSOR', message: /another knowledge base/ },
    );
    // And the other way round.
    const back = await cursorOf(handler, `${KBS}/private/tree?limit=1`, OTHER);
    await expectError(await get(handler, `${KB}/tree?limit=1&cursor=${back}`), {
      code: 'INVALID_CURSOR',
    });
  });

  it('the same source under another knowledge-base ID, in this handler or another instance', async () => {
    const source = exampleSource();
    const twoNames = createKnowledgeHandler({
      access: () => ({ knowledgeBases: { example: source, copy: source } }),
    });
    const cursor = await cursorOf(
      twoNames,
      '/knowledge-bases/example/search?query=knowledge+snapshot&limit=1',
    );
    await expectError(
      await call(
        twoNames,
        `/knowledge-bases/copy/search?query=knowledge+snapshot&limit=1&cursor=${cursor}`,
      ),
      { code: 'INVALID_CURSOR' },
    );
    const elsewhere = createKnowledgeHandler({
      basePath: BASE_PATH,
      access: () => ({ knowledgeBases: { handbook: source } }),
    });
    const treeCursor = await cursorOf(handler, `${KB}/tree?limit=1`);
    await expectError(await call(elsewhere, `${KBS}/handbook/tree?limit=1&cursor=${treeCursor}`), {
      code: 'INVALID_CURSOR',
      message: /another knowledge base/,
    });
    const related = await cursorOf(handler, `${KB}/files/agent-tools/related?limit=1`);
    await expectError(
      await call(elsewhere, `${KBS}/handbook/files/agent-tools/related?limit=1&cursor=${related}`),
      { code: 'INVALID_CURSOR' },
    );
  });
});

describe('a failing or hanging source: the seed shape, and the next request is served', () => {
  it('500 INTERNAL for a throwing source, then 200', async () => {
    let fail = true;
    const flaky = recordingSource(exampleSource(), {
      getFile: (input, context) => {
        if (fail) throw new Error('disk /var/lib/kb exploded');
        return exampleSource().getFile(input as { fileId: string }, context);
      },
    });
    const h = exampleHandler({ access: () => ({ knowledgeBases: { example: flaky.source } }) });
    const body = await expectError(await get(h, `${KB}/files/agent-tools`), { code: 'INTERNAL' });
    expect(JSON.stringify(body)).not.toMatch(/disk|var\/lib|exploded/);
    fail = false;
    expect((await get(h, `${KB}/files/agent-tools`)).status).toBe(200);
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
  });

  it('504 for a hanging source while other requests are answered, then 200', async () => {
    let hang = true;
    const slow = recordingSource(exampleSource(), {
      searchFiles: (input, context) =>
        hang ? never() : exampleSource().searchFiles(input as { query: string }, context),
      readFile: (input, context) =>
        hang ? never() : exampleSource().readFile(input as { fileId: string }, context),
    });
    const h = exampleHandler({
      timeoutMs: 40,
      access: () => ({ knowledgeBases: { example: slow.source } }),
    });
    const pendingSearch = get(h, `${KB}/search?query=x`);
    const pendingRead = get(h, `${KB}/files/agent-tools/content`);
    // Served while the two hang.
    expect((await get(h, `${KB}/tree`)).status).toBe(200);
    await expectError(await pendingSearch, { code: 'SEARCH_TIMEOUT' });
    await expectError(await pendingRead, { code: 'TIMEOUT' });
    hang = false;
    expect((await get(h, `${KB}/search?query=x`)).status).toBe(200);
    expect((await get(h, `${KB}/files/agent-tools/content`)).status).toBe(200);
  });

  it('the handler never calls anything but the six read methods', async () => {
    const spy = recordingSource(privateSource());
    const extra = {
      ...spy.source,
      warm: () => Promise.reject(new Error('must not warm')),
      write: () => Promise.reject(new Error('must not write')),
    } as KnowledgeSource;
    const h = createKnowledgeHandler({ access: () => ({ knowledgeBases: { p: extra } }) });
    for (const path of [
      '/knowledge-bases',
      '/knowledge-bases/p/tree',
      '/knowledge-bases/p/search?query=secret',
      '/knowledge-bases/p/files/secret/content',
    ]) {
      expect((await call(h, path)).status).toBe(200);
    }
    expect(new Set(spy.calls.map((c) => c.method))).toEqual(
      new Set(['listTree', 'searchFiles', 'readFile']),
    );
  });
});
