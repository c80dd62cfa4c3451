import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVersionedSource } from '../../src/agent/versions/createVersionedSource.js';
import { versionLabelProblem } from '../../src/agent/versions/label.js';
import { diffVersions } from '../../src/agent/versions/diffVersions.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { scenarioSource, type ScenarioPage } from '../helpers/scenarioSources.js';

/** Version 3.x: a config page with an `options` heading, and a page 2.x does not have. */
const V3: readonly ScenarioPage[] = [
  {
    id: 'config',
    path: 'pages/config.md',
    text: '# Config\n\nThe site config file.\n\n## Options\n\nThe cleanUrls option drops `.html`.\n',
  },
  { id: 'themes', path: 'pages/themes.md', text: '# Themes\n\nDark mode toggles the theme.\n' },
  { id: 'install', path: 'pages/install.md', text: '# Install\n\nRun npm install.\n' },
];

/** Version 2.x: the config page without `cleanUrls`, a page 3.x removed. */
const V2: readonly ScenarioPage[] = [
  {
    id: 'config',
    path: 'pages/config.md',
    text: '# Config\n\nThe site config file.\n\n## Options\n\nThe legacyRoutes option keeps routes.\n',
  },
  { id: 'plugins', path: 'pages/plugins.md', text: '# Plugins\n\nPlugins extend the build.\n' },
  { id: 'install', path: 'pages/install.md', text: '# Install\n\nRun npm install.\n' },
];

function versioned() {
  return createVersionedSource({
    versions: {
      '3.x': scenarioSource(V3, 'docs', 'rev-3'),
      '2.x': scenarioSource(V2, 'docs', 'rev-2'),
    },
    default: '3.x',
  });
}

async function pagePaths(source: KnowledgeSource, version?: string): Promise<string[]> {
  const listed = await source.listTree({
    parentPath: 'pages',
    ...(version === undefined ? {} : { version }),
  } as never);
  return listed.items.map((item) => item.path).sort();
}

describe('createVersionedSource', () => {
  it('answers each call from the version it names, and the default from the default', async () => {
    const source = versioned();
    expect(source.versionLabels).toEqual(['3.x', '2.x']);
    expect(source.defaultVersion).toBe('3.x');
    expect(await pagePaths(source, '2.x')).toEqual([
      'pages/config.md',
      'pages/install.md',
      'pages/plugins.md',
    ]);
    expect(await pagePaths(source)).toEqual([
      'pages/config.md',
      'pages/install.md',
      'pages/themes.md',
    ]);
    const old = await source.searchFiles({ query: 'plugins', version: '2.x' } as never);
    expect(old.items.map((item) => item.path)).toContain('pages/plugins.md');
    const current = await source.searchFiles({ query: 'plugins' });
    expect(current.items.map((item) => item.path)).not.toContain('pages/plugins.md');
    expect(old.activeContentRevision).toBe('rev-2');
    expect(current.activeContentRevision).toBe('rev-3');
  });

  it('refuses a version it does not have with VERSION_NOT_FOUND listing its versions, never another version', async () => {
    const source = versioned();
    const error = await expectKnowledgeError(
      source.searchFiles({ query: 'config', version: '4.x' } as never, { requestId: 'req-v' }),
      {
        code: 'VERSION_NOT_FOUND',
        httpStatus: 404,
        requestId: 'req-v',
        message:
          /`search_files`: this knowledge base has no version `4\.x`\. Its versions: `3\.x` \(default\), `2\.x`\./,
      },
    );
    expect((error as { details?: unknown }).details).toEqual({
      version: '4.x',
      versions: ['3.x', '2.x'],
    });
    for (const call of [
      () => source.readFile({ path: 'pages/config.md', version: '2' } as never),
      () => source.getFile({ fileId: 'config', version: '3.X' } as never),
      () => source.listTree({ version: 'current' } as never),
    ])
      await expectKnowledgeError(call(), { code: 'VERSION_NOT_FOUND' });
  });

  it('refuses a `version` that is not a label as INVALID_ARGUMENT naming it', async () => {
    await expectKnowledgeError(versioned().listTree({ version: '3 x' } as never), {
      code: 'INVALID_ARGUMENT',
      message: /`list_tree`: `version` is not a version label: character 2/,
    });
    await expectKnowledgeError(versioned().listTree({ version: 3 } as never), {
      code: 'INVALID_ARGUMENT',
      message: /`version`/,
    });
  });

  it('lists every version in the root `list_tree`, the default marked, and only there', async () => {
    const source = versioned();
    const root = (await source.listTree()) as unknown as { versions: unknown[] };
    expect(
      root.versions.map((entry) => {
        const { publishedAt: _, ...rest } = entry as Record<string, unknown>;
        return rest;
      }),
    ).toEqual([
      { version: '3.x', default: true, activeContentRevision: 'rev-3' },
      { version: '2.x', default: false, activeContentRevision: 'rev-2' },
    ]);
    const fromOld = (await source.listTree({ version: '2.x' } as never)) as unknown as {
      versions: unknown[];
    };
    expect(fromOld.versions).toEqual(root.versions);
    const below = await source.listTree({ parentPath: 'pages' });
    expect(below).not.toHaveProperty('versions');
  });

  it('binds a cursor to its version: alone it continues that version, with another version it is INVALID_CURSOR', async () => {
    const source = versioned();
    const first = await source.listTree({ parentPath: 'pages', limit: 1, version: '2.x' } as never);
    expect(first.nextCursor).toMatch(/^2\.x~/);
    const second = await source.listTree({ cursor: first.nextCursor! });
    expect(second.activeContentRevision).toBe('rev-2');
    expect(second.items.map((item) => item.path)).toEqual(['pages/install.md']);
    const same = await source.listTree({ cursor: first.nextCursor!, version: '2.x' } as never);
    expect(same.items).toEqual(second.items);
    await expectKnowledgeError(
      source.listTree({ cursor: first.nextCursor!, version: '3.x' } as never),
      {
        code: 'INVALID_CURSOR',
        message: /the cursor continues version `2\.x`, not `3\.x`/,
      },
    );
    for (const forged of [first.nextCursor!.slice(4), `4.x~${first.nextCursor!.slice(4)}`])
      await expectKnowledgeError(source.listTree({ cursor: forged }), {
        code: 'INVALID_CURSOR',
        message: /not one this knowledge base issued/,
      });
  });

  it('names the version in read actions, so a URL reads the version that answered', async () => {
    const source = versioned();
    const old = await source.getFile({ fileId: 'config', version: '2.x' } as never, {
      actionBase: '/kb/docs',
    });
    for (const url of Object.values(old.readActions ?? {}))
      expect(url).toMatch(/[?&]version=2\.x$/);
  });

  it('keeps front matter as the author wrote it (a `version` key in it is not a version field)', async () => {
    const pages: ScenarioPage[] = [
      { id: 'a', path: 'pages/a.md', frontmatter: { version: '1.0' }, text: '# A\n\nAlpha.\n' },
    ];
    const source = createVersionedSource({ versions: { v9: scenarioSource(pages) } });
    const file = await source.getFile({ fileId: 'a' });
    expect(file.frontmatter).toEqual({ version: '1.0' });
  });

  it('refuses bad options with INVALID_INPUT naming the option and the fix', () => {
    const a = scenarioSource(V3);
    expectKnowledgeError(() => createVersionedSource({ versions: {} }), {
      code: 'INVALID_INPUT',
      path: ['versions'],
    });
    expectKnowledgeError(() => createVersionedSource({ versions: { 'v 1': a } }), {
      code: 'INVALID_INPUT',
      path: ['versions', 'v 1'],
    });
    expectKnowledgeError(() => createVersionedSource({ versions: { v1: {} as KnowledgeSource } }), {
      code: 'INVALID_INPUT',
      path: ['versions', 'v1'],
      message: expect.stringMatching(/has no `listTree` method/),
    });
    expectKnowledgeError(() => createVersionedSource({ versions: { v1: a }, default: 'v2' }), {
      code: 'INVALID_INPUT',
      path: ['default'],
      message: expect.stringMatching(
        /`default` is "v2", which is not one of the versions \(`v1`\)/,
      ),
    });
    expectKnowledgeError(() => createVersionedSource({ versions: { v1: a, v2: a } }), {
      code: 'INVALID_INPUT',
      path: ['default'],
      message: expect.stringMatching(/name the default version/),
    });
    const inner = createVersionedSource({ versions: { v1: a } });
    expectKnowledgeError(() => createVersionedSource({ versions: { v2: inner } }), {
      code: 'INVALID_INPUT',
      path: ['versions', 'v2'],
    });
  });

  it('property: whatever the versions, a call naming one is answered by that version only', async () => {
    const labels = fc.uniqueArray(
      fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/).filter((label) => label !== '.' && label !== '..'),
      {
        minLength: 1,
        maxLength: 4,
      },
    );
    await fc.assert(
      fc.asyncProperty(labels, fc.nat(), fc.string(), async (names, pick, other) => {
        const versions = Object.fromEntries(
          names.map((name, i) => [
            name,
            scenarioSource(
              [{ id: `p${i}`, path: `pages/p${i}.md`, text: `# Page ${i}\n\nOf version ${i}.\n` }],
              'kb',
              `rev-${i}`,
            ),
          ]),
        );
        const source = createVersionedSource({ versions, default: names[0] });
        const i = pick % names.length;
        expect(await pagePaths(source, names[i])).toEqual([`pages/p${i}.md`]);
        expect(await pagePaths(source)).toEqual(['pages/p0.md']);
        if (!names.includes(other))
          await expectKnowledgeError(source.listTree({ version: other } as never), {
            code:
              versionLabelProblem(other) === undefined ? 'VERSION_NOT_FOUND' : 'INVALID_ARGUMENT',
          });
      }),
      { seed: 20261207, numRuns: 60 },
    );
  });
});

describe('diffVersions', () => {
  it('lists exactly the pages and sections or headings planted as different', async () => {
    const diff = await diffVersions(versioned(), '2.x', '3.x');
    expect(diff).toEqual({
      from: '2.x',
      to: '3.x',
      added: ['pages/themes.md'],
      removed: ['pages/plugins.md'],
      changed: [
        {
          path: 'pages/config.md',
          frontmatterChanged: false,
          sections: { added: [], removed: [], changed: [] },
          headings: { added: [], removed: [], changed: ['options'] },
        },
      ],
      unchanged: 1,
    });
  });

  it('refuses a version the source lacks with VERSION_NOT_FOUND', async () => {
    await expectKnowledgeError(diffVersions(versioned(), '2.x', '5.x'), {
      code: 'VERSION_NOT_FOUND',
      message: /no version `5\.x`/,
    });
  });
});
