// Issue 20 item 3: site-root links (`/learn/state`, `/guide/essentials/list.html`, `/api/#ref`), as
// docs sites write them, resolve through `linkRoot`; what names no page is counted, never guessed.
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { buildFileTable } from '../../src/agent/files/index.js';
import {
  buildRelations,
  pageForms,
  readLinkRoot,
  resolveLink,
} from '../../src/agent/relations/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { catalogOf } from '../helpers/files-catalog.js';

// A docs site: pages under `pages/`, as the folder loader places them.
const catalog = catalogOf({
  'learn/index': '# Learn\n\n[State](/learn/state) and [again](/learn/state.html#top).',
  'learn/state': [
    '# State',
    '',
    '<!-- agent-section:ref -->',
    'See [lists](/guide/essentials/list.html), [the API](/api/#ref), [the API index](/api/index.html),',
    '[learn](/learn/), [home](/), [blog](/blog/2024/post) and [asset](/images/a.png).',
    '<!-- /agent-section:ref -->',
  ].join('\n'),
  'guide/essentials/list': '# Lists\n\n[state](../../learn/state.html) and [ref](/api/#ref)',
  'api/index': '# API\n\n<!-- agent-section:ref -->\nref()\n<!-- /agent-section:ref -->',
  index: '# Home',
});
const files = Object.fromEntries(catalog.ids.map((id) => [id, { path: `pages/${id}.md` }]));
const table = buildFileTable(catalog, { files });
const linksOf = (relations: ReturnType<typeof buildRelations>, id: string) =>
  relations
    .get(id)!
    .filter((r) => r.relationType === 'links_to')
    .map((r) => [r.fileId, r.sectionId]);

describe('site-root links through linkRoot', () => {
  it("with linkRoot 'pages': extension-less, .html, trailing-slash and index forms name .md pages", () => {
    const relations = buildRelations(catalog, table, readLinkRoot('pages'));
    expect(linksOf(relations, 'learn/state')).toEqual([
      ['api/index', 'ref'],
      ['guide/essentials/list', null],
      ['index', null],
      ['learn/index', null],
    ]);
    expect(linksOf(relations, 'learn/index')).toEqual([['learn/state', null]]);
    expect(linksOf(relations, 'guide/essentials/list')).toEqual([
      ['api/index', 'ref'],
      ['learn/state', null],
    ]);
    // `/blog/2024/post` and `/images/a.png` name no page: counted, not guessed.
    expect(relations.links).toEqual({
      resolved: 9,
      unresolved: 2,
      unresolvedSiteRoot: 2,
      examples: [
        { from: 'pages/learn/state.md', url: '/blog/2024/post' },
        { from: 'pages/learn/state.md', url: '/images/a.png' },
      ],
    });
  });

  it('without linkRoot, `/` is the root of page paths, as before: site-root links are unresolved', () => {
    const relations = buildRelations(catalog, table);
    expect(linksOf(relations, 'learn/state')).toEqual([]);
    // The relative link still resolves.
    expect(linksOf(relations, 'guide/essentials/list')).toEqual([['learn/state', null]]);
    expect(relations.links.unresolvedSiteRoot).toBe(10);
  });

  it('{ dir, base }: pages served under a site path; links outside it name no page', () => {
    // Only the `learn/` pages, served at `/learn/`, as when the folder loaded is `learn` itself.
    const learn = catalogOf({
      index: '# Learn\n\n[State](/learn/state) [Lists](/guide/essentials/list)',
      state: '# State\n\n[home](/learn/) [up](/learn/../learn/index.html)',
    });
    const learnTable = buildFileTable(learn, {});
    const relations = buildRelations(
      learn,
      learnTable,
      readLinkRoot({ dir: 'pages', base: '/learn/' }),
    );
    expect(linksOf(relations, 'index')).toEqual([['state', null]]);
    expect(linksOf(relations, 'state')).toEqual([['index', null]]);
    expect(relations.links).toMatchObject({ resolved: 3, unresolved: 1, unresolvedSiteRoot: 1 });
    expect(relations.links.examples).toEqual([
      { from: 'pages/index.md', url: '/guide/essentials/list' },
    ]);
  });

  it('read_related and expand_graph give the relations of site-root links', async () => {
    const source = createCatalogSource(catalog, { files, linkRoot: 'pages' });
    const related = await source.readRelated({ fileId: 'learn/state' });
    expect(related.items.map((i) => [i.fileId, i.relationType])).toContainEqual([
      'guide/essentials/list',
      'links_to',
    ]);
    const graph = await source.expandGraph({ fileId: 'learn/index', depth: 2 });
    expect(graph.relationships.map((r) => r.fileId)).toEqual(
      expect.arrayContaining(['learn/state', 'guide/essentials/list', 'api/index']),
    );
    // Without linkRoot the same catalog gives learn/state no outgoing link.
    const plain = createCatalogSource(catalog, { files });
    const none = await plain.readRelated({ fileId: 'learn/state' });
    expect(none.items.filter((i) => i.relationType === 'links_to')).toEqual([]);
  });

  it('refuses a linkRoot that is not a clean page directory, naming the option', () => {
    for (const linkRoot of [
      '../x',
      'a//b',
      'a/./b',
      'a\\b',
      5,
      { dir: 'pages' },
      { dir: 'p', base: 'x' },
    ])
      expectKnowledgeError(() => createCatalogSource(catalog, { linkRoot } as never), {
        code: 'INVALID_INPUT',
        path: ['options', 'linkRoot'],
      });
  });
});

describe('pageForms and resolveLink with a root', () => {
  it.each([
    [
      'pages/guide/list.html',
      false,
      ['pages/guide/list.md', 'pages/guide/list.mdx', 'pages/guide/list.markdown'],
    ],
    [
      'pages/guide/list.htm',
      false,
      ['pages/guide/list.md', 'pages/guide/list.mdx', 'pages/guide/list.markdown'],
    ],
    [
      'pages/api/index.html',
      false,
      ['pages/api/index.md', 'pages/api/index.mdx', 'pages/api/index.markdown'],
    ],
    [
      'pages/api',
      true,
      [
        'pages/api/index.md',
        'pages/api/index.mdx',
        'pages/api/index.markdown',
        'pages/api.md',
        'pages/api.mdx',
        'pages/api.markdown',
      ],
    ],
    ['', true, ['index.md', 'index.mdx', 'index.markdown']],
    ['pages/a.md', false, ['pages/a.md']],
    ['pages/a.mdx', false, ['pages/a.mdx']],
    [
      'pages/learn/state',
      false,
      [
        'pages/learn/state',
        'pages/learn/state.md',
        'pages/learn/state.mdx',
        'pages/learn/state.markdown',
        'pages/learn/state/index.md',
        'pages/learn/state/index.mdx',
        'pages/learn/state/index.markdown',
      ],
    ],
  ] as const)('pageForms(%j, %j)', (path, directory, forms) => {
    expect(pageForms(path, directory)).toEqual(forms);
  });

  it('resolves a site-root link under the root, and refuses one that climbs above it', () => {
    const root = readLinkRoot({ dir: 'pages/src', base: '/' });
    expect(resolveLink('/guide/x.html#a', 'pages/src/y.md', root)).toEqual({
      path: 'pages/src/guide/x.html',
      fragment: 'a',
      directory: false,
      siteRoot: true,
    });
    expect(resolveLink('/../x', 'pages/y.md', root)).toMatchObject({ path: null });
    expect(
      resolveLink('/docs/a', 'pages/y.md', readLinkRoot({ dir: 'pages', base: '/docs/v2/' })),
    ).toMatchObject({ path: null });
  });
});
