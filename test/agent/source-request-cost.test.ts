/**
 * Issue 21 item 2: the cost of one `read_file` request is bounded by the request, not by its unknown
 * section IDs times the document's sections. Counted in edit-distance comparisons (an instrumented
 * `leven`), not in wall time.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('leven', async (importOriginal) => {
  const real = (await importOriginal<typeof import('leven')>()).default;
  return {
    default: (...args: Parameters<typeof real>) => {
      calls.count++;
      return real(...args);
    },
  };
});

const { defineKnowledgeCatalog, parseKnowledgeDocument } = await import('../../src/index.js');
const { createCatalogSource } = await import('../../src/agent/source/createCatalogSource.js');
const { MAX_READ_SECTION_IDS } = await import('../../src/agent/tools/readFile/run.js');
const { MAX_SUGGESTED_SECTIONS } = await import('../../src/catalog/checkRequest.js');
const { expectKnowledgeError } = await import('../helpers/knowledgeError.js');

const SECTIONS = 2_000;
const text = Array.from(
  { length: SECTIONS },
  (_, i) => `<!-- agent-section:s${i} -->\nText ${i}.\n<!-- /agent-section:s${i} -->`,
).join('\n');
const catalog = defineKnowledgeCatalog([
  parseKnowledgeDocument({ id: 'big', revision: 'r1', text }),
]);
const source = createCatalogSource(catalog, { id: 'kb' });
// Unknown IDs as close to real ones as can be, so no length filter skips them.
const unknownIds = (n: number) => Array.from({ length: n }, (_, i) => `t${i % SECTIONS}x${i}`);

beforeEach(() => {
  calls.count = 0;
});

describe('read_file with many unknown section IDs', () => {
  it('compares against the sections for a few unknown IDs only, however many there are', () => {
    const counted = (n: number) => {
      calls.count = 0;
      expectKnowledgeError(
        () =>
          catalog.read({
            documentId: 'big',
            selection: { mode: 'self', sectionIds: unknownIds(n) },
          }),
        { code: 'UNKNOWN_SECTION' },
      );
      return calls.count;
    };
    const few = counted(54);
    const many = counted(540);
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(MAX_SUGGESTED_SECTIONS * SECTIONS);
  });

  it('still reports every unknown ID, with suggestions on the first ones', () => {
    try {
      catalog.read({
        documentId: 'big',
        selection: { mode: 'self', sectionIds: ['s1x', 's2x', 's3x', 's4x', 's5x'] },
      });
      expect.unreachable();
    } catch (error) {
      const issues = (error as { issues: { sectionId: string; suggestions?: string[] }[] }).issues;
      expect(issues.map((i) => i.sectionId)).toEqual(['s1x', 's2x', 's3x', 's4x', 's5x']);
      expect(issues[0]!.suggestions).toContain('s1');
      expect(issues[MAX_SUGGESTED_SECTIONS]!.suggestions).toBeUndefined();
    }
  });

  it('refuses more than the limit of sectionIds before looking any up', async () => {
    const ids = unknownIds(MAX_READ_SECTION_IDS + 1);
    const error = await expectKnowledgeError(source.readFile({ fileId: 'big', sectionIds: ids }), {
      code: 'INVALID_ARGUMENT',
      message: new RegExp(
        `${MAX_READ_SECTION_IDS + 1} IDs, over the limit of ${MAX_READ_SECTION_IDS}`,
      ),
    });
    expect(error.details).toEqual({
      actual: MAX_READ_SECTION_IDS + 1,
      limit: MAX_READ_SECTION_IDS,
    });
    expect(calls.count).toBe(0);
  });

  it('answers NOT_FOUND for up to the limit of unknown IDs at the cost of a few suggestions', async () => {
    await expectKnowledgeError(
      source.readFile({ fileId: 'big', sectionIds: unknownIds(MAX_READ_SECTION_IDS) }),
      { code: 'NOT_FOUND' },
    );
    expect(calls.count).toBeLessThanOrEqual(MAX_SUGGESTED_SECTIONS * SECTIONS);
  });
});
