/**
 * The `KnowledgeSource` conformance suite on `createStaticSource`: the example knowledge exported as a
 * bundle (`exportKnowledgeBundle` over `createCatalogSource`) answers what `createCatalogSource`
 * answers over the same catalog and files, read over a real static file server on loopback, from the
 * folder (`readBundleDirectory`, and a `file:` URL), and from memory.
 */
import { afterAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import type { CatalogSourceOptions, KnowledgeSource } from '../../src/agent/index.js';
import { exportKnowledgeBundle, readBundleDirectory } from '../../src/node/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { runKnowledgeSourceConformance } from '../contracts/knowledgeSource.contract.js';
import { serveStaticFolder, type StaticServer } from '../helpers/staticServer.js';

const example = (extra: CatalogSourceOptions = {}): KnowledgeSource =>
  createCatalogSource(exampleCatalog(), exampleSourceOptions(extra));
const otherRevision = (): KnowledgeSource => example({ revision: 41 });

/** The example bundle in a temporary folder, exported once for the file. */
let folder: Promise<string> | undefined;
const bundleFolder = (): Promise<string> =>
  (folder ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kk-static-'));
    await exportKnowledgeBundle(example(), { out: dir, id: 'example' });
    return dir;
  })());
afterAll(async () => {
  if (folder !== undefined) await rm(await folder, { recursive: true, force: true });
});

let server: StaticServer | undefined;
runKnowledgeSourceConformance({
  name: 'createStaticSource over a static file server (node:http on 127.0.0.1)',
  newSource: async () => {
    server = await serveStaticFolder(await bundleFolder());
    return createStaticSource({ baseUrl: server.url });
  },
  reference: () => example(),
  otherRevision,
  close: async () => server?.close(),
});

runKnowledgeSourceConformance({
  name: 'createStaticSource over the folder (readBundleDirectory of a file: URL)',
  newSource: async () =>
    createStaticSource({ read: readBundleDirectory(pathToFileURL(await bundleFolder())) }),
  reference: () => example(),
  otherRevision,
});

runKnowledgeSourceConformance({
  name: 'createStaticSource over a bundle in memory (buildKnowledgeBundle)',
  newSource: async () => {
    const { files } = await buildKnowledgeBundle(example(), { id: 'example' });
    return createStaticSource({ read: (path) => Promise.resolve(files.get(path) ?? null) });
  },
  reference: () => example(),
  otherRevision,
});
