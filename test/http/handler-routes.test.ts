/**
 * Every route of `shared/spec/http.md` answers what the in-process source answers for the same input,
 * with the headers of the spec: JSON, `ETag`, `Cache-Control`, `X-Request-Id`; `Accept: text/markdown`
 * on the content routes; conditional requests, `HEAD`, `OPTIONS` and CORS.
 */
import { describe, expect, it } from 'vitest';
import { KnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type {
  KnowledgeCallContext,
  KnowledgeReadActions,
  KnowledgeSource,
  ReadFileOutput,
} from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import type { KnowledgeHandler } from '../../src/http/types.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import {
  BASE_PATH,
  exampleAccess,
  exampleHandler,
  exampleSource,
  KB_URL,
  ORIGIN,
  OTHER,
  READER,
} from '../helpers/exampleHandler.js';
import {
  ALLOW,
  call,
  expectError,
  expectJson,
  expectOkHeaders,
  get,
  headerEntries,
  never,
  JSON_TYPE,
} from '../helpers/handler-http.js';
import { recordingSource } from '../helpers/fakeSource.js';
import { sourceWithIds } from '../helpers/scenarioSources.js';

const KB = `${BASE_PATH}/knowledge-bases/example`;
const CONTEXT: KnowledgeCallContext = { actionBase: KB, knowledgeBaseId: 'example' };
const handler = exampleHandler();

/** The source's own answer as JSON would carry it. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

type Case = readonly [route: string, expected: (source: KnowledgeSource) => Promise<unknown>];

// One row per route and parameter kind: the URL, and the same call on the source.
const CASES: readonly Case[] = [
  ['/tree', (s) => s.listTree({}, CONTEXT)],
  ['/tree?limit=50', (s) => s.listTree({ limit: 50 }, CONTEXT)],
  ['/tree?parentPath=pages&limit=2', (s) => s.listTree({ parentPath: 'pages', limit: 2 }, CONTEXT)],
  ['/tree?parentPath=pages%2Fagents', (s) => s.listTree({ parentPath: 'pages/agents' }, CONTEXT)],
  ['/files/agent-tools', (s) => s.getFile({ fileId: 'agent-tools' }, CONTEXT)],
  ['/files/index.md', (s) => s.getFile({ fileId: 'index.md' }, CONTEXT)],
  [
    '/files/_graph%2Fby-file%2Fagent-tools.json',
    (s) => s.getFile({ fileId: '_graph/by-file/agent-tools.json' }, CONTEXT),
  ],
  ['/files/agent-tools/content', (s) => s.readFile({ fileId: 'agent-tools' }, CONTEXT)],
  [
    '/files/agent-tools/content?sectionIds=search,cursors&mode=self',
    (s) =>
      s.readFile(
        { fileId: 'agent-tools', sectionIds: ['search', 'cursors'], mode: 'self' },
        CONTEXT,
      ),
  ],
  [
    '/files/agent-tools/content?sectionIds=search&mode=subtree&maxChars=5000',
    (s) =>
      s.readFile(
        { fileId: 'agent-tools', sectionIds: ['search'], mode: 'subtree', maxChars: 5000 },
        CONTEXT,
      ),
  ],
  [
    '/files/knowledge-kit-guide/content?maxChars=20000',
    (s) => s.readFile({ fileId: 'knowledge-kit-guide', maxChars: 20000 }, CONTEXT),
  ],
  ['/files/content?path=index.md', (s) => s.readFile({ path: 'index.md' }, CONTEXT)],
  [
    '/files/content?path=pages%2Fagents%2Fagent-tools.md&sectionIds=overview',
    (s) => s.readFile({ path: 'pages/agents/agent-tools.md', sectionIds: ['overview'] }, CONTEXT),
  ],
  ['/files/agent-tools/related', (s) => s.readRelated({ fileId: 'agent-tools' }, CONTEXT)],
  [
    '/files/agent-tools/related?limit=1',
    (s) => s.readRelated({ fileId: 'agent-tools', limit: 1 }, CONTEXT),
  ],
  ['/graph/expand?fileId=agent-tools', (s) => s.expandGraph({ fileId: 'agent-tools' }, CONTEXT)],
  [
    '/graph/expand?fileId=agent-tools&depth=2&fanout=2',
    (s) => s.expandGraph({ fileId: 'agent-tools', depth: 2, fanout: 2 }, CONTEXT),
  ],
  ['/search?query=cursor', (s) => s.searchFiles({ query: 'cursor' }, CONTEXT)],
  [
    '/search?query=How+do+cursors+work%3F&mode=file&limit=2',
    (s) => s.searchFiles({ query: 'How do cursors work?', mode: 'file', limit: 2 }, CONTEXT),
  ],
  [
    '/search?query=snapshots&mode=graph&graphDepth=2&graphFanout=3',
    (s) =>
      s.searchFiles({ query: 'snapshots', mode: 'graph', graphDepth: 2, graphFanout: 3 }, CONTEXT),
  ],
  [
    '/search?query=%E5%BF%AB%E7%85%A7&rerank=true',
    (s) => s.searchFiles({ query: '快照', rerank: true }, CONTEXT),
  ],
  [
    '/search?query=anchors&rerank=false&limit=1',
    (s) => s.searchFiles({ query: 'anchors', rerank: false, limit: 1 }, CONTEXT),
  ],
  ['/search?query=zzzyyyxxx', (s) => s.searchFiles({ query: 'zzzyyyxxx' }, CONTEXT)],
];

describe('every route answers what the source answers', () => {
  it.each(CASES)('GET KB%s', async (route, expected) => {
    const response = await get(handler, `${KB}${route}`);
    expect(await expectJson(response)).toEqual(asJson(await expected(exampleSource())));
  });

  it("the seed's four curl commands work verbatim under KNOWLEDGE_BASE_URL", async () => {
    const tree = (await expectJson(await get(handler, `${KB_URL}/tree?limit=50`))) as {
      items: unknown[];
    };
    expect(tree.items.length).toBeGreaterThan(0);
    const byId = (await expectJson(
      await get(handler, `${KB_URL}/files/agent-tools/content`),
    )) as ReadFileOutput;
    expect(byId.content).toMatch(/^# Agent tools/);
    const byPath = (await expectJson(
      await get(handler, `${KB_URL}/files/content?path=index.md`),
    )) as ReadFileOutput;
    expect(byPath.file.fileId).toBe('index.md');
    const search = (await expectJson(
      await get(
        handler,
        `${KB_URL}/search?query=${encodeURIComponent('How does a cursor become stale?')}`,
      ),
    )) as { searchStatus: string };
    expect(search.searchStatus).toBe('ok');
  });

  it('passes the knowledge-base path as actionBase and the knowledge-base ID to the source', async () => {
    const spy = recordingSource(exampleSource());
    const h = createKnowledgeHandler({
      basePath: '/v1',
      access: () => ({ knowledgeBases: { 'hand book': spy.source } }),
    });
    for (const route of [
      '/tree',
      '/files/agent-tools',
      '/files/agent-tools/content',
      '/files/content?path=index.md',
      '/files/agent-tools/related',
      '/graph/expand?fileId=agent-tools',
      '/search?query=x',
    ]) {
      expect((await call(h, `/v1/knowledge-bases/hand%20book${route}`)).status).toBe(200);
    }
    expect(spy.calls.map((c) => c.method)).toEqual([
      'listTree',
      'getFile',
      'readFile',
      'readFile',
      'readRelated',
      'expandGraph',
      'searchFiles',
    ]);
    for (const { context } of spy.calls) {
      expect(context).toMatchObject({
        actionBase: '/v1/knowledge-bases/hand%20book',
        knowledgeBaseId: 'hand book',
        requestId: expect.stringMatching(/^req-/),
      });
      expect(context!.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it('echoes a valid X-Request-Id to the source and in the answer', async () => {
    const response = await get(handler, `${KB}/files/agent-tools`, {
      'x-request-id': 'trace:abc-123_X.y',
    });
    expect(response.headers.get('x-request-id')).toBe('trace:abc-123_X.y');
  });
});

describe('GET {basePath}/knowledge-bases', () => {
  it("lists the caller's knowledge bases with title, revision and URL path", async () => {
    const response = await get(handler, `${BASE_PATH}/knowledge-bases`);
    expect(await expectJson(response)).toEqual({
      items: [
        {
          knowledgeBaseId: 'example',
          title: 'Example knowledge',
          activeContentRevision: 42,
          url: `${BASE_PATH}/knowledge-bases/example`,
        },
      ],
    });
    const other = await call(handler, `${BASE_PATH}/knowledge-bases`, { headers: OTHER });
    expect(await expectJson(other)).toEqual({
      items: [
        {
          knowledgeBaseId: 'private',
          title: null,
          activeContentRevision: 7,
          url: `${BASE_PATH}/knowledge-bases/private`,
        },
      ],
    });
  });

  it('takes a Map, percent-encodes IDs in url, and each url is a working knowledge-base path', async () => {
    const source = exampleSource();
    const h = createKnowledgeHandler({
      access: () => ({
        knowledgeBases: new Map<
          string,
          KnowledgeSource | { source: KnowledgeSource; title: string }
        >([
          ['a/b c', source],
          ['中文', { source, title: '中文知识' }],
        ]),
      }),
    });
    const body = (await expectJson(await call(h, '/knowledge-bases'))) as {
      items: { knowledgeBaseId: string; title: string | null; url: string }[];
    };
    expect(body.items).toEqual([
      {
        knowledgeBaseId: 'a/b c',
        title: null,
        activeContentRevision: 42,
        url: '/knowledge-bases/a%2Fb%20c',
      },
      {
        knowledgeBaseId: '中文',
        title: '中文知识',
        activeContentRevision: 42,
        url: `/knowledge-bases/${encodeURIComponent('中文')}`,
      },
    ]);
    for (const item of body.items) {
      const tree = (await expectJson(await call(h, `${item.url}/tree`))) as {
        items: { readActions: KnowledgeReadActions }[];
      };
      expect(tree.items[0]!.readActions.treeByParentPath!.startsWith(`${item.url}/tree?`)).toBe(
        true,
      );
    }
  });

  it('an empty grant lists nothing', async () => {
    const h = createKnowledgeHandler({ access: () => ({ knowledgeBases: {} }) });
    expect(await expectJson(await call(h, '/knowledge-bases'))).toEqual({ items: [] });
  });
});

describe('readActions are working URL paths on this handler', () => {
  it('every readAction of the tree, a file, a search and an expansion answers 200', async () => {
    const actions = new Set<string>();
    const add = (a: KnowledgeReadActions | undefined): void => {
      for (const value of Object.values(a ?? {})) actions.add(value);
    };
    for (const parentPath of ['', 'pages', 'pages/agents', '_graph', '_graph/by-file']) {
      const tree = (await expectJson(
        await get(handler, `${KB}/tree?parentPath=${encodeURIComponent(parentPath)}`),
      )) as { items: { readActions: KnowledgeReadActions }[] };
      for (const item of tree.items) add(item.readActions);
    }
    add(
      (
        (await expectJson(await get(handler, `${KB}/files/agent-tools`))) as {
          readActions: KnowledgeReadActions;
        }
      ).readActions,
    );
    const search = (await expectJson(await get(handler, `${KB}/search?query=snapshot`))) as {
      items: { readActions: KnowledgeReadActions }[];
    };
    for (const item of search.items) add(item.readActions);
    const expand = (await expectJson(
      await get(handler, `${KB}/graph/expand?fileId=agent-tools&depth=2`),
    )) as { relationships: { readActions: KnowledgeReadActions }[] };
    for (const item of expand.relationships) add(item.readActions);
    expect(actions.size).toBeGreaterThan(20);
    for (const action of actions) {
      expect(action.startsWith(`${KB}/`), action).toBe(true);
      const response = await get(handler, action);
      expect(response.status, action).toBe(200);
    }
  });

  it('a file whose ID holds a slash is read through its %2F readAction', async () => {
    const source = sourceWithIds(['guides/setup', 'guides']);
    const h = createKnowledgeHandler({ access: () => ({ knowledgeBases: { ids: source } }) });
    const file = (await expectJson(await call(h, '/knowledge-bases/ids/files/guides%2Fsetup'))) as {
      fileId: string;
      readActions: KnowledgeReadActions;
    };
    expect(file.fileId).toBe('guides/setup');
    expect(file.readActions.fileContentById).toBe(
      '/knowledge-bases/ids/files/guides%2Fsetup/content',
    );
    const read = (await expectJson(
      await call(h, file.readActions.fileContentById!),
    )) as ReadFileOutput;
    expect(read.content).toBe((await source.readFile({ fileId: 'guides/setup' })).content);
    const related = await call(h, file.readActions.relatedFilesById!);
    expect(related.status).toBe(200);
  });
});

describe('cursor paging through the routes visits every item once', () => {
  /** Follow `nextCursor` over HTTP with the same parameters. */
  async function pageThrough(path: string, key: 'items' | 'relationships'): Promise<unknown[]> {
    const items: unknown[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const sep = path.includes('?') ? '&' : '?';
      const url: string =
        cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(cursor)}`;
      const page = (await expectJson(await get(handler, url))) as Record<string, unknown> & {
        nextCursor: string | null;
      };
      items.push(...(page[key] as unknown[]));
      cursor = page.nextCursor;
      if (cursor === null) return items;
    }
    throw new Error('paging did not end');
  }

  it('list_tree, by one and by two', async () => {
    const all = (await exampleSource().listTree({ parentPath: 'pages', limit: 200 }, CONTEXT))
      .items;
    expect(all.length).toBeGreaterThan(2);
    expect(await pageThrough(`${KB}/tree?parentPath=pages&limit=1`, 'items')).toEqual(asJson(all));
    expect(await pageThrough(`${KB}/tree?limit=2`, 'items')).toEqual(
      asJson((await exampleSource().listTree({ limit: 200 }, CONTEXT)).items),
    );
  });

  it('search_files by one', async () => {
    const all = (
      await exampleSource().searchFiles({ query: 'knowledge snapshot', limit: 50 }, CONTEXT)
    ).items;
    expect(all.length).toBeGreaterThan(1);
    const paged = (await pageThrough(`${KB}/search?query=knowledge+snapshot&limit=1`, 'items')) as {
      fileId: string;
    }[];
    expect(paged.map((i) => i.fileId)).toEqual(all.map((i) => i.fileId));
    expect(new Set(paged.map((i) => i.fileId)).size).toBe(paged.length);
  });

  it('read_related by one', async () => {
    const all = (await exampleSource().readRelated({ fileId: 'agent-tools', limit: 50 }, CONTEXT))
      .items;
    expect(all.length).toBeGreaterThan(1);
    expect(await pageThrough(`${KB}/files/agent-tools/related?limit=1`, 'items')).toEqual(
      asJson(all),
    );
  });

  it('expand_graph with its cursor parameter', async () => {
    const all = await exampleSource().expandGraph(
      { fileId: 'agent-tools', depth: 3, fanout: 50 },
      CONTEXT,
    );
    expect(
      await pageThrough(`${KB}/graph/expand?fileId=agent-tools&depth=3&fanout=50`, 'relationships'),
    ).toEqual(asJson(all.relationships));
  });
});

describe('Accept: text/markdown on the content routes', () => {
  const MARKDOWN = 'text/markdown; charset=utf-8';

  it.each([
    ['by ID', `${KB}/files/agent-tools/content`],
    ['by ID with sections', `${KB}/files/knowledge-kit-guide/content?sectionIds=anchors&mode=self`],
    ['by path', `${KB}/files/content?path=pages%2Fagents%2Fexploration.md`],
  ])(
    '%s: the content alone, with the file in X-Knowledge-* headers, percent-encoded',
    async (_, path) => {
      const json = (await expectJson(await get(handler, path))) as ReadFileOutput;
      const response = await get(handler, path, { accept: 'text/markdown' });
      expect(response.status).toBe(200);
      expectOkHeaders(response, MARKDOWN);
      expect(await response.text()).toBe(json.content);
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('x-knowledge-snapshot-id')).toBe(
        encodeURIComponent(json.file.snapshotId!),
      );
      expect(response.headers.get('x-knowledge-path')).toBe(encodeURIComponent(json.file.path));
      expect(response.headers.get('x-knowledge-revision')).toBe(
        encodeURIComponent(String(json.file.revision)),
      );
      expect(response.headers.get('x-knowledge-file-id')).toBe(
        encodeURIComponent(json.file.fileId),
      );
      expect(decodeURIComponent(response.headers.get('x-knowledge-snapshot-id')!)).toBe(
        json.file.snapshotId,
      );
    },
  );

  it('a navigation file has no snapshot, so no X-Knowledge-Snapshot-Id', async () => {
    const response = await get(handler, `${KB}/files/content?path=index.md`, {
      accept: 'text/markdown',
    });
    expectOkHeaders(response, MARKDOWN);
    expect(response.headers.get('x-knowledge-snapshot-id')).toBeNull();
    expect(response.headers.get('x-knowledge-file-id')).toBe('index.md');
    expect(response.headers.get('x-knowledge-revision')).toBe('42');
    expect(await response.text()).toMatch(/^# Index/);
  });

  it('IDs and paths with line breaks, slashes and Chinese are percent-encoded in the headers', async () => {
    const id = '指南/setup\r\nX-Injected: yes';
    const source = sourceWithIds([id]);
    const h = createKnowledgeHandler({ access: () => ({ knowledgeBases: { ids: source } }) });
    const response = await call(h, `/knowledge-bases/ids/files/${encodeURIComponent(id)}/content`, {
      headers: { accept: 'text/markdown' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-knowledge-file-id')).toBe(encodeURIComponent(id));
    expect(response.headers.get('x-injected')).toBeNull();
    expect(response.headers.get('x-knowledge-path')).toBe('pages%2Fp0.md');
  });

  it.each([
    ['*/*', false],
    ['text/markdown, application/json', false],
    ['application/json', false],
    ['text/markdown;q=0.9, application/json;q=0.5', true],
    ['application/json;q=0.1, text/markdown', true],
    ['text/markdown;q=0', false],
    ['TEXT/MARKDOWN', true],
  ])('Accept %j → markdown %s', async (accept, markdown) => {
    const response = await get(handler, `${KB}/files/agent-tools/content`, { accept });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(markdown ? MARKDOWN : JSON_TYPE);
  });

  it('other routes stay JSON whatever Accept says', async () => {
    for (const route of [
      '/tree',
      '/files/agent-tools',
      '/search?query=x',
      '/files/agent-tools/related',
    ]) {
      const response = await get(handler, `${KB}${route}`, { accept: 'text/markdown' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    }
  });
});

describe('ETag and If-None-Match', () => {
  const etagOf = async (
    path: string,
    headers: Record<string, string> = {},
    h: KnowledgeHandler = handler,
  ): Promise<string> => {
    const response = await get(h, path, headers);
    expect(response.status).toBe(200);
    return response.headers.get('etag')!;
  };

  it.each([
    `${KB}/tree`,
    `${KB}/files/agent-tools`,
    `${KB}/files/agent-tools/content`,
    `${KB}/files/agent-tools/related`,
    `${KB}/search?query=cursor`,
    `${BASE_PATH}/knowledge-bases`,
  ])('%s: If-None-Match with the ETag → 304, no body, same ETag', async (path) => {
    const etag = await etagOf(path);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const response = await get(handler, path, { 'if-none-match': ifNoneMatch });
      expect(response.status).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(await response.text()).toBe('');
    }
    const stale = await get(handler, path, { 'if-none-match': '"something-else"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(etag);
  });

  it('is stable for the same request', async () => {
    expect(await etagOf(`${KB}/tree?limit=1`)).toBe(await etagOf(`${KB}/tree?limit=1`));
  });

  it('differs by path, query and Accept representation', async () => {
    const tags = [
      await etagOf(`${KB}/files/agent-tools`),
      await etagOf(`${KB}/files/exploration`),
      await etagOf(`${KB}/tree?limit=1`),
      await etagOf(`${KB}/tree?limit=2`),
      await etagOf(`${KB}/files/agent-tools/content`),
      await etagOf(`${KB}/files/agent-tools/content`, { accept: 'text/markdown' }),
    ];
    expect(new Set(tags).size).toBe(tags.length);
    const json = await etagOf(`${KB}/files/agent-tools/content`);
    const response = await get(handler, `${KB}/files/agent-tools/content`, {
      accept: 'text/markdown',
      'if-none-match': json,
    });
    expect(response.status).toBe(200);
  });

  it('changes with the revision', async () => {
    const next = createCatalogSource(exampleCatalog(), exampleSourceOptions({ revision: 43 }));
    const h43 = createKnowledgeHandler({
      basePath: BASE_PATH,
      access: () => ({ knowledgeBases: { example: next } }),
    });
    for (const path of [
      `${KB}/tree`,
      `${KB}/files/agent-tools`,
      `${KB}/files/agent-tools/content`,
      `${KB}/search?query=cursor`,
      `${KB}/graph/expand?fileId=agent-tools`,
      `${BASE_PATH}/knowledge-bases`,
    ]) {
      const old = await etagOf(path);
      expect(await etagOf(path, {}, h43), path).not.toBe(old);
      expect((await get(h43, path, { 'if-none-match': old })).status, path).toBe(200);
    }
  });
});

describe('HEAD, OPTIONS and CORS', () => {
  const ROUTES = [
    '/tree',
    '/files/agent-tools',
    '/files/agent-tools/content',
    '/files/content?path=index.md',
    '/files/agent-tools/related',
    '/graph/expand?fileId=agent-tools',
    '/search?query=x',
  ];

  it.each([
    ...ROUTES.map((r) => [`${KB}${r}`, {}] as const),
    [`${KB}/files/agent-tools/content`, { accept: 'text/markdown' }] as const,
    [`${BASE_PATH}/knowledge-bases`, {}] as const,
    [`${KB}/files/nope`, {}] as const,
  ])('HEAD %s answers the headers of GET without a body', async (path, extra) => {
    const headers = { ...READER, ...extra, 'x-request-id': 'same-id' };
    const full = await call(handler, path, { headers });
    const head = await call(handler, path, { method: 'HEAD', headers });
    expect(head.status).toBe(full.status);
    expect(headerEntries(head)).toEqual(headerEntries(full));
    expect(await head.text()).toBe('');
  });

  it.each([...ROUTES.map((r) => `${KB}${r}`), `${BASE_PATH}/knowledge-bases`])(
    'OPTIONS %s → 204 with Allow and no body',
    async (path) => {
      const response = await call(handler, path, { method: 'OPTIONS', headers: {} });
      expect(response.status).toBe(204);
      expect(response.headers.get('allow')).toBe(ALLOW);
      expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(await response.text()).toBe('');
    },
  );

  it('CORS is off by default: no Access-Control headers on a preflight or a GET', async () => {
    const preflight = await call(handler, `${KB}/tree`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.test', 'access-control-request-method': 'GET' },
    });
    const plain = await get(handler, `${KB}/tree`, { origin: 'https://app.test' });
    for (const response of [preflight, plain]) {
      expect(
        headerEntries(response).filter(([name]) => name.startsWith('access-control-')),
      ).toEqual([]);
    }
  });

  it('with cors: { origin } the preflight and the GET carry them, errors too', async () => {
    const h = exampleHandler({ cors: { origin: 'https://app.test' } });
    const preflight = await call(h, `${KB}/search?query=x`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/GET/);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(preflight.headers.get('allow')).toBe(ALLOW);
    for (const response of [
      await get(h, `${KB}/search?query=x`, { origin: 'https://app.test' }),
      await call(h, `${KB}/tree`, { headers: { origin: 'https://app.test' } }),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.test');
      const exposed = response.headers
        .get('access-control-expose-headers')!
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'etag', 'retry-after']));
    }
    const foreign = await get(h, `${KB}/tree`, { origin: 'https://evil.test' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('cors with a list of origins allows each of them', async () => {
    const h = createKnowledgeHandler({
      basePath: BASE_PATH,
      access: exampleAccess,
      cors: { origin: ['https://a.test', 'https://b.test'] },
    });
    for (const origin of ['https://a.test', 'https://b.test']) {
      expect(
        (await get(h, `${KB}/tree`, { origin })).headers.get('access-control-allow-origin'),
      ).toBe(origin);
    }
    expect(
      (await get(h, `${KB}/tree`, { origin: 'https://c.test' })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();
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

describe('file IDs the URL itself cannot carry', () => {
  const source = sourceWithIds(['content', '.', '..', 'ok']);
  const h = createKnowledgeHandler({ access: () => ({ knowledgeBases: { ids: source } }) });

  it('`/files/content` is the by-path route, so a page with the ID `content` has no get_file URL; its content and relations do', async () => {
    await expectError(await call(h, '/knowledge-bases/ids/files/content'), {
      code: 'INVALID_ARGUMENT',
      message: /`path` is required/,
    });
    const read = (await expectJson(
      await call(h, '/knowledge-bases/ids/files/content/content'),
    )) as ReadFileOutput;
    expect(read.file.fileId).toBe('content');
    expect((await call(h, '/knowledge-bases/ids/files/content/related')).status).toBe(200);
  });

  it('`.` and `..` are dot segments the URL parser resolves, so their readActions by ID do not reach them; by path they are read', async () => {
    const file = (await expectJson(
      await call(h, '/knowledge-bases/ids/files/content?path=pages%2Fp2.md'),
    )) as ReadFileOutput;
    expect(file.file.fileId).toBe('..');
    expect(file.file.readActions.fileContentById).toBe('/knowledge-bases/ids/files/../content');
    const byId = await call(h, file.file.readActions.fileContentById!);
    expect(byId.status).toBe(404);
    // `files/%2E/content` is `files/content`: the by-path route, without its `path`.
    await expectError(await call(h, '/knowledge-bases/ids/files/%2E/content'), {
      code: 'INVALID_ARGUMENT',
      message: /`path` is required/,
    });
  });
});

describe('grants', () => {
  it('a null-prototype record works, and there an own `__proto__` key is a knowledge base like any other', async () => {
    const grants = Object.create(null) as Record<string, KnowledgeSource>;
    grants['__proto__'] = exampleSource();
    const h = createKnowledgeHandler({ access: () => ({ knowledgeBases: grants }) });
    const list = (await expectJson(await call(h, '/knowledge-bases'))) as {
      items: { knowledgeBaseId: string; url: string }[];
    };
    expect(list.items.map((i) => i.knowledgeBaseId)).toEqual(['__proto__']);
    expect((await call(h, `${list.items[0]!.url}/tree`)).status).toBe(200);
    await expectError(await call(h, '/knowledge-bases/constructor/tree'), { code: 'NOT_FOUND' });
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
});

describe('basePath', () => {
  it("'' mounts the routes at the root, and the default is ''", async () => {
    const h = createKnowledgeHandler({ access: exampleAccess });
    expect((await get(h, '/knowledge-bases/example/tree')).status).toBe(200);
    expect((await get(h, `${KB}/tree`)).status).toBe(404);
    const body = (await expectJson(await get(h, '/knowledge-bases/example/files/agent-tools'))) as {
      readActions: KnowledgeReadActions;
    };
    expect(body.readActions.fileContentById).toBe(
      '/knowledge-bases/example/files/agent-tools/content',
    );
  });

  it('routes are not served outside basePath', async () => {
    expect((await get(handler, '/knowledge-bases/example/tree')).status).toBe(404);
    expect((await get(handler, `${ORIGIN}/openapi/v3/knowledge-bases/example/tree`)).status).toBe(
      404,
    );
  });
});
