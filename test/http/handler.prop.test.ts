/**
 * Invariants of the handler and its rate limiter (fast-check, the fixed seed of test/setup.ts):
 * any file ID is readable through its percent-encoded path segment and reaches the source unchanged;
 * the handler never throws and always answers 2xx/304 or the seed's JSON error; an unknown query
 * parameter is always 400 naming it; the memory rate limiter never lets more through than its bucket
 * allows, and waiting `retryAfterSeconds` is always enough.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorBody,
} from '../../src/agent/errors/codes.js';
import type { ReadFileOutput } from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { createMemoryRateLimiter } from '../../src/http/createMemoryRateLimiter.js';
import { ROUTE_PARAMS } from '../../src/http/params.js';
import type { KnowledgeHandler, RateLimitDecision } from '../../src/http/types.js';
import { BASE_PATH, exampleHandler, ORIGIN, OTHER, READER } from '../helpers/exampleHandler.js';
import { call, expectError } from '../helpers/handler-http.js';
import { recordingSource } from '../helpers/fakeSource.js';
import { sourceWithIds } from '../helpers/scenarioSources.js';

const KBS = `${BASE_PATH}/knowledge-bases`;

/** Strings rich in what URLs and IDs get wrong. */
const tricky = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }),
  fc.string({
    unit: fc.constantFrom(
      '/',
      '%',
      '2',
      'F',
      'f',
      'e',
      ' ',
      '.',
      '\\',
      '?',
      '#',
      '&',
      '=',
      '+',
      ';',
      ':',
      '@',
      '中',
      '文',
      '😀',
      '\u0000',
      '\n',
      '\r',
      '\t',
      'a',
      'é',
      '\u200b',
      '~',
      "'",
    ),
    minLength: 1,
    maxLength: 16,
  }),
);

describe('file IDs reach the source through their path segment', () => {
  // `.` and `..` are dot segments: the URL parser resolves them before any handler sees the request;
  // `/files/content` is the by-path route, so a page whose ID is `content` has no get_file URL (both
  // pinned in handler-routes.test.ts); `index.md` is the navigation file's own ID; an ID holding NUL
  // names nothing (every source answers it NOT_FOUND, pinned in nul-ids.test.ts).
  const fileId = tricky.filter(
    (id) =>
      id !== '.' && id !== '..' && id !== 'content' && id !== 'index.md' && !id.includes('\u0000'),
  );

  it('any file ID is read at /files/${encodeURIComponent(id)}/content, and the source gets exactly that ID', async () => {
    await fc.assert(
      fc.asyncProperty(fileId, async (id) => {
        const recorded = recordingSource(sourceWithIds([id, 'other']));
        const h = createKnowledgeHandler({
          access: () => ({ knowledgeBases: { k: recorded.source } }),
        });
        const path = `/knowledge-bases/k/files/${encodeURIComponent(id)}`;
        const read = await call(h, `${path}/content`);
        expect(read.status).toBe(200);
        const body = (await read.json()) as ReadFileOutput;
        expect(body.file.fileId).toBe(id);
        expect(body.file.readActions.fileContentById).toBe(`${path}/content`);
        const meta = await call(h, path);
        expect(meta.status).toBe(200);
        const related = await call(h, `${path}/related`);
        expect(related.status).toBe(200);
        expect(recorded.calls.map((c) => (c.input as { fileId: string }).fileId)).toEqual([
          id,
          id,
          id,
        ]);
      }),
    );
  });
});

describe('the handler never throws', () => {
  const segment = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'openapi',
        'v2',
        'knowledge-bases',
        'example',
        'private',
        'files',
        'content',
        'related',
        'tree',
        'graph',
        'expand',
        'search',
        'agent-tools',
        'index.md',
        '_graph%2Fby-file%2Fagent-tools.json',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        '.',
        '..',
        '%2e%2e',
        '%2F',
        '%00',
        '%0d%0a',
        '%',
        '%25',
        '%252F',
        '%ZZ',
        '%c0%ae',
        '__proto__',
        'constructor',
        '\\',
        '%5C',
        '?',
        '#',
      ),
    },
    { weight: 1, arbitrary: tricky.map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const structured = fc
    .tuple(
      fc.constantFrom('example', 'private', 'nope', '__proto__', '%2e%2e'),
      fc.constantFrom(
        '/tree',
        '/files/agent-tools',
        '/files/agent-tools/content',
        '/files/content',
        '/files/agent-tools/related',
        '/graph/expand',
        '/search',
        '',
        '/files',
        '/x',
      ),
    )
    .map(([kb, route]) => `${KBS}/${kb}${route}`);
  const loose = fc.array(segment, { maxLength: 7 }).map((segments) => `/${segments.join('/')}`);
  const pathArb = fc.oneof(
    { weight: 3, arbitrary: structured },
    { weight: 1, arbitrary: loose },
    { weight: 1, arbitrary: loose.map((p) => `${BASE_PATH}${p}`) },
  );

  const paramName = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'query',
        'path',
        'fileId',
        'parentPath',
        'cursor',
        'limit',
        'sectionIds',
        'mode',
        'maxChars',
        'depth',
        'fanout',
        'graphDepth',
        'graphFanout',
        'rerank',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  const paramValue = fc.oneof(
    fc.constantFrom(
      '',
      '1',
      '0',
      '-1',
      '50',
      '201',
      '1.5',
      'true',
      'false',
      'TRUE',
      'index.md',
      'pages',
      'agent-tools',
      'search,cursors',
      ',',
      'self',
      'subtree',
      'file',
      'graph',
      '知识',
      '%',
      '%2F',
    ),
    fc.string({ unit: 'binary', maxLength: 20 }),
  );
  const queryArb = fc.oneof(
    fc
      .array(fc.tuple(paramName, paramValue), { maxLength: 5 })
      .map((pairs) => new URLSearchParams(pairs).toString()),
    fc.string({ maxLength: 30 }),
  );

  // Header values as Fetch allows them: no NUL, CR or LF; Latin-1 only.
  const headerValue = fc.string({
    unit: fc
      .integer({ min: 0x01, max: 0xff })
      .filter((c) => c !== 0x0a && c !== 0x0d)
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  });
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const headersArb = fc.record({
    authorization: optional(
      fc.oneof(fc.constantFrom(READER.authorization, OTHER.authorization), headerValue),
    ),
    accept: optional(
      fc.oneof(
        fc.constantFrom(
          'text/markdown',
          '*/*',
          'application/json',
          'text/markdown;q=0.5, application/json;q=0.1',
          'text/markdown;q=abc',
        ),
        headerValue,
      ),
    ),
    'if-none-match': optional(fc.oneof(fc.constantFrom('*', 'W/"x"', '""'), headerValue)),
    'x-request-id': optional(headerValue),
    origin: optional(fc.constantFrom('https://app.test', 'null', 'https://evil.test')),
    'access-control-request-method': optional(fc.constantFrom('GET', 'POST')),
  });
  const methodArb = fc.constantFrom(
    'GET',
    'GET',
    'GET',
    'HEAD',
    'OPTIONS',
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'PROPFIND',
    'X-ANY',
  );

  const decisions: RateLimitDecision[] = [{ ok: true }, { ok: false, retryAfterSeconds: 2.5 }];
  let tick = 0;
  const failures: unknown[] = [];
  const onError = (error: unknown): void => {
    failures.push(error);
  };
  const handlers: readonly KnowledgeHandler[] = [
    exampleHandler({ onError }),
    exampleHandler({
      onError,
      cors: { origin: 'https://app.test' },
      authenticateHeader: 'Bearer realm="kb"',
    }),
    exampleHandler({
      onError,
      rateLimit: () => decisions[tick++ % 2]!,
      limits: { maxUrlLength: 200, maxQueryChars: 5 },
    }),
  ];

  it('answers 2xx/304, or the seed error body whose requestId is X-Request-Id; never 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(handlers.length - 1),
        methodArb,
        pathArb,
        queryArb,
        headersArb,
        async (which, method, path, query, rawHeaders) => {
          const headers = Object.fromEntries(
            Object.entries(rawHeaders).filter(([, v]) => v !== undefined),
          ) as Record<string, string>;
          let request: Request;
          try {
            request = new Request(`${ORIGIN}${path}${query === '' ? '' : `?${query}`}`, {
              method,
              headers,
            });
          } catch {
            fc.pre(false);
            return;
          }
          const response = await handlers[which]!(request);
          expect(response).toBeInstanceOf(Response);
          const requestId = response.headers.get('x-request-id');
          expect(requestId).toEqual(expect.any(String));
          if (response.status < 400) {
            expect([200, 204, 304]).toContain(response.status);
            if (response.status === 200) expect(response.headers.get('etag')).toMatch(/^"/);
            if (response.status !== 200 || method === 'HEAD')
              expect(await response.text()).toBe('');
            return;
          }
          expect(response.status).not.toBe(500);
          if (method === 'HEAD') {
            expect(await response.text()).toBe('');
            return;
          }
          const { error } = (await response.clone().json()) as KnowledgeToolErrorBody;
          const body = await expectError(response, {
            code: error.code,
            status: response.status,
            ...(error.retryAfterSeconds === undefined
              ? {}
              : { retryAfterSeconds: error.retryAfterSeconds }),
          });
          expect(body.requestId).toBe(requestId);
          if (response.status !== 414)
            expect(response.status).toBe(KNOWLEDGE_TOOL_ERROR_STATUS[body.error.code]);
        },
      ),
    );
    expect(failures).toEqual([]);
  });
});

describe('an unknown query parameter is 400 naming it', () => {
  // Each route with a parseable value for each parameter it takes (ranges are the source's, checked later).
  const VALID: Record<string, string> = {
    parentPath: 'pages',
    cursor: 'c',
    limit: '2',
    sectionIds: 'search',
    mode: 'self',
    maxChars: '5000',
    path: 'index.md',
    fileId: 'agent-tools',
    depth: '1',
    fanout: '2',
    query: 'cursor',
    graphDepth: '1',
    graphFanout: '3',
    rerank: 'false',
    whole: 'false',
  };
  const ROUTES: readonly (readonly [string, Readonly<Record<string, string>>])[] = [
    [KBS, ROUTE_PARAMS.list],
    [`${KBS}/example/tree`, ROUTE_PARAMS.tree],
    [`${KBS}/example/files/agent-tools`, ROUTE_PARAMS.file],
    [`${KBS}/example/files/agent-tools/content`, ROUTE_PARAMS.contentById],
    [`${KBS}/example/files/content`, ROUTE_PARAMS.contentByPath],
    [`${KBS}/example/files/agent-tools/related`, ROUTE_PARAMS.related],
    [`${KBS}/example/graph/expand`, ROUTE_PARAMS.expand],
    [`${KBS}/example/search`, ROUTE_PARAMS.search],
  ];
  const handler = exampleHandler();

  it('on every route, wherever it stands among valid ones', async () => {
    const arb = fc.constantFrom(...ROUTES).chain(([path, rules]) =>
      fc.record({
        path: fc.constant(path),
        known: fc.subarray(Object.keys(rules)),
        unknown: fc
          .oneof(
            fc.string({ unit: 'binary', maxLength: 20 }),
            fc.constantFrom('__proto__', 'constructor', 'Query', 'LIMIT', 'limit ', 'q', 'fileid'),
          )
          .filter((name) => !Object.hasOwn(rules, name)),
        at: fc.nat(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ path, known, unknown, at }) => {
        const pairs: [string, string][] = known.map((name) => [name, VALID[name]!]);
        pairs.splice(at % (pairs.length + 1), 0, [unknown, 'x']);
        const response = await call(handler, `${path}?${new URLSearchParams(pairs).toString()}`);
        const body = await expectError(response, { code: 'INVALID_ARGUMENT' });
        expect(body.error.message).toContain(`Unknown query parameter ${JSON.stringify(unknown)}`);
      }),
    );
  });
});

describe('createMemoryRateLimiter', () => {
  const step = fc.record({
    advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3000 })),
    key: fc.constantFrom('a', 'b', 'c'),
  });
  const config = fc.record({
    capacity: fc.oneof(
      fc.integer({ min: 1, max: 10 }),
      fc.double({ min: 1, max: 10, noNaN: true }),
    ),
    refillPerSecond: fc.oneof(
      fc.integer({ min: 1, max: 20 }),
      fc.double({ min: 0.01, max: 20, noNaN: true }),
    ),
  });

  it('never allows more than capacity + refillPerSecond × elapsed seconds per key', () => {
    fc.assert(
      fc.property(
        config,
        fc.array(step, { maxLength: 200 }),
        ({ capacity, refillPerSecond }, steps) => {
          let now = 0;
          const hook = createMemoryRateLimiter({
            capacity,
            refillPerSecond,
            key: (r) => r.headers.get('x-key')!,
            now: () => now,
          });
          const first = new Map<string, number>();
          const allowed = new Map<string, number>();
          for (const { advanceMs, key } of steps) {
            now += advanceMs;
            if (!first.has(key)) first.set(key, now);
            const decision = hook(new Request(ORIGIN, { headers: { 'x-key': key } }), {
              knowledgeBaseId: 'k',
              operation: 'list_tree',
            }) as RateLimitDecision;
            if (!decision.ok) {
              expect(Number.isInteger(decision.retryAfterSeconds)).toBe(true);
              expect(decision.retryAfterSeconds).toBeGreaterThan(0);
              continue;
            }
            const count = (allowed.get(key) ?? 0) + 1;
            allowed.set(key, count);
            const elapsed = (now - first.get(key)!) / 1000;
            expect(count).toBeLessThanOrEqual(capacity + refillPerSecond * elapsed + 1e-9);
          }
        },
      ),
    );
  });

  it('waiting retryAfterSeconds is always enough for the next request', () => {
    fc.assert(
      fc.property(
        config,
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 50 }),
        ({ capacity, refillPerSecond }, gaps) => {
          let now = 0;
          const hook = createMemoryRateLimiter({ capacity, refillPerSecond, now: () => now });
          const ask = (): RateLimitDecision =>
            hook(new Request(ORIGIN), {
              knowledgeBaseId: 'k',
              operation: 'search_files',
            }) as RateLimitDecision;
          for (const gap of gaps) {
            now += gap;
            const decision = ask();
            if (decision.ok) continue;
            now += decision.retryAfterSeconds * 1000;
            expect(ask()).toEqual({ ok: true });
          }
        },
      ),
    );
  });
});
