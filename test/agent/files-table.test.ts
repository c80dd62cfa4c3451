import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { buildFileTable } from '../../src/agent/files/index.js';
import { compareCodePoints } from '../../src/shared/codePoints.js';
import type { CatalogSourceOptions } from '../../src/agent/index.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { catalogOf } from '../helpers/files-catalog.js';

const catalog = catalogOf(
  {
    faq: '# FAQ\n\nAnswers to common questions.',
    'guides/setup': '# Setup\n\nHow to install.',
    billing: '# 账单\n\n续费说明。',
  },
  { billing: 'zh-CN' },
);

describe('files: the table of pages and navigation files', () => {
  const table = buildFileTable(catalog, {});

  it('makes one page per document with default paths, and index.md and one graph file per page', () => {
    expect(table.files.map((f) => f.path)).toEqual([
      '_graph/by-file/billing.json',
      '_graph/by-file/faq.json',
      '_graph/by-file/guides%2Fsetup.json',
      'index.md',
      'pages/billing.md',
      'pages/faq.md',
      'pages/guides/setup.md',
    ]);
    expect(table.pages.map((p) => p.fileId)).toEqual(['billing', 'faq', 'guides/setup']);
    expect(table.byId('billing')).toEqual({
      kind: 'page',
      fileId: 'billing',
      path: 'pages/billing.md',
      title: '账单',
      description: '续费说明。',
      frontmatter: {},
      tags: [],
      revision: 'r-billing',
      locale: 'zh-CN',
      status: 'current_available',
    });
    expect(table.byId('faq')).toMatchObject({ locale: null });
    expect(table.byPath('index.md')).toMatchObject({
      kind: 'index',
      fileId: 'index.md',
      title: 'Index',
      pageId: null,
    });
    expect(table.byId('_graph/by-file/guides%2Fsetup.json')).toMatchObject({
      kind: 'graph',
      title: 'Relationships of Setup',
      pageId: 'guides/setup',
    });
    for (const file of table.files) expect(Object.isFrozen(file)).toBe(true);
  });

  it('takes path, title, description and front matter from options.files (a record or a function), deep-frozen copies', () => {
    const frontmatter = { tags: ['billing', 'renewal'], owner: { team: 'ops' }, score: 2.5 };
    const options: CatalogSourceOptions = {
      files: {
        faq: {
          path: 'pages/help/常见问题.md',
          title: 'Questions',
          description: 'All of them.',
          frontmatter,
        },
      },
    };
    const t = buildFileTable(catalog, options);
    const page = t.byId('faq');
    expect(page).toMatchObject({
      path: 'pages/help/常见问题.md',
      title: 'Questions',
      description: 'All of them.',
      tags: ['billing', 'renewal'],
    });
    expect(page && page.kind === 'page' && page.frontmatter).toEqual(frontmatter);
    expect(page && page.kind === 'page' && page.frontmatter).not.toBe(frontmatter);
    expect(
      Object.isFrozen((page as unknown as { frontmatter: { owner: object } }).frontmatter.owner),
    ).toBe(true);
    expect(Object.isFrozen(frontmatter)).toBe(false);
    const byFunction = buildFileTable(catalog, {
      files: (id) => (id === 'faq' ? { path: 'pages/x.md' } : undefined),
    });
    expect(byFunction.byPath('pages/x.md')?.fileId).toBe('faq');
  });

  it('builds the directory tree: directories first, then files, each in code-point order; counts at any depth', () => {
    expect(table.directory('')).toEqual({ path: '', name: '', fileCount: 7 });
    const root = table.children('')!;
    expect(root.directories.map((d) => d.path)).toEqual(['_graph', 'pages']);
    expect(root.files.map((f) => f.path)).toEqual(['index.md']);
    expect(table.directory('pages')).toEqual({ path: 'pages', name: 'pages', fileCount: 3 });
    expect(table.children('pages')).toMatchObject({
      directories: [{ path: 'pages/guides', fileCount: 1 }],
    });
    expect(table.children('pages/nope')).toBeUndefined();
    expect(table.directory('pages/faq.md')).toBeUndefined();
  });

  it('orders names by code point, not UTF-16 unit (an astral character sorts after U+FFxx)', () => {
    const names = ['pages/\uff21.md', 'pages/😀.md', 'pages/a.md'];
    const t = buildFileTable(catalogOf({ a: 'x', b: 'y', c: 'z' }), {
      files: { a: { path: names[0]! }, b: { path: names[1]! }, c: { path: names[2]! } },
    });
    expect(t.children('pages')!.files.map((f) => f.path)).toEqual([
      'pages/a.md',
      'pages/\uff21.md',
      'pages/😀.md',
    ]);
    expect([...names].sort()).not.toEqual([...names].sort(compareCodePoints));
  });

  it('suggests close IDs and paths', () => {
    expect(table.closestIds('fac', 3)).toContain('faq');
    expect(table.closestPaths('pages/fac.md', 3)).toContain('pages/faq.md');
  });
});

describe('files: activeContentRevision', () => {
  const base = () => catalogOf({ a: '# A\n\nText.', b: '# B' }, { a: 'en' });
  const rev = (c = base(), options: CatalogSourceOptions = {}) =>
    buildFileTable(c, options).activeContentRevision;

  it('is options.revision when given', () => {
    expect(rev(base(), { revision: 42 })).toBe(42);
    expect(rev(base(), { revision: 'v7' })).toBe('v7');
  });

  it('is a stable digest, equal for equal inputs', () => {
    expect(rev()).toMatch(/^rev-[0-9a-f]{16}$/);
    expect(rev()).toBe(rev());
    // Computed once in another process (node, esbuild bundle): the digest depends on nothing but the input.
    expect(rev()).toBe('rev-8d73e983c400dc86');
  });

  it('changes with each document ID, revision, locale and file option', () => {
    const seen = new Set([
      rev(),
      rev(catalogOf({ a2: '# A\n\nText.', b: '# B' }, { a2: 'en' })),
      rev(catalogOf({ a: '# A\n\nText.', b: '# B' }, { a: 'fr' })),
      rev(catalogOf({ a: '# A\n\nText.', b: '# B' })),
      rev(base(), { files: { a: { path: 'pages/z.md' } } }),
      rev(base(), { files: { a: { title: 'T' } } }),
      rev(base(), { files: { a: { description: 'D' } } }),
      rev(base(), { files: { a: { frontmatter: { tags: ['x'] } } } }),
    ]);
    seen.add(
      rev(
        defineKnowledgeCatalog([
          parseKnowledgeDocument({
            id: 'a',
            revision: 'other',
            text: '# A\n\nText.',
            locale: 'en',
          }),
          parseKnowledgeDocument({ id: 'b', revision: 'r-b', text: '# B' }),
        ]),
      ),
    );
    expect(seen.size).toBe(9);
  });
});

describe('files: invalid paths and options fail with INVALID_INPUT naming the documents', () => {
  const fail = (texts: Record<string, string>, options: CatalogSourceOptions) =>
    catchKnowledgeError(() => buildFileTable(catalogOf(texts), options));

  it.each([
    ['docs/a.md', 'must start with `pages/`'],
    ['pages/a.txt', 'must end in `.md`'],
    ['pages//a.md', 'empty'],
    ['pages/./a.md', '`.`'],
    ['pages/../a.md', '`..`'],
    ['pages/a\\b.md', 'backslash'],
    ['pages/a\u0007.md', 'control'],
    ['/pages/a.md', 'must start with `pages/`'],
  ])('refuses the explicit path %j', (path, why) => {
    const error = fail({ a: 'x' }, { files: { a: { path } } });
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.issues[0]).toMatchObject({ documentId: 'a', path: ['files', 'a', 'path'] });
    expect(error.issues[0]!.message).toContain(why);
  });

  it('asks for an explicit path when the default one would be invalid', () => {
    const error = fail({ '../up': 'x', 'a//b': 'y' }, {});
    expect(error.issues.map((i) => [i.documentId, i.path])).toEqual([
      ['../up', ['files', '../up', 'path']],
      ['a//b', ['files', 'a//b', 'path']],
    ]);
    expect(error.issues[0]!.message).toContain('needs an explicit');
  });

  it('refuses two files on one path, a path that is a directory of another, an ID of a navigation file — all at once', () => {
    const error = fail(
      { a: 'x', b: 'y', c: 'z', d: 'w', 'index.md': 'v' },
      {
        files: {
          b: { path: 'pages/a.md' },
          c: { path: 'pages/d.md/e.md' },
          d: { path: 'pages/d.md' },
        },
      },
    );
    expect(error.issues.map((i) => i.documentId).sort()).toEqual(['b', 'd', 'index.md']);
    expect(error.issues.every((i) => i.code === 'INVALID_INPUT')).toBe(true);
    const messages = error.issues.map((i) => i.message).join('\n');
    expect(messages).toContain('both have the path `pages/a.md`');
    expect(messages).toContain('is also a directory');
    expect(messages).toContain('navigation file');
  });

  it('refuses a graph file ID as a document ID', () => {
    const error = fail(
      { x: 'a', '_graph/by-file/x.json': 'b' },
      { files: { '_graph/by-file/x.json': { path: 'pages/g.md' } } },
    );
    expect(error.issues.map((i) => i.documentId)).toEqual(['_graph/by-file/x.json']);
  });

  it('checks options.files values: unknown keys, wrong types, front matter, unknown documents', () => {
    const error = fail(
      { a: 'x', b: 'y', c: 'z' },
      {
        files: {
          a: { path: 'pages/a.md', titel: 'typo' } as never,
          b: { title: 3 } as never,
          c: { frontmatter: { tags: 'one', n: Number.NaN } } as never,
          zz: {},
        },
      },
    );
    expect(error.issues.map((i) => [i.documentId, i.path])).toEqual([
      ['zz', ['files', 'zz']],
      ['a', ['files', 'a', 'titel']],
      ['b', ['files', 'b', 'title']],
      ['c', ['files', 'c', 'frontmatter']],
    ]);
    expect(
      fail({ a: 'x' }, { files: { a: { frontmatter: { tags: ['ok', 1] } } } as never }).issues[0]!
        .message,
    ).toContain('`tags` must be an array of strings');
    // The shape of `files` and `revision` is checked once, with the source's other options, before
    // the table is built (`readSourceOptions`; `publishKnowledge` has its own check).
    const source = (options: CatalogSourceOptions) =>
      catchKnowledgeError(() => createCatalogSource(catalogOf({ a: 'x' }), options));
    expect(source({ files: 'nope' } as never).issues[0]).toMatchObject({
      path: ['options', 'files'],
    });
    expect(source({ revision: 1.5 }).issues[0]).toMatchObject({ path: ['options', 'revision'] });
    expect(
      fail(
        { a: 'x' },
        {
          files: () => {
            throw new Error('boom');
          },
        },
      ).issues[0]!.message,
    ).toContain('boom');
  });
});
