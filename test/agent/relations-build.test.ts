import { describe, expect, it } from 'vitest';
import { buildFileTable } from '../../src/agent/files/index.js';
import { buildRelations, resolveLink, scanLinks } from '../../src/agent/relations/index.js';
import { catalogOf } from '../helpers/files-catalog.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';

const catalog = catalogOf({
  'guides/setup': [
    '# Setup',
    '',
    'See [the FAQ](../faq.md#refunds), [again](../faq) and [root](/pages/billing.md?x=1#nope).',
    'Also [self](./setup.md), [web](https://example.com/pages/faq.md), [host](//cdn/pages/faq.md),',
    '[mail](mailto:a@b.c), [missing](./nothing.md) and `[code](../faq.md)`.',
    '',
    '```',
    '[fenced](../billing.md)',
    '```',
    '',
    '[ref]: ../%E8%B4%A6%E5%8D%95.md',
  ].join('\n'),
  faq: [
    '# FAQ',
    '',
    '<!-- agent-section:refunds -->',
    'Refunds: [setup](guides/setup.md).',
    '<!-- /agent-section:refunds -->',
  ].join('\n'),
  billing: '# Billing\n\n[faq](faq.md#refunds)',
  账单: '# 账单',
  lonely: '# Lonely',
});

const table = buildFileTable(catalog, {
  files: {
    faq: { frontmatter: { tags: ['billing', 'renewal', 'help'] } },
    billing: { frontmatter: { tags: ['billing', 'renewal'] } },
    lonely: { frontmatter: { tags: ['renewal', 'misc', 'misc'] } },
  },
});
const relations = buildRelations(catalog, table);
const summary = (id: string) =>
  relations.get(id)!.map((r) => [r.relationType, r.fileId, r.weight, r.sectionId]);

describe('relations: links and shared tags between pages', () => {
  it('resolves ./, ../, /, .md-less links and fragments; ignores external, self, code and missing targets', () => {
    expect(summary('guides/setup')).toEqual([
      ['links_to', 'billing', 1, null],
      ['links_to', 'faq', 1, 'refunds'],
      ['links_to', '账单', 1, null],
      ['linked_from', 'faq', 1, null],
    ]);
    const toFaq = relations.get('guides/setup')!.find((r) => r.fileId === 'faq')!;
    expect(toFaq).toEqual({
      fileId: 'faq',
      relationType: 'links_to',
      direction: 'outgoing',
      weight: 1,
      reason: 'Links to `pages/faq.md` twice.',
      sectionId: 'refunds',
    });
  });

  it('gives incoming links and Jaccard-weighted shared tags, ordered by weight, type, then path', () => {
    expect(summary('faq')).toEqual([
      ['links_to', 'guides/setup', 1, null],
      ['linked_from', 'billing', 1, null],
      ['linked_from', 'guides/setup', 1, null],
      ['shared_tag', 'billing', 2 / 3, null],
      ['shared_tag', 'lonely', 1 / 4, null],
    ]);
    const faq = relations.get('faq')!;
    expect(faq[1]).toMatchObject({
      direction: 'incoming',
      reason: 'Linked from `pages/billing.md`.',
    });
    expect(faq[3]).toMatchObject({
      direction: 'outgoing',
      reason: 'Both are tagged `billing`, `renewal`.',
    });
    expect(summary('lonely')).toEqual([
      ['shared_tag', 'billing', 1 / 3, null],
      ['shared_tag', 'faq', 1 / 4, null],
    ]);
  });

  it('has an entry for every page, frozen; a page without relations has none; no entry for other IDs', () => {
    for (const id of ['billing', 'faq', 'guides/setup', 'lonely', '账单'])
      expect(relations.get(id), id).toEqual(expect.any(Array));
    expect(relations.get('index.md')).toBeUndefined();
    expect(relations.get('faq')).toBe(relations.get('faq'));
    expect(relations.get('账单')).toEqual([
      {
        fileId: 'guides/setup',
        relationType: 'linked_from',
        direction: 'incoming',
        weight: 1,
        reason: 'Linked from `pages/guides/setup.md`.',
        sectionId: null,
      },
    ]);
    expect(Object.isFrozen(relations.get('faq'))).toBe(true);
    expect(Object.isFrozen(relations.get('faq')![0])).toBe(true);
  });
});

const link = (
  path: string | null,
  fragment: string | null,
  flags: { directory?: boolean; siteRoot?: boolean } = {},
) => ({ path, fragment, directory: false, siteRoot: false, ...flags });

describe('relations: resolveLink and scanLinks', () => {
  it.each([
    ['../faq.md#refunds', 'pages/guides/setup.md', link('pages/faq.md', 'refunds')],
    ['./a%20b.md?q=1', 'pages/x.md', link('pages/a b.md', null)],
    ['/pages/a', 'pages/deep/x.md', link('pages/a', null, { siteRoot: true })],
    ['./guide/', 'pages/x.md', link('pages/guide', null, { directory: true })],
    ['../../../a.md', 'pages/x.md', link(null, null)],
    ['https://x.y/a.md', 'pages/x.md', undefined],
    ['//host/a.md', 'pages/x.md', undefined],
    ['#top', 'pages/x.md', undefined],
    ['C:/a.md', 'pages/x.md', undefined],
  ])('resolveLink(%j, %j)', (url, from, expected) => {
    expect(resolveLink(url, from)).toEqual(expected);
  });

  it('reports decoded URLs with their lines and kinds, outside code', () => {
    expect(
      scanLinks(
        'a [x](<b c.md> "t")\r\n\r\n`[no](x)`\r\n\r\n[l]: a\\_b&amp;c.md\r\n\r\n    [no](y)\r\n> [q](z.md)',
      ),
    ).toEqual([
      { url: 'b c.md', line: 1, kind: 'inline' },
      { url: 'a_b&c.md', line: 5, kind: 'definition' },
      { url: 'z.md', line: 8, kind: 'inline' },
    ]);
    // A definition cannot interrupt a paragraph: right after a text line it is text.
    expect(scanLinks('text\n[l]: a.md')).toEqual([]);
  });
});

describe('relations: a popular tag', () => {
  it('lists every shared-tag page when asked, and keeps only a bounded number of lists', () => {
    const docs = Array.from({ length: 300 }, (_, i) =>
      parseKnowledgeDocument({ id: `p${i}`, revision: 'r', text: `# Page ${i}` }),
    );
    const catalog = defineKnowledgeCatalog(docs);
    const files = Object.fromEntries(docs.map((d) => [d.id, { frontmatter: { tags: ['faq'] } }]));
    const relations = buildRelations(catalog, buildFileTable(catalog, { files }));
    const first = relations.get('p0')!;
    expect(first).toHaveLength(299);
    expect(first.every((r) => r.relationType === 'shared_tag' && r.weight === 1)).toBe(true);
    for (let i = 1; i < 300; i++) relations.get(`p${i}`);
    // p0's list was evicted (256 lists are kept) and is computed again, equal but not the same object.
    const again = relations.get('p0')!;
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});

describe('buildRelations reads links on the first question', () => {
  it('reads no page until a relationship or the link counts are asked for, then each page once', () => {
    let reads = 0;
    // The catalog is frozen: a catalog that counts its reads is a new object over it.
    const counting = Object.create(catalog, {
      read: {
        value: (request: Parameters<typeof catalog.read>[0]) => {
          reads++;
          return catalog.read(request);
        },
      },
    }) as typeof catalog;
    const lazy = buildRelations(counting, table);
    expect(reads).toBe(0);
    expect(lazy.links).toEqual(relations.links);
    expect(reads).toBe(table.pages.length);
    expect(lazy.get('faq')).toEqual(relations.get('faq'));
    expect(lazy.get('guides/setup')).toEqual(relations.get('guides/setup'));
    expect(reads).toBe(table.pages.length);
    const other = buildRelations(counting, table);
    expect(other.get('billing')).toEqual(relations.get('billing'));
    expect(reads).toBe(table.pages.length * 2);
  });
});
