/**
 * The reader port (`StoreReader`) with `createStoredSource`: a store that implements only the two
 * required reads (`revision`, `pages`) over rows in memory answers every tool as `createCatalogSource`
 * over the same knowledge (the conformance suite); the optional reads are shortcuts, and a reader
 * without them reads every record per call. Also how the source treats what a reader answers: no
 * knowledge base is `NOT_FOUND` with the store's message, a store's failure is `INTERNAL`.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createStoredSource } from '../../src/agent/source/createStoredSource.js';
import type { StoredPage } from '../../src/agent/source/storedState.js';
import { GONE, type StoreCall, type StoreRead } from '../../src/agent/source/storeReader.js';
import { buildFileTable } from '../../src/agent/files/buildFileTable.js';
import { buildRelations } from '../../src/agent/relations/buildRelations.js';
import { computeSectionSizes } from '../../src/agent/source/sectionSizes.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { runKnowledgeSourceConformance } from '../contracts/knowledgeSource.contract.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { timeless } from '../helpers/versions.js';

const REVISION = 42;
const reference = (): KnowledgeSource =>
  createCatalogSource(exampleCatalog(), exampleSourceOptions());

/** Every page's row of the example knowledge, as a store would keep them. */
function exampleRows(): StoredPage[] {
  const catalog = exampleCatalog();
  const table = buildFileTable(catalog, exampleSourceOptions());
  const relations = buildRelations(catalog, table);
  return table.pages.map(({ kind: _kind, ...record }) => ({
    record,
    document: catalog.document(record.fileId),
    sectionSizes: computeSectionSizes(catalog, record.fileId),
    relations: relations.get(record.fileId) ?? [],
  }));
}

/** A store of `rows` with the two required reads only, counting the reads. */
function memoryCall(rows: readonly StoredPage[] | undefined, reads: string[]): StoreCall<number> {
  const read = (pages: readonly StoredPage[]): StoreRead<number> => ({
    pin: 1,
    revision: REVISION,
    pages,
  });
  return {
    revision: (want) => {
      reads.push(`revision${want.everything ? ' everything' : ''}`);
      return Promise.resolve(rows === undefined ? undefined : read(rows));
    },
    pages: (pin, fileIds) => {
      reads.push(`pages ${fileIds.length}`);
      if (rows === undefined) return Promise.resolve(undefined);
      if (pin !== null && pin !== 1) return Promise.resolve(GONE);
      return Promise.resolve(read(rows.filter((r) => fileIds.includes(r.record.fileId))));
    },
  };
}

runKnowledgeSourceConformance({
  name: 'createStoredSource over a reader with only revision and pages',
  newSource: () => {
    const call = memoryCall(exampleRows(), []);
    return createStoredSource(
      { open: () => Promise.resolve(call) },
      { id: 'example', notFound: 'not published' },
    );
  },
  reference,
  otherRevision: () =>
    createCatalogSource(exampleCatalog(), exampleSourceOptions({ revision: 41 })),
});

describe('createStoredSource', () => {
  it('reads through the optional reads a reader lacks with revision: one read per call, the whole revision for a search', async () => {
    const reads: string[] = [];
    const call = memoryCall(exampleRows(), reads);
    const source = createStoredSource(
      { open: () => Promise.resolve(call) },
      { id: 'example', notFound: 'not published' },
    );
    await source.getFile({ fileId: 'exploration' });
    expect(reads.splice(0)).toEqual(['revision']);
    await source.listTree({});
    expect(reads.splice(0)).toEqual(['revision']);
    await source.expandGraph({ fileId: 'exploration', depth: 1 });
    // A walk reads level by level: the seed, then the pages one level reaches.
    expect(reads.splice(0).map((r) => r.split(' ')[0])).toEqual(['pages', 'pages']);
    // No search index: the in-memory engine, built once per revision from every page.
    const args = { query: 'stale cursor' };
    expect(timeless(await source.searchFiles(args))).toEqual(
      timeless(await reference().searchFiles(args)),
    );
    await source.searchFiles(args);
    expect(reads.splice(0)).toEqual(['revision', 'revision everything', 'revision']);
  });

  it('answers NOT_FOUND with the store message when the knowledge base is not there', async () => {
    const call = memoryCall(undefined, []);
    const source = createStoredSource(
      { open: () => Promise.resolve(call) },
      { id: 'example', notFound: 'Publish "example" first.' },
    );
    await expectKnowledgeError(source.getFile({ fileId: 'exploration' }), {
      code: 'NOT_FOUND',
      message: /Publish "example" first\./,
    });
  });

  it('answers INTERNAL when the store fails to open', async () => {
    const source = createStoredSource(
      { open: () => Promise.reject(new Error('disk on fire')) },
      { id: 'example', notFound: 'not published' },
    );
    await expectKnowledgeError(source.listTree({}), { code: 'INTERNAL' });
  });
});
