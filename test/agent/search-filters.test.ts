/**
 * `search_files` filters: `pathPrefix` (a string or a list), `tags` (all of them) and `locale` narrow
 * the candidates of the whole knowledge base's ranking; a filter that keeps no page is
 * `no_candidates` with a message naming it; cursors are bound to the filters; bad values are
 * `INVALID_ARGUMENT` naming the argument (and the item) and the fix.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { toStrictSchema } from '../../src/agent/adapters/index.js';
import { KNOWLEDGE_TOOL_SCHEMAS } from '../../src/agent/tools/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { strictAjv } from '../helpers/tools-ajv.js';

const source = createCatalogSource(exampleCatalog(), exampleSourceOptions());
const QUERY = 'search agents cursors catalog snapshots';

/** Path and score of each item. */
const ranked = (output: { items: readonly { path: string; score: number }[] }) =>
  output.items.map((item) => [item.path, item.score] as const);

describe('search_files filters', () => {
  it('pathPrefix keeps the pages under the prefix, with the scores they have without it', async () => {
    const all = await source.searchFiles({ query: QUERY, limit: 50 });
    expect(all.items.length).toBe(4);
    const agents = await source.searchFiles({
      query: QUERY,
      limit: 50,
      pathPrefix: 'pages/agents/',
    });
    expect(ranked(agents)).toEqual(
      ranked(all).filter(([path]) => path.startsWith('pages/agents/')),
    );
    expect(agents.items.length).toBe(2);
    // A list keeps the pages under any of its prefixes.
    const either = await source.searchFiles({
      query: QUERY,
      limit: 50,
      pathPrefix: ['pages/agents/agent', 'pages/anchored'],
    });
    expect(either.items.map((i) => i.path).sort()).toEqual([
      'pages/agents/agent-tools.md',
      'pages/anchored-markdown.md',
    ]);
  });

  it('tags keeps the pages whose tags hold every one; locale the pages of that locale', async () => {
    const all = await source.searchFiles({ query: QUERY, limit: 50 });
    const tagged = await source.searchFiles({
      query: QUERY,
      limit: 50,
      tags: ['agents', 'search'],
    });
    expect(tagged.items.map((i) => i.path).sort()).toEqual([
      'pages/agents/agent-tools.md',
      'pages/agents/exploration.md',
    ]);
    const one = await source.searchFiles({ query: QUERY, limit: 50, tags: 'catalog' });
    expect(one.items.map((i) => i.path).sort()).toEqual([
      'pages/anchored-markdown.md',
      'pages/knowledge-kit-guide.md',
    ]);
    const zh = await source.searchFiles({ query: QUERY, limit: 50, locale: 'zh-CN' });
    expect(ranked(zh)).toEqual(
      ranked(all).filter(([path]) =>
        ['pages/knowledge-kit-guide.md', 'pages/agents/exploration.md'].includes(path),
      ),
    );
    const both = await source.searchFiles({
      query: QUERY,
      limit: 50,
      locale: 'en',
      tags: 'agents',
      pathPrefix: 'pages/',
    });
    expect(both.items.map((i) => i.path)).toEqual(['pages/agents/agent-tools.md']);
  });

  it('a filter that keeps no page is no_candidates, and the message names it', async () => {
    const prefix = await source.searchFiles({ query: QUERY, pathPrefix: 'guide/' });
    expect(prefix).toMatchObject({ searchStatus: 'no_candidates', items: [], nextCursor: null });
    expect(prefix.message).toMatch(/^The filter pathPrefix "guide\/" keeps no page/);
    expect(prefix.nextActions.map((a) => a.tool)).toEqual(['read_file', 'list_tree']);
    const tags = await source.searchFiles({ query: QUERY, tags: ['agents', 'nope'] });
    expect(tags.message).toMatch(/^The filter tags "agents", "nope" keeps no page/);
    const locale = await source.searchFiles({ query: QUERY, locale: 'fr' });
    expect(locale.message).toMatch(/^The filter locale "fr" keeps no page/);
    const together = await source.searchFiles({ query: QUERY, locale: 'en', tags: 'exploration' });
    expect(together.message).toMatch(
      /^The filters tags "exploration", locale "en" keep no page together/,
    );
    // Pages kept, none matching the query: the filters are named, and the advice differs.
    const none = await source.searchFiles({ query: 'zzzqqq', pathPrefix: 'pages/agents/' });
    expect(none.searchStatus).toBe('no_candidates');
    expect(none.message).toMatch(/^No page within the filters \(pathPrefix "pages\/agents\/"\)/);
  });

  it('a cursor is bound to the filters: alone it keeps them; with other filters it is refused', async () => {
    const first = await source.searchFiles({ query: QUERY, limit: 1, pathPrefix: 'pages/agents/' });
    expect(first.nextCursor).not.toBeNull();
    const second = await source.searchFiles({ cursor: first.nextCursor });
    expect(second.items.map((i) => i.path)).toEqual(
      (await source.searchFiles({ query: QUERY, limit: 2, pathPrefix: 'pages/agents/' })).items
        .slice(1)
        .map((i) => i.path),
    );
    expect(second.nextCursor).toBeNull();
    // The same filter written as a one-item list is the same filter.
    await expect(
      source.searchFiles({ cursor: first.nextCursor, pathPrefix: ['pages/agents/'] }),
    ).resolves.toMatchObject({ items: [expect.anything()] });
    for (const other of [{ pathPrefix: 'pages/' }, { tags: 'agents' }, { locale: 'en' }]) {
      await expectKnowledgeError(source.searchFiles({ cursor: first.nextCursor, ...other }), {
        code: 'INVALID_CURSOR',
        message: new RegExp(`was issued for other parameters \\(\`${Object.keys(other)[0]}\``),
      });
    }
    // A cursor issued without filters refuses them too.
    const plain = await source.searchFiles({ query: QUERY, limit: 1 });
    await expectKnowledgeError(
      source.searchFiles({ cursor: plain.nextCursor, pathPrefix: 'pages/agents/' }),
      { code: 'INVALID_CURSOR', message: /`pathPrefix` null, not \["pages\/agents\/"\]/ },
    );
  });

  it('bad filter values are INVALID_ARGUMENT naming the argument, the item and the fix', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ pathPrefix: '' }, /`pathPrefix` must be a non-empty string of at most 1000 characters/],
      [{ pathPrefix: [] }, /`pathPrefix` must be a non-empty string or a list of 1 to 20 of them/],
      [{ pathPrefix: 3 }, /`pathPrefix` must be a non-empty string or a list/],
      [{ pathPrefix: ['pages/', 7] }, /`pathPrefix\[1\]` must be a non-empty string/],
      [
        { pathPrefix: '/pages/guide/' },
        /`pathPrefix` must be a path as the tools write it, such as `pages\/guide\/`, without a leading `\/`/,
      ],
      [{ pathPrefix: ['pages/', '/x'] }, /`pathPrefix\[1\]` must be a path as the tools write it/],
      [{ pathPrefix: Array.from({ length: 21 }, (_, i) => `pages/${i}`) }, /a list of 1 to 20/],
      [{ tags: ['a', ''] }, /`tags\[1\]` must be a non-empty string/],
      [{ tags: 'x'.repeat(201) }, /`tags` must be a non-empty string of at most 200 characters/],
      [{ tags: { a: 1 } }, /`tags` must be a non-empty string or a list/],
      [{ locale: '' }, /`locale` must be a non-empty string/],
      [{ locale: ['en'] }, /`locale` must be a string/],
    ];
    for (const [input, message] of bad)
      await expectKnowledgeError(source.searchFiles({ query: QUERY, ...input }), {
        code: 'INVALID_ARGUMENT',
        httpStatus: 400,
        message,
      });
  });

  it('the input schema takes a string or a list, and its strict variant accepts null', () => {
    const ajv = strictAjv();
    const input = KNOWLEDGE_TOOL_SCHEMAS.search_files.input;
    const validate = ajv.compile(input as object);
    for (const ok of [
      { pathPrefix: 'pages/a/' },
      { pathPrefix: ['pages/a/', 'pages/b/'] },
      { tags: 'a' },
      { tags: ['a', 'b'] },
      { locale: 'en' },
      { pathPrefix: null, tags: null, locale: null },
    ])
      expect(validate({ query: 'q', ...ok }), JSON.stringify(ok)).toBe(true);
    for (const bad of [{ pathPrefix: [] }, { pathPrefix: '' }, { tags: [1] }, { locale: 3 }])
      expect(validate({ query: 'q', ...bad }), JSON.stringify(bad)).toBe(false);
    const strict = toStrictSchema(input);
    const properties = strict['properties'] as Record<string, { anyOf?: { type: string }[] }>;
    expect(properties['pathPrefix']!.anyOf!.map((b) => b.type)).toEqual([
      'string',
      'array',
      'null',
    ]);
    expect(properties['tags']!.anyOf!.map((b) => b.type)).toEqual(['string', 'array', 'null']);
    expect(strict['required']).toEqual(expect.arrayContaining(['pathPrefix', 'tags', 'locale']));
    const strictCheck = ajv.compile(strict);
    expect(
      strictCheck({
        query: 'q',
        mode: null,
        graphDepth: null,
        graphFanout: null,
        rerank: null,
        cursor: null,
        limit: null,
        pathPrefix: ['pages/'],
        tags: null,
        locale: null,
        version: null,
      }),
    ).toBe(true);
  });

  it('in graph mode, related pages outside the filters are left out', async () => {
    const graph = await source.searchFiles({
      query: 'exploration',
      mode: 'graph',
      limit: 50,
      pathPrefix: 'pages/agents/',
    });
    expect(graph.items.length).toBeGreaterThan(0);
    for (const item of graph.items) expect(item.path.startsWith('pages/agents/')).toBe(true);
  });
});
