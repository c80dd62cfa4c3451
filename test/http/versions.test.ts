/**
 * Versions over HTTP, on a real `node:http` server on loopback: `{KB}/versions` and
 * `{KB}/versions/diff` (with planted changes), their errors (each code at its place), the client's
 * `versions()` and `diffVersions()`, and an `ETag` that differs by the version that answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { diffVersions } from '../../src/agent/versions/diffVersions.js';
import { createVersionedSource } from '../../src/agent/versions/createVersionedSource.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import type { RateLimitRequestInfo } from '../../src/http/types.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { scenarioSource, BILLING_PAGES } from '../helpers/scenarioSources.js';
import { V3_PAGES, versionedDocs } from '../helpers/versionedScenario.js';

const docs = versionedDocs();
const plain = scenarioSource(BILLING_PAGES, 'plain', 'rev-p');
let served: ServedKnowledge;
let base: string;

beforeAll(async () => {
  served = await serveKnowledge({
    handler: createKnowledgeHandler({
      access: (request) =>
        request.headers.get('authorization') === 'Bearer t'
          ? { knowledgeBases: { docs, plain } }
          : null,
    }),
  });
  base = `${served.url}/knowledge-bases`;
});
afterAll(async () => served?.close());

const AUTH = { authorization: 'Bearer t' } as const;

async function getJson(path: string): Promise<{ status: number; body: any; etag: string | null }> {
  const response = await fetch(`${base}${path}`, { headers: AUTH });
  return {
    status: response.status,
    body: await response.json(),
    etag: response.headers.get('etag'),
  };
}

describe('GET {KB}/versions', () => {
  it('lists every version of a versioned knowledge base, with its revision, and the default', async () => {
    const { status, body, etag } = await getJson('/docs/versions');
    expect(status).toBe(200);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(body.default).toBe('3.x');
    expect(
      body.versions.map((entry: any) => [
        entry.version,
        entry.default,
        entry.activeContentRevision,
      ]),
    ).toEqual([
      ['3.x', true, 'rev-3'],
      ['2.x', false, 'rev-2'],
    ]);
  });

  it('lists the one version of a knowledge base without versions, as the default', async () => {
    const { status, body } = await getJson('/plain/versions');
    expect(status).toBe(200);
    expect(body.versions).toHaveLength(1);
    expect(body.versions[0]).toMatchObject({ default: true, activeContentRevision: 'rev-p' });
    expect(body.default).toBe(body.versions[0].version);
  });

  it('refuses a query parameter (400 INVALID_ARGUMENT naming it), and answers 401 / 404 as every route', async () => {
    const bad = await getJson('/docs/versions?limit=5');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_ARGUMENT');
    expect(bad.body.error.message).toContain('Unknown query parameter "limit"');
    const anonymous = await fetch(`${base}/docs/versions`);
    expect(anonymous.status).toBe(401);
    const missing = await getJson('/nowhere/versions');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('is named in the 404 answer of an unknown route', async () => {
    const { body } = await getJson('/docs/versionz');
    expect(body.error.message).toContain('/versions, /versions/diff?from=&to=');
  });
});

describe('the two routes and the rate limit', () => {
  it('asks rateLimit once per request, as list_versions and diff_versions, and answers HEAD without a body', async () => {
    const heard: RateLimitRequestInfo[] = [];
    const handler = createKnowledgeHandler({
      access: () => ({ knowledgeBases: { docs } }),
      rateLimit: (_request, info) => {
        heard.push(info);
        return info.operation === 'diff_versions'
          ? { ok: false, retryAfterSeconds: 3 }
          : { ok: true };
      },
    });
    const listed = await handler(new Request('http://kb.test/knowledge-bases/docs/versions'));
    expect(listed.status).toBe(200);
    const head = await handler(
      new Request('http://kb.test/knowledge-bases/docs/versions', { method: 'HEAD' }),
    );
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(listed.headers.get('etag'));
    expect(await head.text()).toBe('');
    const limited = await handler(
      new Request('http://kb.test/knowledge-bases/docs/versions/diff?from=2.x&to=3.x'),
    );
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(heard.map((info) => [info.knowledgeBaseId, info.operation])).toEqual([
      ['docs', 'list_versions'],
      ['docs', 'list_versions'],
      ['docs', 'diff_versions'],
    ]);
  });
});

describe('GET {KB}/versions/diff', () => {
  it('answers diffVersions: the planted page added, the page removed, the changed heading', async () => {
    const { status, body } = await getJson('/docs/versions/diff?from=2.x&to=3.x');
    expect(status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(await diffVersions(docs, '2.x', '3.x'))));
    expect(body.from).toBe('2.x');
    expect(body.to).toBe('3.x');
    expect(body.added).toEqual(['pages/themes.md']);
    expect(body.removed).toEqual(['pages/plugins.md']);
    expect(body.changed.map((page: any) => page.path)).toEqual(['pages/config.md']);
    expect(body.changed[0].headings.changed).toEqual(['options']);
    expect(body.unchanged).toBe(1);
  });

  it('400 INVALID_ARGUMENT naming a missing `from` or `to`, or one that is not a label', async () => {
    for (const [query, name] of [
      ['?to=3.x', '`from`'],
      ['?from=2.x', '`to`'],
      ['?from=2%20x&to=3.x', '`from`'],
      ['?from=2.x&to=', '`to`'],
    ] as const) {
      const { status, body } = await getJson(`/docs/versions/diff${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('INVALID_ARGUMENT');
      expect(body.error.message).toContain(`Query parameter ${name}`);
    }
  });

  it('404 VERSION_NOT_FOUND naming the parameter and listing the versions, never comparing another', async () => {
    const { status, body } = await getJson('/docs/versions/diff?from=2.x&to=4.x');
    expect(status).toBe(404);
    expect(body.error.code).toBe('VERSION_NOT_FOUND');
    expect(body.error.httpStatus).toBe(404);
    expect(body.error.message).toBe(
      '`versions/diff`: this knowledge base has no version `4.x` (query parameter `to`). Its versions: `3.x` (default), `2.x`. Pass one of them as `to`.',
    );
    const plainDiff = await getJson('/plain/versions/diff?from=1&to=2');
    expect(plainDiff.status).toBe(404);
    expect(plainDiff.body.error.code).toBe('VERSION_NOT_FOUND');
  });
});

describe('the client', () => {
  it('versions() and diffVersions(from, to) answer what the routes answer', async () => {
    const client = createKnowledgeClient({ baseUrl: `${base}/docs`, headers: AUTH });
    const versions = await client.versions();
    expect(versions.default).toBe('3.x');
    expect(versions.versions.map((entry) => entry.version)).toEqual(['3.x', '2.x']);
    const diff = await client.diffVersions('2.x', '3.x');
    expect(diff.added).toEqual(['pages/themes.md']);
    expect(diff.removed).toEqual(['pages/plugins.md']);
  });

  it('rejects VERSION_NOT_FOUND (404) from the server, and a malformed label before any request', async () => {
    let requests = 0;
    const client = createKnowledgeClient({
      baseUrl: `${base}/docs`,
      headers: AUTH,
      fetch: (request) => {
        requests++;
        return fetch(request);
      },
    });
    await expectKnowledgeError(client.diffVersions('1.x', '3.x'), {
      code: 'VERSION_NOT_FOUND',
      httpStatus: 404,
      message: /no version `1\.x` \(query parameter `from`\)/,
    });
    expect(requests).toBe(1);
    await expectKnowledgeError(client.diffVersions('3.x', 'a/b'), {
      code: 'INVALID_ARGUMENT',
      message: /`diffVersions`: `to` is not a version label/,
    });
    expect(requests).toBe(1);
  });
});

describe('ETag', () => {
  /** A source whose outputs name `label` as their version, as every source's outputs do. */
  function labelled(label: string): KnowledgeSource {
    const inner = scenarioSource(V3_PAGES, 'same', 'rev-same');
    return {
      ...inner,
      listTree: async (input, context) => ({
        ...(await inner.listTree(input, context)),
        version: label,
      }),
    } as KnowledgeSource;
  }

  it('differs between two versions with the same content and revision, for the same URL', async () => {
    const tagOf = async (source: KnowledgeSource) => {
      const handler = createKnowledgeHandler({
        access: () => ({ knowledgeBases: { kb: source } }),
      });
      const response = await handler(new Request('http://kb.test/knowledge-bases/kb/tree'));
      expect(response.status).toBe(200);
      return response.headers.get('etag');
    };
    const a = await tagOf(labelled('a'));
    const b = await tagOf(labelled('b'));
    expect(a).not.toBe(b);
    expect(await tagOf(labelled('a'))).toBe(a);
  });

  it('of two versioned knowledge bases over the same sources with different defaults differ', async () => {
    const one = labelled('x');
    const two = labelled('x');
    const tagOf = async (fallback: string) => {
      const source = createVersionedSource({ versions: { a: one, b: two }, default: fallback });
      const handler = createKnowledgeHandler({
        access: () => ({ knowledgeBases: { kb: source } }),
      });
      const response = await handler(
        new Request('http://kb.test/knowledge-bases/kb/tree?parentPath=pages'),
      );
      return response.headers.get('etag');
    };
    expect(await tagOf('a')).not.toBe(await tagOf('b'));
  });
});

describe('the version query parameter on the tool routes', () => {
  it("answers the same question from each version's own pages, and names the version", async () => {
    const read = async (query: string) =>
      getJson(`/docs/files/content?path=pages%2Fconfig.md${query}`);
    const old = await read('&version=2.x');
    expect(old.status).toBe(200);
    expect(old.body.file.version).toBe('2.x');
    expect(old.body.content).toContain('legacyRoutes');
    expect(old.body.content).not.toContain('cleanUrls');
    const current = await read('');
    expect(current.body.file.version).toBe('3.x');
    expect(current.body.content).toContain('cleanUrls');
    expect(await read('&version=3.x')).toMatchObject({ body: current.body });

    const search = async (version: string) =>
      getJson(
        `/docs/search?query=${encodeURIComponent('Which option keeps links?')}&version=${version}`,
      );
    const hits2 = await search('2.x');
    expect(hits2.body.version).toBe('2.x');
    expect(hits2.body.activeContentRevision).toBe('rev-2');
    const paths2 = hits2.body.items.map((item: { path: string }) => item.path);
    expect(paths2).not.toContain('pages/themes.md');
    const plugins = await getJson(`/docs/search?query=plugins&version=2.x`);
    expect(plugins.body.items.map((item: { path: string }) => item.path)).toContain(
      'pages/plugins.md',
    );
    const noPlugins = await getJson(`/docs/search?query=plugins&version=3.x`);
    expect(noPlugins.body.items.map((item: { path: string }) => item.path)).not.toContain(
      'pages/plugins.md',
    );
  });

  it('404 VERSION_NOT_FOUND for a version the knowledge base lacks, 400 INVALID_ARGUMENT for a malformed one', async () => {
    const missing = await getJson('/docs/search?query=config&version=4.x');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('VERSION_NOT_FOUND');
    expect(missing.body.error.message).toContain('no version `4.x`');
    expect(missing.body.error.message).toContain('`3.x` (default), `2.x`');
    const plainMissing = await getJson('/plain/tree?version=2.x');
    expect(plainMissing.status).toBe(404);
    expect(plainMissing.body.error.code).toBe('VERSION_NOT_FOUND');
    const malformed = await getJson('/docs/tree?version=a%20b');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_ARGUMENT');
    expect(malformed.body.error.message).toContain('`version`');
  });

  it('gives each version of one route its own ETag, and 304 only for the same version', async () => {
    const url = `${base}/docs/files/content?path=pages%2Finstall.md`;
    const tag = async (query: string) =>
      (await fetch(`${url}${query}`, { headers: AUTH })).headers.get('etag')!;
    const [plainTag, v3, v2] = [
      await tag(''),
      await tag('&version=3.x'),
      await tag('&version=2.x'),
    ];
    expect(new Set([plainTag, v3, v2]).size).toBe(3);
    const again = await fetch(`${url}&version=2.x`, { headers: { ...AUTH, 'if-none-match': v2 } });
    expect(again.status).toBe(304);
    const other = await fetch(`${url}&version=3.x`, { headers: { ...AUTH, 'if-none-match': v2 } });
    expect(other.status).toBe(200);
  });

  it('the client source forwards version, and its read actions stay in that version', async () => {
    const client = createKnowledgeClient({ baseUrl: `${base}/docs`, headers: AUTH });
    const old = await client.readFile({ path: 'pages/config.md', version: '2.x' });
    expect(old.file.version).toBe('2.x');
    expect(old.content).toContain('legacyRoutes');
    const hits = await client.searchFiles({ query: 'plugins', version: '2.x' });
    const hit = hits.items.find((item) => item.path === 'pages/plugins.md')!;
    expect(hit.readActions.fileContentById).toContain('version=2.x');
    const followed = (await client.follow(hit.readActions.fileContentById!)) as {
      file: { version: string };
      content: string;
    };
    expect(followed.file.version).toBe('2.x');
    expect(followed.content).toContain('Plugins extend the build.');
    await expectKnowledgeError(client.readFile({ path: 'pages/config.md', version: '4.x' }), {
      code: 'VERSION_NOT_FOUND',
      httpStatus: 404,
    });
    const root = await client.listTree({});
    expect(root.versions?.map((entry) => entry.version)).toEqual(['3.x', '2.x']);
  });
});
