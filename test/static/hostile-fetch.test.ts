/**
 * A static bundle is data from elsewhere: `createStaticSource({ baseUrl })` reads nothing outside it.
 * A redirect is followed only to the same origin under `baseUrl`; a path with `..`, an absolute path
 * or a backslash (also one `files.json` names for `read_file`) is refused before anything is fetched;
 * a file over `maxFileBytes` is refused as it streams in; a stalled host fails the call after
 * `fetchTimeoutMs`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { callKnowledgeTool, knowledgeTools, type KnowledgeSource } from '../../src/agent/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import { bundlePathProblem } from '../../src/agent/static/bundleReader.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';

const BASE = 'https://bundles.test/kb/';
let files: Map<string, string>;

beforeAll(async () => {
  const bundle = await buildKnowledgeBundle(
    createCatalogSource(exampleCatalog(), exampleSourceOptions()),
    { id: 'example' },
  );
  files = new Map(bundle.files);
});

/** A fetch serving `files` under BASE, with `hostile` answering first where it wants to. */
function fakeFetch(
  bundle: ReadonlyMap<string, string>,
  hostile: (url: URL, request: Request) => Response | Promise<Response> | undefined = () =>
    undefined,
  seen: string[] = [],
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    seen.push(url.href);
    const answer = await hostile(url, request);
    if (answer !== undefined) return answer;
    if (url.origin !== 'https://bundles.test' || !url.pathname.startsWith('/kb/'))
      return new Response('secret from elsewhere', { status: 200 });
    const text = bundle.get(decodeURIComponent(url.pathname.slice('/kb/'.length)));
    return text === undefined ? new Response('', { status: 404 }) : new Response(text);
  };
}

const tools = (source: KnowledgeSource) => knowledgeTools(source);
const firstPage = () =>
  (JSON.parse(files.get('_index/files.json')!) as { pages: { path: string; fileId: string }[] })
    .pages[0]!;

describe('redirects', () => {
  it('refuses a redirect to another host, and never returns its body as the page', async () => {
    const page = firstPage();
    const source = createStaticSource({
      baseUrl: BASE,
      fetch: fakeFetch(files, (url) =>
        url.pathname.endsWith('.md')
          ? new Response(null, { status: 302, headers: { location: 'https://evil.test/x.md' } })
          : undefined,
      ),
    });
    const result = await callKnowledgeTool(tools(source), 'read_file', { path: page.path });
    expect(JSON.stringify(result)).not.toContain('secret from elsewhere');
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'TRANSPORT_ERROR' } },
    });
    expect(JSON.stringify(result)).toContain('redirects are followed only under');
  });

  it('refuses a fetch that followed a redirect itself to another host', async () => {
    const source = createStaticSource({
      baseUrl: BASE,
      fetch: async (request) => {
        const response = await fakeFetch(files)(request);
        Object.defineProperty(response, 'url', { value: 'https://evil.test/manifest.json' });
        return response;
      },
    });
    await expectKnowledgeError(source.listTree({}), {
      code: 'TRANSPORT_ERROR',
      message: /outside the bundle's URL/,
    });
  });

  it('follows a redirect under baseUrl on the same origin', async () => {
    const source = createStaticSource({
      baseUrl: BASE,
      fetch: fakeFetch(files, (url) =>
        url.pathname === '/kb/manifest.json'
          ? new Response(null, { status: 301, headers: { location: '/kb/moved/manifest.json' } })
          : url.pathname === '/kb/moved/manifest.json'
            ? new Response(files.get('manifest.json'))
            : undefined,
      ),
    });
    const tree = await source.listTree({});
    expect(tree.items.length).toBeGreaterThan(0);
  });
});

describe('bundle paths', () => {
  it.each([
    ['../secret.md', '`..`'],
    ['pages/../../secret.md', '`..`'],
    ['/etc/passwd', 'absolute'],
    ['pages\\..\\..\\secret.md', 'backslash'],
    ['pages//x.md', 'empty segment'],
    ['https://evil.test/x', 'URL'],
    ['pages/\u0000x.md', 'control'],
  ])('%s is not a bundle path', (path, why) => {
    expect(bundlePathProblem(path)).toContain(why);
  });

  it('accepts the paths a bundle has', () => {
    for (const path of files.keys()) expect(bundlePathProblem(path), path).toBeUndefined();
  });

  it('refuses a page path with `..` in files.json before fetching it, for read_file too', async () => {
    const hostile = new Map(files);
    const index = JSON.parse(hostile.get('_index/files.json')!) as { pages: { path: string }[] };
    const target = index.pages[0]!;
    const original = target.path;
    target.path = '../../secret.md';
    hostile.set('_index/files.json', JSON.stringify(index));
    const seen: string[] = [];
    const source = createStaticSource({
      baseUrl: BASE,
      fetch: fakeFetch(hostile, undefined, seen),
    });
    const result = await callKnowledgeTool(tools(source), 'read_file', { path: '../../secret.md' });
    expect(JSON.stringify(result)).not.toContain('secret from elsewhere');
    expect(seen.some((url) => !url.startsWith(BASE))).toBe(false);
    expect(original).not.toBe(target.path);
  });
});

describe('size and time', () => {
  it('refuses a bundle file over maxFileBytes as it streams in', async () => {
    let pulled = 0;
    const source = createStaticSource({
      baseUrl: BASE,
      maxFileBytes: 1_000_000,
      fetch: fakeFetch(files, (url) =>
        url.pathname.endsWith('files.json')
          ? new Response(
              new ReadableStream<Uint8Array>({
                pull(controller) {
                  pulled += 1;
                  controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
                  if (pulled > 10_000) controller.close();
                },
              }),
            )
          : undefined,
      ),
    });
    await expectKnowledgeError(source.listTree({}), {
      code: 'TRANSPORT_ERROR',
      message: /over 1000000 bytes.*maxFileBytes/,
    });
    expect(pulled).toBeLessThan(40);
  });

  it('fails a fetch that never answers after fetchTimeoutMs', async () => {
    const source = createStaticSource({
      baseUrl: BASE,
      fetchTimeoutMs: 200,
      fetch: (request) =>
        new Promise<Response>((_resolve, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
    });
    const started = performance.now();
    await expectKnowledgeError(source.listTree({}), {
      code: 'TRANSPORT_ERROR',
      message: /no answer within 200 ms/,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses limits that are not positive whole numbers', () => {
    expect(() => createStaticSource({ baseUrl: BASE, maxFileBytes: 0 })).toThrow(/maxFileBytes/);
    expect(() => createStaticSource({ baseUrl: BASE, fetchTimeoutMs: -5 })).toThrow(
      /fetchTimeoutMs/,
    );
  });
});

describe('digests', () => {
  it('refuses a search shard whose text does not match the digest in its name', async () => {
    const hostile = new Map(files);
    const shard = [...hostile.keys()].find((path) =>
      /_index\/search\/pages-[0-9a-f]{16}\.json$/.test(path),
    )!;
    const records = hostile.get(shard)!;
    // The same JSON with one page's title changed: valid, but not what was exported.
    hostile.set(shard, records.replace(/"title":"[^"]*"/, '"title":"Forged"'));
    expect(hostile.get(shard)).not.toBe(records);
    const source = createStaticSource({ baseUrl: BASE, fetch: fakeFetch(hostile) });
    const result = await callKnowledgeTool(tools(source), 'search_files', {
      query: 'anchored Markdown',
    });
    expect(JSON.stringify(result)).not.toContain('Forged');
    expect(JSON.stringify(result)).toContain('does not match the digest in its name');
  });

  /** `files` with `_index/files.json`'s first page changed by `edit`. */
  const withFirstPage = (edit: (page: Record<string, unknown>) => void): Map<string, string> => {
    const hostile = new Map(files);
    const index = JSON.parse(hostile.get('_index/files.json')!) as {
      pages: Record<string, unknown>[];
    };
    edit(index.pages[0]!);
    hostile.set('_index/files.json', JSON.stringify(index));
    return hostile;
  };

  it('refuses a page whose text does not match its digest in files.json, naming the file and the fix', async () => {
    const page = firstPage();
    const hostile = new Map(files);
    const text = hostile.get(page.path)!;
    // Same length, one word changed: the ranges still fit, so only the digest tells.
    const forged = text.replace(/[A-Za-z]{5}/, 'Forgd');
    expect(forged).not.toBe(text);
    expect(forged.length).toBe(text.length);
    hostile.set(page.path, forged);
    const source = createStaticSource({ baseUrl: BASE, fetch: fakeFetch(hostile) });
    for (const read of [
      () => source.readFile({ fileId: page.fileId }),
      () => source.readFile({ path: page.path }),
    ])
      await expect(read()).rejects.toMatchObject({
        name: 'KnowledgeToolError',
        code: 'INTERNAL',
        message: expect.stringContaining(
          `\`${page.path}\` of the bundle at ${BASE} does not match the digest of its text in the bundle (\`textSha256\`)`,
        ),
      });
    await expect(source.readFile({ fileId: page.fileId })).rejects.toThrow(
      /Export the bundle again with this version of knowledge-kit/,
    );
    // Search reads the page's text through the page shards' records: refused there too.
    const result = await callKnowledgeTool(tools(source), 'search_files', {
      query: 'anchored Markdown',
    });
    expect(JSON.stringify(result)).not.toContain('Forgd');
    // get_file builds its answer from the page's document: refused too.
    await expect(source.getFile({ fileId: page.fileId })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });

  it('refuses the pages of a bundle exported without digests (an older export), naming the fix', async () => {
    const page = firstPage();
    const source = createStaticSource({
      baseUrl: BASE,
      fetch: fakeFetch(withFirstPage((p) => delete p['textSha256'])),
    });
    await expect(source.readFile({ fileId: page.fileId })).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringContaining(
        `\`${page.path}\` of the bundle at ${BASE} has no digest of its text in the bundle (\`textSha256\``,
      ),
    });
    await expect(source.readFile({ fileId: page.fileId })).rejects.toThrow(
      /Export the bundle again with this version of knowledge-kit/,
    );
  });

  it('refuses a page whose section ranges do not cut its text into a tree, whatever its digest', async () => {
    const page = firstPage();
    const cases: ((p: Record<string, unknown>) => void)[] = [
      (p) => ((p['ranges'] as number[][])[0] = [0, 10 ** 9]),
      (p) => ((p['ranges'] as number[][])[0] = [5, 2]),
      (p) => (p['ranges'] = []),
      (p) => ((p['ranges'] as unknown[])[0] = 'x'),
    ];
    for (const edit of cases) {
      const source = createStaticSource({ baseUrl: BASE, fetch: fakeFetch(withFirstPage(edit)) });
      await expect(source.readFile({ fileId: page.fileId })).rejects.toMatchObject({
        code: 'INTERNAL',
        message: expect.stringMatching(/ranges?|section range/),
      });
    }
  });

  it('searches an untouched bundle', async () => {
    const source = createStaticSource({ baseUrl: BASE, fetch: fakeFetch(files) });
    const result = await source.searchFiles({ query: 'anchored Markdown' });
    expect(result.items.length).toBeGreaterThan(0);
  });
});
