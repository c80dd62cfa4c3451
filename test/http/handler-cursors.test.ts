/**
 * Cursors and IDs that people can type: `?cursor=` alone continues with the parameters it was issued
 * for, a forged one is refused, and a 404 for a file ID with an unencoded `/` names the URL to use.
 */
import { describe, expect, it } from 'vitest';
import { forgeCursor } from '../helpers/cursors.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { BASE_PATH, exampleHandler, READER } from '../helpers/exampleHandler.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { expectError, get } from '../helpers/handler-http.js';

const KB = `${BASE_PATH}/knowledge-bases/example`;
const handler = exampleHandler();

const json = async (response: Response) => {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as { nextCursor: string | null; items: unknown[] };
};

describe('a cursor alone over HTTP', () => {
  it('continues search, tree and related pages from `?cursor=` alone', async () => {
    const found = await json(await get(handler, `${KB}/search?query=cursor%20revision&limit=1`));
    expect(found.nextCursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(found.nextCursor!);
    const alone = await json(await get(handler, `${KB}/search?cursor=${cursor}`));
    const full = await json(
      await get(handler, `${KB}/search?query=cursor%20revision&limit=1&cursor=${cursor}`),
    );
    expect(alone).toEqual(full);
    const tree = await json(await get(handler, `${KB}/tree?parentPath=pages&limit=1`));
    const next = await json(
      await get(handler, `${KB}/tree?cursor=${encodeURIComponent(tree.nextCursor!)}`),
    );
    expect(next.items).toHaveLength(1);
    await expectError(
      await get(handler, `${KB}/tree?limit=3&cursor=${encodeURIComponent(tree.nextCursor!)}`),
      { code: 'INVALID_CURSOR', message: /`limit` 1, not 3/ },
    );
  });

  it('still requires `query` without a cursor, and refuses a forged cursor', async () => {
    await expectError(await get(handler, `${KB}/search`), {
      code: 'INVALID_ARGUMENT',
      message: /`query` is required/,
    });
    const tree = await json(await get(handler, `${KB}/tree?limit=1`));
    const forged = forgeCursor(tree.nextCursor!, (payload) => (payload[5] = 3));
    await expectError(await get(handler, `${KB}/tree?cursor=${encodeURIComponent(forged)}`), {
      code: 'INVALID_CURSOR',
    });
  });
});

describe('a file ID with an unencoded `/`', () => {
  it('the 404 names the encoded URL, for the content, related and file routes', async () => {
    const cases: readonly [string, string][] = [
      [
        `${KB}/files/guides/intro/content?maxChars=10`,
        `${KB}/files/guides%2Fintro/content?maxChars=10`,
      ],
      [`${KB}/files/a/b/c/related`, `${KB}/files/a%2Fb%2Fc/related`],
      [`${KB}/files/_graph/by-file/x.json`, `${KB}/files/_graph%2Fby-file%2Fx.json`],
    ];
    for (const [path, fixed] of cases) {
      const body = await expectError(await get(handler, path), { code: 'NOT_FOUND' });
      expect(body.error.message).toContain(`request ${fixed}.`);
      expect(body.error.message).toContain('percent-encoded');
    }
    // Any other unknown route keeps the plain answer.
    const other = await expectError(await get(handler, `${KB}/nowhere/at/all`), {
      code: 'NOT_FOUND',
    });
    expect(other.error.message).not.toContain('percent-encoded');
  });
});

describe('read_file parts over HTTP', () => {
  it('the content routes answer parts, JSON and Markdown, and the client follows them', async () => {
    const path = `${KB}/files/agent-tools/content?maxChars=300`;
    const first = (await (await get(handler, path)).json()) as {
      content: string;
      nextCursor: string | null;
      file: { contentRange: { start: number; end: number; total: number } };
    };
    expect(first.file.contentRange.start).toBe(0);
    const cursor = encodeURIComponent(first.nextCursor!);
    const markdown = await get(handler, `${KB}/files/content?cursor=${cursor}`, {
      accept: 'text/markdown',
    });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('x-knowledge-content-range')).toMatch(
      new RegExp(`^${first.file.contentRange.end}-\\d+/${first.file.contentRange.total}$`),
    );
    const next = markdown.headers.get('x-knowledge-next-cursor');
    const whole = (await (await get(handler, `${KB}/files/agent-tools/content`)).json()) as {
      content: string;
    };
    let text = first.content + (await markdown.text());
    let at = next === null ? null : decodeURIComponent(next);
    while (at !== null) {
      const part = (await (
        await get(handler, `${KB}/files/content?cursor=${encodeURIComponent(at)}`)
      ).json()) as { content: string; nextCursor: string | null };
      text += part.content;
      at = part.nextCursor;
    }
    expect(text).toBe(whole.content);
  });

  it('a part’s ETag names its range: replicas with another read limit never share one', async () => {
    const behind = (maxReadChars: number) =>
      createKnowledgeHandler({
        basePath: BASE_PATH,
        access: () => ({
          knowledgeBases: {
            example: createCatalogSource(exampleCatalog(), {
              ...exampleSourceOptions(),
              maxReadChars,
            }),
          },
        }),
      });
    const path = `${KB}/files/agent-tools/content`;
    const [a, b, again] = await Promise.all([
      get(behind(300), path),
      get(behind(1000), path),
      get(behind(300), path),
    ]);
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
    expect(a.headers.get('etag')).toBe(again.headers.get('etag'));
    // A client holding the 300 part's tag gets the 400 part, not a 304.
    const conditional = await get(behind(1000), path, { 'if-none-match': a.headers.get('etag')! });
    expect(conditional.status).toBe(200);
  });

  it('the client reads the next part from a cursor alone', async () => {
    const client = createKnowledgeClient({
      baseUrl: `http://kb.test${KB}`,
      headers: READER,
      fetch: (request) => handler(request),
    });
    const first = await client.readFile({ fileId: 'agent-tools', maxChars: 300 });
    const second = await client.readFile({ cursor: first.nextCursor });
    expect(second.file.contentRange!.start).toBe(first.file.contentRange!.end);
  });
});
