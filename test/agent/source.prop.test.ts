/**
 * Invariants of a catalog source over generated knowledge bases: paging visits every item exactly
 * once, cursors are refused after a change and with other parameters, `read_file` is `catalog.read`,
 * every output validates against its tool's outputSchema.
 */
import { strictAjv } from '../helpers/tools-ajv.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKnowledgeToolError } from '../../src/agent/errors/index.js';
import { defineKnowledgeCatalog, type KnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { KNOWLEDGE_TOOL_SCHEMAS } from '../../src/agent/tools/index.js';
import type { KnowledgeSource, ListTreeOutput } from '../../src/agent/index.js';
import { knowledgeBase, query } from '../helpers/sourceArbitraries.js';

const ajv = strictAjv();
const validators = Object.fromEntries(
  Object.entries(KNOWLEDGE_TOOL_SCHEMAS).map(([name, schemas]) => [
    name,
    ajv.compile(schemas.output as object),
  ]),
);
function valid(tool: string, output: unknown): void {
  const validate = validators[tool]!;
  expect(validate(output), `${tool}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

/** Every directory reachable from the root. */
async function directories(source: KnowledgeSource): Promise<string[]> {
  const out: string[] = [''];
  for (let i = 0; i < out.length; i++) {
    const listing = await source.listTree({ parentPath: out[i]!, limit: 200 });
    for (const item of listing.items) if (item.entryType === 'directory') out.push(item.path);
  }
  return out;
}

/** All items of a listing, page by page. */
async function pageThrough<T>(
  first: { items: readonly T[]; nextCursor: string | null },
  next: (cursor: string) => Promise<{ items: readonly T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items = [...first.items];
  let cursor = first.nextCursor;
  for (let guard = 0; cursor !== null; guard++) {
    expect(guard).toBeLessThan(1000);
    const page = await next(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  }
  return items;
}

const key = (item: object): string => JSON.stringify(item);

/** Hand-built documents whose strings may be empty, whitespace-only or padded, nested to depth 4. */
const handBuilt = fc
  .letrec((tie) => ({
    part: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '',
          ' ',
          '  \n ',
          'a',
          ' b ',
          '\u3000c\u3000',
          '😀 d',
          'e\n\nf',
          '\u00a0',
        ),
      },
      { weight: 1, arbitrary: tie('section') },
    ),
    section: fc.record({ parts: fc.array(tie('part'), { maxLength: 4 }) }),
  }))
  .section.map((root) => {
    let n = 0;
    const name = (node: unknown): unknown =>
      typeof node === 'string'
        ? node
        : { id: `s${n++}`, parts: (node as { parts: unknown[] }).parts.map(name) };
    return {
      id: 'doc',
      revision: 'r',
      parts: (root as { parts: unknown[] }).parts.map(name),
    } as KnowledgeDocument;
  });

describe('catalog source invariants', () => {
  it("get_file sizes equal the code points of the catalog's own self and subtree reads", async () => {
    await fc.assert(
      fc.asyncProperty(handBuilt, async (doc) => {
        const catalog = defineKnowledgeCatalog([doc]);
        const info = await createCatalogSource(catalog).getFile({ fileId: 'doc' });
        expect(info.sections.map((s) => s.id)).toEqual([...catalog.sectionIds('doc')]);
        for (const s of info.sections) {
          const read = (mode: 'self' | 'subtree') =>
            [
              ...catalog.read({ documentId: 'doc', selection: { mode, sectionIds: [s.id] } })
                .content,
            ].length;
          expect([s.selfChars, s.subtreeChars]).toEqual([read('self'), read('subtree')]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('paging through list_tree, read_related, expand_graph and search_files visits every item exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        knowledgeBase,
        fc.integer({ min: 1, max: 4 }),
        query,
        async ({ catalog, options, ids }, limit, q) => {
          const source = createCatalogSource(catalog, options);
          for (const parentPath of await directories(source)) {
            const whole = await source.listTree({ parentPath, limit: 200 });
            valid('list_tree', whole);
            const paged = await pageThrough(
              await source.listTree({ parentPath, limit }),
              (cursor) => source.listTree({ parentPath, limit, cursor }),
            );
            expect(paged.map(key)).toEqual(whole.items.map(key));
          }
          for (const fileId of ids) {
            const whole = await source.readRelated({ fileId, limit: 50 });
            valid('read_related', whole);
            const paged = await pageThrough(await source.readRelated({ fileId, limit }), (cursor) =>
              source.readRelated({ fileId, limit, cursor }),
            );
            expect(paged.map(key)).toEqual(whole.items.map(key));
            const graph = await source.expandGraph({ fileId, depth: 3, fanout: 50 });
            valid('expand_graph', graph);
            const seen = graph.relationships.map((r) => r.fileId);
            expect(new Set(seen).size).toBe(seen.length);
            expect(seen).not.toContain(fileId);
          }
          const all = await source.searchFiles({ query: q, limit: 50 });
          valid('search_files', all);
          const paged = await pageThrough(await source.searchFiles({ query: q, limit }), (cursor) =>
            source.searchFiles({ query: q, limit, cursor }),
          );
          expect(paged.map((i) => i.fileId)).toEqual(all.items.map((i) => i.fileId));
          expect(new Set(paged.map((i) => i.fileId)).size).toBe(paged.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a cursor is STALE_CURSOR after the catalog changes and INVALID_CURSOR with other parameters', async () => {
    await fc.assert(
      fc.asyncProperty(knowledgeBase, async ({ catalog, options }) => {
        const source = createCatalogSource(catalog, options);
        const first: ListTreeOutput = await source.listTree({ parentPath: '', limit: 1 });
        const cursor = first.nextCursor!;
        expect(cursor).toEqual(expect.any(String));
        const changed = createCatalogSource(catalog, { ...options, revision: 'changed' });
        const codes = await Promise.all([
          changed
            .listTree({ parentPath: '', limit: 1, cursor })
            .catch((e: unknown) => (isKnowledgeToolError(e) ? e.code : e)),
          source
            .listTree({ parentPath: '', limit: 2, cursor })
            .catch((e: unknown) => (isKnowledgeToolError(e) ? e.code : e)),
          source
            .listTree({ parentPath: '', limit: 1, cursor }, { knowledgeBaseId: 'other' })
            .catch((e: unknown) => (isKnowledgeToolError(e) ? e.code : e)),
        ]);
        expect(codes).toEqual(['STALE_CURSOR', 'INVALID_CURSOR', 'INVALID_CURSOR']);
      }),
    );
  });

  it('the default revision is equal for equal inputs and changes with any document revision', async () => {
    await fc.assert(
      fc.asyncProperty(knowledgeBase, fc.nat(), async ({ catalog, options, ids }, pick) => {
        const files = options.files;
        const revisionOf = async (c: typeof catalog) =>
          (await createCatalogSource(c, { files }).listTree()).activeContentRevision;
        const same = defineKnowledgeCatalog(ids.map((id) => catalog.document(id)));
        expect(await revisionOf(same)).toBe(await revisionOf(catalog));
        const target = ids[pick % ids.length]!;
        const bumped = defineKnowledgeCatalog(
          ids.map((id) =>
            id === target ? { ...catalog.document(id), revision: 'bumped' } : catalog.document(id),
          ),
        );
        expect(await revisionOf(bumped)).not.toBe(await revisionOf(catalog));
      }),
      { numRuns: 40 },
    );
  });

  it('read_file content equals catalog.read of the same selection, and validates', async () => {
    await fc.assert(
      fc.asyncProperty(
        knowledgeBase,
        fc.constantFrom('self', 'subtree'),
        async ({ catalog, options, ids }, mode) => {
          const source = createCatalogSource(catalog, options);
          for (const fileId of ids) {
            const whole = await source.readFile({ fileId });
            valid('read_file', whole);
            const snapshot = catalog.read({ documentId: fileId, selection: { mode: 'document' } });
            expect(whole.content).toBe(snapshot.content);
            expect(whole.file.snapshotId).toBe(snapshot.id);
            const sectionIds = catalog.sectionIds(fileId);
            if (sectionIds.length === 0) continue;
            const part = await source.readFile({ fileId, sectionIds: [...sectionIds], mode });
            expect(part.content).toBe(
              catalog.read({ documentId: fileId, selection: { mode, sectionIds } }).content,
            );
            // Each section in both modes on the same source: the reads it keeps are told apart by
            // file, mode and sections, never answered for another selection.
            for (const id of sectionIds)
              for (const m of ['self', 'subtree'] as const) {
                const one = await source.readFile({ fileId, sectionIds: [id], mode: m });
                const want = catalog.read({
                  documentId: fileId,
                  selection: { mode: m, sectionIds: [id] },
                });
                expect(one.content).toBe(want.content);
                expect(one.file.snapshotId).toBe(want.id);
              }
            const info = await source.getFile({ fileId });
            valid('get_file', info);
            for (const s of info.sections) {
              const self = catalog.read({
                documentId: fileId,
                selection: { mode: 'self', sectionIds: [s.id] },
              }).content;
              expect(s.selfChars).toBe([...self].length);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
