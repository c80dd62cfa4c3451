/**
 * A static export with versions (`knowledge-kit export --version …`), served by a plain static file
 * server on loopback and read with `createStaticSource({ baseUrl })`: each version answers from its
 * own pages, versions are listed and refused as a versioned source does, cursors stay in their
 * version, `diffVersions` names the planted changes; and a plain bundle is read exactly as before.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import { diffVersions } from '../../src/agent/versions/diffVersions.js';
import { readBundleDirectory } from '../../src/node/index.js';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { serveStaticFolder, type StaticServer } from '../helpers/staticServer.js';
import { useTempFolders, type Tree } from '../helpers/tempFolders.js';
import { timeless } from '../helpers/versions.js';

const temp = useTempFolders({ removeAfter: 'all', prefix: 'kk-static-versions-' });

const GUIDE = `# Guide

Intro text.

<!-- agent-section:install -->
## Install

Run the installer.

<!-- agent-section:install.windows -->
### Windows

Use the MSI package from the download page.
<!-- /agent-section:install.windows -->
<!-- /agent-section:install -->

## Usage

Call it.
`;

/** The older version. */
const OLDER: Tree = {
  'guide.md': GUIDE,
  'faq.md': '---\ntitle: FAQ\n---\n# FAQ\n\n## Why\n\nBecause.\n',
  'old.md': '# Old\n\nGone in the next version.\n',
  'same/page.md': '# Same\n\nUnchanged.\n',
};

/** The newer version, one change of each kind planted. */
const NEWER: Tree = {
  'guide.md': GUIDE.replace(
    'Use the MSI package from the download page.',
    'Use the winget package from the store.',
  ).replace('## Usage', '## Upgrade\n\nRun it again.\n\n## Usage'),
  'faq.md': '---\ntitle: Questions\n---\n# FAQ\n\n## Why\n\nBecause.\n',
  'new.md': '# New\n\nAdded.\n',
  'same/page.md': '# Same\n\nUnchanged.\n',
};

let out: string;
let older: string;
let newer: string;
let server: StaticServer;
let source: KnowledgeSource;

beforeAll(async () => {
  older = await temp(OLDER);
  newer = await temp(NEWER);
  out = join(await temp(), 'kb');
  const run = await cliInProcess([
    'export',
    '--version',
    `2.x=${older}`,
    '--version',
    `3.x=${newer}`,
    '--default-version',
    '3.x',
    '--id',
    'docs',
    '--out',
    out,
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  server = await serveStaticFolder(out);
  source = createStaticSource({ baseUrl: server.url });
});
afterAll(async () => server?.close());

/** A version-taking call (the `version` argument, whatever the tool's declared input). */
const v = <T>(input: T, version: string): T => ({ ...input, version }) as T;

describe('createStaticSource over an export with versions', () => {
  it('writes versions.json naming each version, its revision and the default', async () => {
    const file = JSON.parse(await readFile(join(out, 'versions.json'), 'utf8'));
    expect(file.format).toBe('knowledge-kit-versions');
    expect(file.version).toBe(1);
    expect(file.default).toBe('3.x');
    expect(file.versions.map((entry: { version: string }) => entry.version)).toEqual([
      '2.x',
      '3.x',
    ]);
    for (const entry of file.versions) {
      const manifest = JSON.parse(
        await readFile(join(out, 'versions', entry.version, 'manifest.json'), 'utf8'),
      );
      expect(entry.activeContentRevision).toEqual(manifest.activeContentRevision);
    }
    expect((await readdir(out)).sort()).toEqual(['versions', 'versions.json']);
  });

  it("writes each version's bundle exactly as a plain export of its folder", async () => {
    const plain = join(await temp(), 'plain');
    const run = await cliInProcess(['export', older, '--id', 'docs', '--out', plain]);
    expect(run.code).toBe(0);
    const files = async (dir: string): Promise<Map<string, string>> => {
      const found = new Map<string, string>();
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) {
          const path = join(entry.parentPath, entry.name);
          const text = await readFile(path, 'utf8');
          // Each export records when its folder was loaded; every other byte is the same.
          found.set(
            path.slice(dir.length + 1),
            entry.name === 'manifest.json' && path === join(dir, 'manifest.json')
              ? JSON.stringify(timeless(JSON.parse(text)))
              : text,
          );
        }
      return found;
    };
    expect(await files(join(out, 'versions', '2.x'))).toEqual(await files(plain));
  });

  it("answers the same question from each version's own pages", async () => {
    const question = { query: 'Which package installs it on Windows?' };
    const [two, three, fallback] = await Promise.all([
      source.searchFiles(v(question, '2.x')),
      source.searchFiles(v(question, '3.x')),
      source.searchFiles(question),
    ]);
    expect(JSON.stringify(two)).toContain('MSI');
    expect(JSON.stringify(two)).not.toContain('winget');
    expect(JSON.stringify(three)).toContain('winget');
    expect(JSON.stringify(three)).not.toContain('MSI');
    expect(fallback.items).toEqual(three.items);
    const read = (version: string) =>
      source.readFile(v({ path: 'pages/guide.md', sectionIds: ['install.windows'] }, version));
    expect(JSON.stringify(await read('2.x'))).toContain('Use the MSI package');
    expect(JSON.stringify(await read('3.x'))).toContain('Use the winget package');
    await expectKnowledgeError(source.getFile(v({ fileId: 'new' }, '2.x')), {
      code: 'NOT_FOUND',
    });
    expect((await source.getFile(v({ fileId: 'new' }, '3.x'))).path).toBe('pages/new.md');
  });

  it('lists the versions in the root listing, the default marked, each with its revision', async () => {
    const root = (await source.listTree({})) as unknown as {
      versions: { version: string; default: boolean; activeContentRevision: unknown }[];
    };
    const file = JSON.parse(await readFile(join(out, 'versions.json'), 'utf8'));
    expect(root.versions.map((x) => [x.version, x.default, x.activeContentRevision])).toEqual(
      file.versions.map((x: { version: string; activeContentRevision: unknown }) => [
        x.version,
        x.version === '3.x',
        x.activeContentRevision,
      ]),
    );
  });

  it('refuses a version the export lacks with VERSION_NOT_FOUND listing the versions', async () => {
    const error = await expectKnowledgeError(
      source.searchFiles(v({ query: 'install' }, '4.x'), { requestId: 'req-static-v' }),
      {
        code: 'VERSION_NOT_FOUND',
        httpStatus: 404,
        requestId: 'req-static-v',
        message: /no version `4\.x`\. Its versions: `2\.x`, `3\.x` \(default\)\./,
      },
    );
    expect((error as { details?: unknown }).details).toEqual({
      version: '4.x',
      versions: ['2.x', '3.x'],
    });
  });

  it("refuses one version's cursor with another version; alone it continues its own", async () => {
    const first = await source.listTree(v({ parentPath: 'pages', limit: 1 }, '2.x'));
    expect(first.nextCursor).toMatch(/^2\.x~/);
    await expectKnowledgeError(source.listTree(v({ cursor: first.nextCursor! }, '3.x')), {
      code: 'INVALID_CURSOR',
      message: /the cursor continues version `2\.x`, not `3\.x`/,
    });
    const next = await source.listTree({ cursor: first.nextCursor! });
    const older2 = await source.listTree(v({ parentPath: 'pages', limit: 2 }, '2.x'));
    expect(next.items).toEqual(older2.items.slice(1));
  });

  it('diffVersions over the static source lists exactly the planted changes', async () => {
    expect(await diffVersions(source, '2.x', '3.x')).toEqual({
      from: '2.x',
      to: '3.x',
      added: ['pages/new.md'],
      removed: ['pages/old.md'],
      changed: [
        {
          path: 'pages/faq.md',
          frontmatterChanged: true,
          sections: { added: [], removed: [], changed: [] },
          headings: { added: [], removed: [], changed: [] },
        },
        {
          path: 'pages/guide.md',
          frontmatterChanged: false,
          sections: { added: [], removed: [], changed: ['install.windows'] },
          headings: { added: ['upgrade'], removed: [], changed: ['windows'] },
        },
      ],
      unchanged: 1,
    });
  });

  it('reads the same export from a folder (`read`) as over HTTP', async () => {
    const local = createStaticSource({ read: readBundleDirectory(out) });
    const input = v({ path: 'pages/guide.md' }, '2.x');
    expect(await local.readFile(input)).toEqual(await source.readFile(input));
  });

  it('reads versions.json on every call: a new export is seen on the next call', async () => {
    const dir = join(await temp(), 'kb');
    const args = ['export', '--id', 'docs', '--out', dir, '--version', `2.x=${older}`];
    expect((await cliInProcess(args)).code).toBe(0);
    const local = createStaticSource({ read: readBundleDirectory(dir) });
    const before = (await local.listTree({})) as unknown as { versions: { version: string }[] };
    expect(before.versions.map((x) => x.version)).toEqual(['2.x']);
    expect((await cliInProcess([...args, '--version', `3.x=${newer}`])).code).toBe(0);
    const after = (await local.listTree({})) as unknown as { versions: { version: string }[] };
    expect(after.versions.map((x) => x.version)).toEqual(['2.x', '3.x']);
    expect((await local.getFile(v({ fileId: 'new' }, '3.x'))).path).toBe('pages/new.md');
  });

  it('refuses a versions.json that is not one (INTERNAL naming the file)', async () => {
    const dir = await temp({
      'versions.json': '{"format":"knowledge-kit-versions","version":1}\n',
    });
    const broken = createStaticSource({ read: readBundleDirectory(dir) });
    await expectKnowledgeError(broken.listTree({}, { requestId: 'req-broken' }), {
      code: 'INTERNAL',
      requestId: 'req-broken',
      message: /`versions\.json` of the bundle lists no versions/,
    });
    await writeFile(
      join(dir, 'versions.json'),
      '{"default":"..","format":"knowledge-kit-versions","version":1,"versions":[{"version":".."}]}\n',
    );
    await expectKnowledgeError(broken.listTree({}), {
      code: 'INTERNAL',
      message: /names the version "\.\.": a version label is not `\.` or `\.\.`/,
    });
  });

  it('reads a plain bundle exactly as before: never asks for versions.json', async () => {
    const plain = join(await temp(), 'plain');
    expect((await cliInProcess(['export', older, '--out', plain])).code).toBe(0);
    const plainServer = await serveStaticFolder(plain);
    try {
      const plainSource = createStaticSource({ baseUrl: plainServer.url });
      await plainSource.listTree({});
      await plainSource.searchFiles({ query: 'installer' });
      await plainSource.readFile({ path: 'pages/guide.md' });
      expect(plainServer.stats.paths.some((path) => path.endsWith('versions.json'))).toBe(false);
    } finally {
      await plainServer.close();
    }
  });
});
