/**
 * `exportKnowledgeVersions`: a source with versions written as one bundle per version and
 * `versions.json`, read back by `createStaticSource` over a loopback file server; an earlier export
 * updated (a version gone is removed); and the refusals, each at its option, writing nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource, createVersionedSource } from '../../src/agent/index.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import { exportKnowledgeBundle, exportKnowledgeVersions } from '../../src/node/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { serveStaticFolder } from '../helpers/staticServer.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const temp = useTempFolders({ removeAfter: 'all', prefix: 'kk-export-versions-' });

/** A source of one page, `refunds`, whose text names `days`. */
const version = (label: string, days: number) =>
  createCatalogSource(
    defineKnowledgeCatalog([
      parseKnowledgeDocument({
        id: 'refunds',
        revision: `${label}-${days}`,
        text: `# Refunds\n\nThe refund window is ${days} days.\n`,
      }),
    ]),
    { id: 'shop', version: label },
  );

describe('exportKnowledgeVersions', () => {
  it('writes each version as its bundle and versions.json; the static source serves each one', async () => {
    const out = join(await temp(), 'kb');
    const source = createVersionedSource({
      versions: { '2.x': version('2.x', 14), '3.x': version('3.x', 30) },
      default: '3.x',
    });
    const result = await exportKnowledgeVersions(source, { out, id: 'shop' });
    expect(result.versions.map((v) => v.version)).toEqual(['2.x', '3.x']);
    expect([result.defaultVersion, result.removed]).toEqual(['3.x', []]);
    expect((await readdir(out)).sort()).toEqual(['versions', 'versions.json']);
    const file = JSON.parse(await readFile(join(out, 'versions.json'), 'utf8'));
    expect(file.default).toBe('3.x');
    expect(
      file.versions.map((v: { activeContentRevision: unknown }) => v.activeContentRevision),
    ).toEqual(result.versions.map((v) => v.bundle.manifest.activeContentRevision));
    const server = await serveStaticFolder(out);
    try {
      const served = createStaticSource({ baseUrl: server.url });
      const read = async (label?: string) =>
        (await served.readFile({ fileId: 'refunds', ...(label ? { version: label } : {}) }))
          .content;
      expect(await read('2.x')).toContain('14 days');
      expect(await read('3.x')).toContain('30 days');
      expect(await read()).toContain('30 days');
    } finally {
      await server.close();
    }

    // Again with one version: it is updated, and the other is removed after versions.json.
    const again = await exportKnowledgeVersions(
      createVersionedSource({ versions: { '3.x': version('3.x', 30) } }),
      { out, id: 'shop' },
    );
    expect(again.removed).toEqual(['2.x']);
    expect(again.versions[0]!.bundle.written).toEqual([]);
    expect(await readdir(join(out, 'versions'))).toEqual(['3.x']);
  });

  it("links each version's llms.txt under versions/<label>/ of baseUrl, absolute or relative", async () => {
    const source = createVersionedSource({ versions: { '2.x': version('2.x', 14) } });
    for (const [baseUrl, link] of [
      ['https://example.com/kb', 'https://example.com/kb/versions/2.x/pages/refunds.md'],
      ['/kb/', '/kb/versions/2.x/pages/refunds.md'],
    ] as const) {
      const out = join(await temp(), 'kb');
      await exportKnowledgeVersions(source, { out, baseUrl });
      expect(await readFile(join(out, 'versions', '2.x', 'llms.txt'), 'utf8')).toContain(
        `](${link})`,
      );
    }
  });

  it('refuses a source without versions, and an out holding a plain bundle or other files, writing nothing', async () => {
    const plain = join(await temp(), 'plain');
    await exportKnowledgeBundle(version('current', 7), { out: plain });
    const before = (await readdir(plain)).sort();
    const notVersioned = await expectKnowledgeError(
      exportKnowledgeVersions(version('current', 7) as never, { out: plain }),
      { code: 'INVALID_INPUT', path: ['source'] },
    );
    expect(notVersioned.message).toMatch(/exportKnowledgeBundle/);
    const versioned = createVersionedSource({ versions: { a: version('a', 1) } });
    const bundleThere = await expectKnowledgeError(
      exportKnowledgeVersions(versioned, { out: plain }),
      { code: 'INVALID_INPUT', path: ['options', 'out'] },
    );
    expect(bundleThere.message).toMatch(/holds a bundle without versions \(manifest\.json\)/);
    expect((await readdir(plain)).sort()).toEqual(before);
    const other = await temp({ 'notes.txt': 'mine\n' });
    const filesThere = await expectKnowledgeError(
      exportKnowledgeVersions(versioned, { out: other }),
      { code: 'INVALID_INPUT', path: ['options', 'out'] },
    );
    expect(filesThere.message).toMatch(/holds files but no export \(no versions\.json\)/);
    expect(await readdir(other)).toEqual(['notes.txt']);
  });
});
