/**
 * `createCatalogSource`'s `fileStatus` (issue 20 item 2): statuses in `list_tree` and `get_file`,
 * unavailable files refused by reads, the revision covering statuses, and every bad entry refused.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';

const catalog = defineKnowledgeCatalog([
  parseKnowledgeDocument({ id: 'guide', revision: 'r1', text: '# Guide\n\nHow to start.\n' }),
  parseKnowledgeDocument({ id: 'faq', revision: 'r1', text: '# FAQ\n\nQuestions.\n' }),
]);
const PROBLEM = 'broken.md:3:1: section `x` is opened here but never closed.';

describe('createCatalogSource with fileStatus', () => {
  it('reports previous_available and unavailable files, and refuses reads of the unavailable one', async () => {
    const plain = createCatalogSource(catalog);
    const source = createCatalogSource(catalog, {
      fileStatus: {
        previous: { guide: 'guide.md:2:1: a problem.' },
        unavailable: [{ fileId: 'broken', path: 'pages/broken.md', problem: PROBLEM }],
      },
    });
    const tree = await source.listTree({ parentPath: 'pages' });
    expect(
      tree.items.map((i) =>
        i.entryType === 'file'
          ? [i.fileId, i.contentAvailable, i.state, i.generatedOutputStatus]
          : [i.path],
      ),
    ).toEqual([
      ['broken', false, 'unavailable', 'unavailable'],
      ['faq', true, 'available', 'current_available'],
      ['guide', true, 'available', 'previous_available'],
    ]);
    expect((await source.listTree({})).items.find((i) => i.path === 'pages')).toMatchObject({
      fileCount: 3,
    });
    const plainRevision = (await plain.listTree({})).activeContentRevision;
    expect(tree.activeContentRevision).not.toBe(plainRevision);
    // Without fileStatus, or with an empty one, the revision is the one it always was.
    expect(
      (await createCatalogSource(catalog, { fileStatus: {} }).listTree({})).activeContentRevision,
    ).toBe(plainRevision);

    expect(await source.getFile({ fileId: 'broken' })).toMatchObject({
      fileId: 'broken',
      sourceFileId: null,
      path: 'pages/broken.md',
      title: 'broken.md',
      fileKind: 'page',
      description: `Not available: ${PROBLEM}`,
      contentAvailable: false,
      state: 'unavailable',
      generatedOutputStatus: 'unavailable',
      revision: tree.activeContentRevision,
      locale: null,
      sections: [],
    });
    await expectKnowledgeError(source.readFile({ fileId: 'broken' }), {
      code: 'NOT_FOUND',
      message: /`pages\/broken\.md` is listed but cannot be read.*broken\.md:3:1/,
    });
    await expectKnowledgeError(source.readRelated({ fileId: 'broken' }), { code: 'NOT_FOUND' });
    expect((await source.readFile({ fileId: 'guide' })).content).toContain('How to start.');
    const index = (await source.readFile({ path: 'index.md' })).content;
    expect(index).toContain('(an earlier version: the newest has problems)');
    expect(index).toContain(`## Not available`);
    expect(index).toContain(`- \`pages/broken.md\` — ${PROBLEM}`);
    expect((await plain.readFile({ path: 'index.md' })).content).not.toContain('Not available');
  });

  it('refuses a bad fileStatus with INVALID_INPUT naming the entry', () => {
    expectKnowledgeError(() => createCatalogSource(catalog, { fileStatus: 3 as never }), {
      code: 'INVALID_INPUT',
      path: ['fileStatus'],
    });
    expectKnowledgeError(
      () => createCatalogSource(catalog, { fileStatus: { previous: { nope: 'x' } } }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'previous', 'nope'], documentId: 'nope' },
    );
    expectKnowledgeError(
      () => createCatalogSource(catalog, { fileStatus: { previous: { guide: 1 as never } } }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'previous', 'guide'] },
    );
    expectKnowledgeError(
      () =>
        createCatalogSource(catalog, {
          fileStatus: { unavailable: [{ fileId: 'x', path: 'broken.md', problem: 'p' }] },
        }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'unavailable', 0] },
    );
    expectKnowledgeError(
      () =>
        createCatalogSource(catalog, {
          fileStatus: { unavailable: [{ fileId: 'guide', path: 'pages/other.md', problem: 'p' }] },
        }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'unavailable', 0] },
    );
    expectKnowledgeError(
      () =>
        createCatalogSource(catalog, {
          fileStatus: { unavailable: [{ fileId: 'b', path: 'pages/guide.md', problem: 'p' }] },
        }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'unavailable', 0] },
    );
    expectKnowledgeError(
      () =>
        createCatalogSource(catalog, {
          fileStatus: { unavailable: [{ fileId: 'index.md', path: 'pages/i.md', problem: 'p' }] },
        }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'unavailable', 0] },
    );
    expectKnowledgeError(
      () => createCatalogSource(catalog, { fileStatus: { other: 1 } as never }),
      { code: 'INVALID_INPUT', path: ['fileStatus', 'other'] },
    );
  });
});
