/**
 * End to end over loopback: `serveKnowledge` (a real `node:http` server on an ephemeral port) with the
 * example handler, `createKnowledgeClient` on top, then the tools, the MCP SDK client and exploration
 * on the client; every answer equals the in-process source's for the same call. Also the seed's four
 * `curl` commands, long URLs, graceful close, and a server that keeps serving after a 500 or 504.
 */
import { get as httpGet } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import { startExploration } from '../../src/agent/exploration/index.js';
import { callKnowledgeTool, knowledgeTools } from '../../src/agent/tools/index.js';
import type {
  GetFileOutput,
  JsonValue,
  KnowledgeCallContext,
  KnowledgeSource,
  ReadFileOutput,
  SearchFilesOutput,
} from '../../src/agent/index.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import type { KnowledgeClient } from '../../src/http/types.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { fakeSource } from '../helpers/fakeSource.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { connectInMemory, errorJsonOf } from '../helpers/tools-mcp.js';
import { settledState } from '../helpers/client-fakeFetch.js';
import {
  EXAMPLE_CONTEXT,
  hasCurl,
  QUESTIONS,
  runCurl,
  runFetch,
  SEED_COMMANDS,
  wire,
} from '../helpers/http-e2e-seed.js';
import { BASE_PATH, exampleHandler, exampleSource, READER } from '../helpers/exampleHandler.js';

const CURL = await hasCurl();
const PAGES = ['agent-tools', 'anchored-markdown', 'exploration', 'knowledge-kit-guide'] as const;

let served: ServedKnowledge;
let kbUrl: string;
let client: KnowledgeClient;
const local: KnowledgeSource = exampleSource();

beforeAll(async () => {
  served = await serveKnowledge({ handler: exampleHandler() });
  kbUrl = `${served.url}${BASE_PATH}/knowledge-bases/example`;
  client = createKnowledgeClient({ baseUrl: kbUrl, headers: READER });
});

afterAll(async () => {
  await served?.close();
});

/** The in-process answer of a call, as it would come off the wire. */
async function inProcess<T>(call: (source: KnowledgeSource) => Promise<T>): Promise<T> {
  return wire(await call(local));
}

/** A source error's body without its requestId (each side mints its own). */
async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as KnowledgeToolError | undefined;
  expect(error, 'expected a rejection').toBeDefined();
  return error!.toJSON().error;
}

describe('serveKnowledge + createKnowledgeClient over loopback', () => {
  it('serves on 127.0.0.1 on an ephemeral port', () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(client.baseUrl).toBe(kbUrl);
  });

  it('listTree: every level and every page equal the in-process source', async () => {
    for (const input of [
      {},
      { parentPath: 'pages' },
      { parentPath: 'pages/agents' },
      { parentPath: '_graph/by-file', limit: 2 },
    ]) {
      expect(await client.listTree(input), JSON.stringify(input)).toEqual(
        await inProcess((s) => s.listTree(input, EXAMPLE_CONTEXT)),
      );
    }
    // Paging with the server's cursors visits the same pages as in-process paging.
    let cursor: string | null = null;
    const remote: unknown[] = [];
    do {
      const page: Awaited<ReturnType<KnowledgeClient['listTree']>> = await client.listTree({
        parentPath: '_graph/by-file',
        limit: 1,
        cursor,
      });
      expect(page).toEqual(
        await inProcess((s) =>
          s.listTree({ parentPath: '_graph/by-file', limit: 1, cursor }, EXAMPLE_CONTEXT),
        ),
      );
      remote.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(remote).toHaveLength(4);
  });

  it('getFile, readFile (by ID, by path, by sections), readRelated, expandGraph equal the in-process source', async () => {
    for (const fileId of [...PAGES, 'index.md', '_graph/by-file/agent-tools.json']) {
      expect(await client.getFile({ fileId }), fileId).toEqual(
        await inProcess((s) => s.getFile({ fileId }, EXAMPLE_CONTEXT)),
      );
      expect(await client.readFile({ fileId }), fileId).toEqual(
        await inProcess((s) => s.readFile({ fileId }, EXAMPLE_CONTEXT)),
      );
    }
    for (const fileId of PAGES) {
      const info: GetFileOutput = await client.getFile({ fileId });
      const sectionIds = info.sections.slice(0, 2).map((section) => section.id);
      expect(sectionIds.length, fileId).toBeGreaterThan(0);
      for (const mode of ['self', 'subtree'] as const) {
        const input = { path: info.path, sectionIds, mode };
        expect(await client.readFile(input), `${fileId} ${mode}`).toEqual(
          await inProcess((s) => s.readFile(input, EXAMPLE_CONTEXT)),
        );
      }
      expect(await client.readRelated({ fileId }), fileId).toEqual(
        await inProcess((s) => s.readRelated({ fileId }, EXAMPLE_CONTEXT)),
      );
      const expand = { fileId, depth: 2, fanout: 3 };
      expect(await client.expandGraph(expand), fileId).toEqual(
        await inProcess((s) => s.expandGraph(expand, EXAMPLE_CONTEXT)),
      );
    }
  });

  it('searchFiles in every mode, English and Chinese, with paging, equals the in-process source', async () => {
    for (const query of [QUESTIONS.en, QUESTIONS.zh, '游标 版本', 'zzzz-no-such-word']) {
      for (const mode of ['hybrid', 'file', 'graph'] as const) {
        const input = { query, mode, limit: 2 };
        const remote: SearchFilesOutput = await client.searchFiles(input);
        expect(remote, `${query} ${mode}`).toEqual(
          await inProcess((s) => s.searchFiles(input, EXAMPLE_CONTEXT)),
        );
        if (remote.nextCursor !== null) {
          const next = { ...input, cursor: remote.nextCursor };
          expect(await client.searchFiles(next)).toEqual(
            await inProcess((s) => s.searchFiles(next, EXAMPLE_CONTEXT)),
          );
        }
      }
    }
  });

  it('read_file snapshot ids are the in-process ones', async () => {
    for (const fileId of PAGES) {
      const remote: ReadFileOutput = await client.readFile({ fileId });
      const here = await local.readFile({ fileId }, EXAMPLE_CONTEXT);
      expect(remote.file.snapshotId, fileId).toMatch(/\S/);
      expect(remote.file.snapshotId).toBe(here.file.snapshotId);
      expect(remote.content).toBe(here.content);
    }
  });

  it("keeps the source's errors: code, message and status as in-process", async () => {
    const cases: ((s: KnowledgeSource) => Promise<unknown>)[] = [
      (s) => s.getFile({ fileId: 'agent-tool' }),
      (s) => s.readFile({ path: 'pages/agents' }),
      (s) => s.readFile({ fileId: 'agent-tools', maxChars: 10, whole: true }),
      (s) => s.readFile({ fileId: 'index.md', sectionIds: ['x'] }),
      (s) => s.listTree({ parentPath: 'nowhere' }),
      (s) => s.listTree({ limit: 0 }),
      (s) => s.searchFiles({ query: '   ' }),
      (s) => s.expandGraph({ fileId: 'agent-tools', depth: 9 }),
    ];
    for (const call of cases) {
      const remote = await errorOf(call(client));
      expect(remote).toEqual(await errorOf(call(local)));
    }
    const stale = await errorOf(client.listTree({ cursor: 'not-a-cursor' }));
    expect(stale).toMatchObject({ code: 'INVALID_CURSOR', httpStatus: 400 });
    await expectKnowledgeError(
      client.readFile({ fileId: 'agent-tools', maxChars: 10, whole: true }),
      {
        code: 'CONTENT_TOO_LARGE',
      },
    );
  });

  // URLs drop `.` and `..` path segments (encoded as `%2E` too), so no URL path can carry these IDs:
  // the client refuses them before any request instead of asking another route. expand_graph takes
  // its fileId in the query, so there the server answers as in-process.
  it('a fileId of `.` or `..` is refused by the client for path routes, and answered as in-process in the query', async () => {
    const pathCalls: [string, (s: KnowledgeSource, fileId: string) => Promise<unknown>][] = [
      ['getFile', (s, fileId) => s.getFile({ fileId }, EXAMPLE_CONTEXT)],
      ['readFile', (s, fileId) => s.readFile({ fileId }, EXAMPLE_CONTEXT)],
      ['readRelated', (s, fileId) => s.readRelated({ fileId }, EXAMPLE_CONTEXT)],
    ];
    for (const fileId of ['.', '..']) {
      for (const [name, call] of pathCalls) {
        expect(await errorOf(call(local, fileId))).toMatchObject({ code: 'NOT_FOUND' });
        const remote = await errorOf(call(client, fileId));
        expect(remote, `${name}({ fileId: '${fileId}' })`).toMatchObject({
          code: 'INVALID_ARGUMENT',
          httpStatus: 400,
        });
        expect((remote as { message: string }).message).toContain('cannot travel in a URL path');
      }
      const here = await errorOf(local.expandGraph({ fileId }, EXAMPLE_CONTEXT));
      expect(here).toMatchObject({ code: 'NOT_FOUND' });
      expect(await errorOf(client.expandGraph({ fileId }, EXAMPLE_CONTEXT))).toEqual(here);
    }
  });

  it('follow: every readActions value the server returns works, and equals the in-process call', async () => {
    const hits: SearchFilesOutput = await client.searchFiles({ query: QUESTIONS.en });
    expect(hits.items.length).toBeGreaterThan(0);
    for (const item of hits.items) {
      const actions = item.readActions;
      expect(await client.follow(actions.fileContentById!)).toEqual(
        await inProcess((s) => s.readFile({ fileId: item.fileId }, EXAMPLE_CONTEXT)),
      );
      expect(await client.follow(actions.fileContentByPath!)).toEqual(
        await inProcess((s) => s.readFile({ path: item.path }, EXAMPLE_CONTEXT)),
      );
      expect(await client.follow(actions.relatedFilesById!)).toEqual(
        await inProcess((s) => s.readRelated({ fileId: item.fileId }, EXAMPLE_CONTEXT)),
      );
      expect(await client.follow(actions.graphExpansionByFileId!)).toEqual(
        await inProcess((s) => s.expandGraph({ fileId: item.fileId }, EXAMPLE_CONTEXT)),
      );
    }
    const root = await client.listTree();
    for (const item of root.items) {
      const next =
        item.entryType === 'directory'
          ? item.readActions.treeByParentPath!
          : item.readActions.fileContentById!;
      const followed = (await client.follow(next)) as Record<string, JsonValue>;
      expect(followed, next).toEqual(
        item.entryType === 'directory'
          ? await inProcess((s) => s.listTree({ parentPath: item.path }, EXAMPLE_CONTEXT))
          : await inProcess((s) => s.readFile({ fileId: item.fileId }, EXAMPLE_CONTEXT)),
      );
    }
    // The graph file named in an expansion is a readActions-style path too.
    const expansion = await client.expandGraph({ fileId: 'exploration' });
    for (const path of expansion.graphPaths) {
      const byPath = `${BASE_PATH}/knowledge-bases/example/files/content?path=${encodeURIComponent(path)}`;
      expect(((await client.follow(byPath)) as { file: { path: string } }).file.path).toBe(path);
    }
  });

  it('follow refuses the same paths of another knowledge base on this very server, without a request', async () => {
    await expectKnowledgeError(client.follow(`${BASE_PATH}/knowledge-bases/private/tree`), {
      code: 'INVALID_ARGUMENT',
    });
    await expectKnowledgeError(
      client.follow(
        `${served.url.replace('127.0.0.1', 'localhost')}${BASE_PATH}/knowledge-bases/example/tree`,
      ),
      { code: 'INVALID_ARGUMENT' },
    );
  });
});

describe('the tools, the MCP server and exploration on the remote source', () => {
  const INPUTS: Record<string, Record<string, unknown>> = {
    search_files: { query: QUESTIONS.zh },
    read_file: { path: 'pages/agents/agent-tools.md' },
    list_tree: { parentPath: 'pages' },
    get_file: { fileId: 'exploration' },
    read_related: { fileId: 'agent-tools' },
    expand_graph: { fileId: 'agent-tools', depth: 2 },
  };

  it('knowledgeTools(client) + callKnowledgeTool give the in-process results, errors included', async () => {
    const remoteTools = knowledgeTools(client);
    const localTools = knowledgeTools(withContext(local));
    expect(remoteTools.map((t) => t.name)).toEqual(localTools.map((t) => t.name));
    for (const tool of remoteTools) {
      const remote = await callKnowledgeTool(
        remoteTools,
        tool.name,
        JSON.stringify(INPUTS[tool.name]),
      );
      const here = await callKnowledgeTool(localTools, tool.name, INPUTS[tool.name]!);
      expect(
        remote.isError,
        `${tool.name}: ${JSON.stringify(remote.structuredContent).slice(0, 300)}`,
      ).toBe(false);
      expect(remote).toEqual(wire(here));
    }
    const missing = await callKnowledgeTool(
      remoteTools,
      'get_file',
      { fileId: 'nope' },
      { requestId: 'e2e-1' },
    );
    const missingHere = await callKnowledgeTool(
      localTools,
      'get_file',
      { fileId: 'nope' },
      { requestId: 'e2e-1' },
    );
    expect(missing).toEqual(missingHere);
    expect(missing.structuredContent['requestId']).toBe('e2e-1');
  });

  it('the MCP SDK client lists the tools and reads the same snapshot ids as in-process', async () => {
    const connection = await connectInMemory(
      createKnowledgeMcpServer(client, { name: 'kb-remote', version: '1.0.0' }),
    );
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(INPUTS).sort());
      const found = await connection.client.callTool({
        name: 'search_files',
        arguments: { query: QUESTIONS.en },
      });
      expect(found.isError).toBe(false);
      expect(found.structuredContent).toEqual(
        await inProcess((s) => s.searchFiles({ query: QUESTIONS.en }, EXAMPLE_CONTEXT)),
      );
      const items = (found.structuredContent as unknown as SearchFilesOutput).items;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const read = await connection.client.callTool({
          name: 'read_file',
          arguments: { fileId: item.fileId },
        });
        expect(read.isError).toBe(false);
        const remote = read.structuredContent as unknown as ReadFileOutput;
        const here = await local.readFile({ fileId: item.fileId }, EXAMPLE_CONTEXT);
        expect(remote.file.snapshotId).toBe(here.file.snapshotId);
        expect(remote).toEqual(wire(here));
        // The compact text: a header with the snapshotId, then the page.
        const [block] = read.content as { type: string; text: string }[];
        expect(read.content).toHaveLength(1);
        expect(block!.text.endsWith(`\n\n${remote.content}`)).toBe(true);
        expect(block!.text).toContain(`snapshotId: ${remote.file.snapshotId}`);
      }
      const failed = await connection.client.callTool({
        name: 'read_file',
        arguments: { path: 'pages/none.md' },
      });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toBeUndefined();
      expect(errorJsonOf(failed)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    } finally {
      await connection.close();
    }
  });

  it('startExploration over the client: search with the question, read, evidence with the in-process snapshot ids', async () => {
    const session = startExploration(client, { question: QUESTIONS.zh, maxReads: 3 });
    const found = await session.search();
    expect(found).toEqual(
      await inProcess((s) => s.searchFiles({ query: QUESTIONS.zh }, EXAMPLE_CONTEXT)),
    );
    const picked = found.items.slice(0, 2);
    expect(picked.length).toBeGreaterThan(0);
    for (const item of picked) await session.read({ fileId: item.fileId });
    expect((await session.read({ path: picked[0]!.path })).repeated).toBe(true);
    const evidence = session.evidence();
    expect(evidence.map((e) => e.fileId)).toEqual(picked.map((item) => item.fileId));
    for (const entry of evidence) {
      const here = await local.readFile({ fileId: entry.fileId }, EXAMPLE_CONTEXT);
      expect(entry.snapshotId).toBe(here.file.snapshotId);
      expect(entry.content).toBe(here.content);
    }
    expect(session.status).toMatchObject({ searchesUsed: 1, readsUsed: picked.length });
  });
});

describe(`the seed's curl commands (${CURL ? 'with the real curl binary' : 'curl is not on PATH: the same requests through fetch'})`, () => {
  it.each(SEED_COMMANDS.map((command) => [command.name, command] as const))(
    '%s',
    async (_, command) => {
      const body = CURL ? await runCurl(kbUrl, command) : await runFetch(kbUrl, command);
      expect(body).toEqual(wire(await command.expected(local)));
    },
  );
});

describe('long URLs through serveKnowledge', () => {
  /** GET a raw URL with the reader's credentials: status and JSON body. */
  async function get(url: string): Promise<{
    status: number;
    body: { error?: { code: string; httpStatus: number; message: string } };
  }> {
    const response = await fetch(url, { headers: READER });
    return { status: response.status, body: (await response.json()) as never };
  }

  it("a ~30,000-character URL (a long Chinese query) reaches the handler: its 400, not Node's 431", async () => {
    const query = '知'.repeat(3_300);
    const url = `${kbUrl}/search?${new URLSearchParams({ query })}`;
    expect(url.length).toBeGreaterThan(29_700);
    expect(url.length).toBeLessThan(32_768);
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'INVALID_ARGUMENT', httpStatus: 400 });
    expect(body.error!.message).toMatch(/`query`/);
    const error = await expectKnowledgeError(client.searchFiles({ query }), {
      code: 'INVALID_ARGUMENT',
      message: /`query`/,
    });
    expect(error.httpStatus).toBe(400);
  });

  it('a 2,000-character Chinese query (about 18,000 encoded) is answered 200', async () => {
    const query = `${QUESTIONS.zh}${'探索'.repeat(990)}`;
    const remote = await client.searchFiles({ query });
    expect(remote).toEqual(await inProcess((s) => s.searchFiles({ query }, EXAMPLE_CONTEXT)));
  });

  it('a URL over 32,768 characters (within Node’s 64 KiB) is the handler’s 414, kept by the client', async () => {
    const query = '知'.repeat(4_000);
    const url = `${kbUrl}/search?${new URLSearchParams({ query })}`;
    expect(url.length).toBeGreaterThan(32_768);
    const { status, body } = await get(url);
    expect(status).toBe(414);
    expect(body.error).toMatchObject({ code: 'INVALID_ARGUMENT', httpStatus: 414 });
    expect(
      (await expectKnowledgeError(client.searchFiles({ query }), { code: 'INVALID_ARGUMENT' }))
        .httpStatus,
    ).toBe(414);
  });

  it("a URL over Node's 64 KiB header limit is a TRANSPORT_ERROR in the client, never an empty result", async () => {
    await expectKnowledgeError(client.searchFiles({ query: '知'.repeat(8_000) }), {
      code: 'TRANSPORT_ERROR',
    });
    expect((await client.listTree()).items.length).toBeGreaterThan(0);
  });
});

describe('serveKnowledge: close and failures', () => {
  /** A server whose `slow` knowledge base answers `listTree` ~200 ms after it is called, and a promise of that call. */
  async function slowServer(): Promise<{
    own: ServedKnowledge;
    url: string;
    inside: Promise<void>;
  }> {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const slow: KnowledgeSource = {
      ...bound(local),
      listTree: async (input, context) => {
        entered();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return local.listTree(input, context);
      },
    };
    const own = await serveKnowledge({
      handler: exampleHandler({ access: () => ({ knowledgeBases: { slow } }) }),
    });
    return { own, url: `${own.url}${BASE_PATH}/knowledge-bases/slow/tree`, inside };
  }
  const slowTree = async () =>
    wire(
      await local.listTree(
        {},
        { actionBase: `${BASE_PATH}/knowledge-bases/slow`, knowledgeBaseId: 'slow' },
      ),
    );

  it('close() waits for a request in flight, which still gets its 200, then refuses connections', async () => {
    const { own, url, inside } = await slowServer();
    // `agent: false`: one connection for this request, closed after it (`Connection: close`).
    const answer = getOnce(url, READER);
    await inside;
    const closing = own.close();
    const closed = settledState(closing);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed()).toBe('pending');
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual(await slowTree());
    await withGuard(
      closing,
      5_000,
      'close() did not resolve after the request in flight was answered',
    );
    await expect(fetch(url, { headers: READER })).rejects.toThrow();
    await expect(own.close()).resolves.toBeUndefined();
  });

  it('close() resolves once the request in flight is answered, also on a keep-alive connection (fetch)', async () => {
    const { own, url, inside } = await slowServer();
    try {
      const answer = fetch(url, { headers: READER });
      await inside;
      const closing = own.close();
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(await slowTree());
      await withGuard(
        closing,
        1_000,
        'close() still open 1 s after the request in flight was answered',
      );
    } finally {
      own.server.closeAllConnections();
      await own.close();
    }
  });

  it('keeps serving after a 500 and a 504', async () => {
    const failing: KnowledgeSource = {
      ...bound(local),
      getFile: async () => {
        throw new Error('database password=hunter2 at /srv/app/db.js:12');
      },
      searchFiles: (_, context) =>
        new Promise((_, reject) =>
          context?.signal?.addEventListener('abort', () => reject(new Error('aborted')), {
            once: true,
          }),
        ),
    };
    const errors: unknown[] = [];
    const own = await serveKnowledge({
      handler: exampleHandler({
        timeoutMs: 100,
        onError: (error) => errors.push(error),
        access: () => ({ knowledgeBases: { example: failing } }),
      }),
    });
    try {
      const remote = createKnowledgeClient({
        baseUrl: `${own.url}${BASE_PATH}/knowledge-bases/example`,
      });
      const internal = await expectKnowledgeError(
        remote.getFile({ fileId: 'agent-tools' }, { requestId: 'e2e-500' }),
        { code: 'INTERNAL' },
      );
      expect(internal.httpStatus).toBe(500);
      expect(internal.requestId).toBe('e2e-500');
      expect(internal.message).not.toMatch(/hunter2|\/srv\/app/);
      expect(errors).toHaveLength(1);
      expect((await remote.listTree()).items.length).toBeGreaterThan(0);

      const timeout = await expectKnowledgeError(remote.searchFiles({ query: QUESTIONS.en }), {
        code: 'SEARCH_TIMEOUT',
      });
      expect(timeout.httpStatus).toBe(504);
      expect(await remote.readFile({ fileId: 'agent-tools' })).toEqual(
        await inProcess((s) => s.readFile({ fileId: 'agent-tools' }, EXAMPLE_CONTEXT)),
      );
      const raw = await fetch(`${own.url}${BASE_PATH}/knowledge-bases/example/files/agent-tools`);
      expect(raw.status).toBe(500);
      expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await raw.json()).toEqual({
        error: { code: 'INTERNAL', message: expect.any(String), httpStatus: 500 },
        requestId: raw.headers.get('x-request-id'),
      });
    } finally {
      await own.close();
    }
  });
});

/** The source's methods bound to it, so they can be spread into a wrapper. */
function bound(source: KnowledgeSource): KnowledgeSource {
  return fakeSource({}, { base: source }).source;
}

/** One GET on its own connection (`agent: false`, so `Connection: close`): status and body text. */
function getOnce(
  url: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { agent: false, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The source with the handler's `actionBase` and `knowledgeBaseId` on every call, as the server calls it. */
function withContext(source: KnowledgeSource): KnowledgeSource {
  return fakeSource(
    {},
    {
      otherwise: (method, input, context) =>
        (source[method] as (i: unknown, c: KnowledgeCallContext) => unknown)(input, {
          ...context,
          ...EXAMPLE_CONTEXT,
        }),
    },
  ).source;
}

/** `promise`, or a failure naming `what` after `ms`. */
async function withGuard<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
