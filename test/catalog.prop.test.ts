import stringify from 'fast-json-stable-stringify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  type KnowledgeDocument,
  parseKnowledgeDocument,
} from '../src/index.js';
import { allTexts, parsedDocument, referenceSections } from './helpers/arbitraries.js';
import { expectKnowledgeError } from './helpers/knowledgeError.js';
import { everyNode } from './helpers/trees.js';

const withSections = parsedDocument.filter((doc) =>
  doc.parts.some((part) => typeof part !== 'string'),
);

/** A document with at least one section, and a non-empty selection of distinct section IDs from it. */
const docAndSelection = withSections.chain((doc) => {
  const ids = [...referenceSections(doc).keys()];
  return fc.tuple(
    fc.constant(doc),
    fc.shuffledSubarray(ids, { minLength: 1 }),
    fc.constantFrom('self' as const, 'subtree' as const),
  );
});

const codePoints = (s: string): number => [...s].length;

describe('nesting', () => {
  it('section IDs come in pre-order, and self/subtree reads equal a naive walk of the tree', () => {
    fc.assert(
      fc.property(docAndSelection, ([doc, ids, mode]) => {
        const catalog = defineKnowledgeCatalog([doc]);
        const reference = referenceSections(doc);
        expect(catalog.sectionIds(doc.id)).toEqual([...reference.keys()]);
        const expected = ids
          .map((id) => reference.get(id)![mode].join('\n\n'))
          .filter((piece) => piece !== '')
          .join('\n\n')
          .trim();
        expect(
          catalog.read({ documentId: doc.id, selection: { mode, sectionIds: ids } }).content,
        ).toBe(expected);
        expect(catalog.read({ documentId: doc.id, selection: { mode: 'document' } }).content).toBe(
          allTexts(doc).join('\n\n').trim(),
        );
      }),
    );
  });

  it('text nesting survives format and parse: the same sections hold the same text', () => {
    fc.assert(
      fc.property(withSections, (doc) => {
        const reparsed = parseKnowledgeDocument({
          id: doc.id,
          revision: doc.revision,
          text: formatKnowledgeDocument(doc),
        });
        const before = referenceSections(doc);
        const after = referenceSections(reparsed);
        expect([...after.keys()]).toEqual([...before.keys()]);
        for (const [id, texts] of before) expect(after.get(id)).toEqual(texts);
      }),
    );
  });
});

describe('freezing', () => {
  it('everything handed out is frozen node by node; the input is neither frozen nor changed', () => {
    fc.assert(
      fc.property(docAndSelection, ([doc, ids, mode]) => {
        const input = structuredClone(doc);
        const catalog = defineKnowledgeCatalog([input]);
        const snapshot = catalog.read({ documentId: doc.id, selection: { mode, sectionIds: ids } });
        for (const node of [
          catalog,
          ...everyNode(catalog.ids),
          ...everyNode(catalog.document(doc.id)),
          ...everyNode(catalog.sectionIds(doc.id)),
          ...everyNode(snapshot),
        ]) {
          expect(Object.isFrozen(node)).toBe(true);
        }
        expect(input).toEqual(doc);
        for (const node of everyNode(input)) expect(Object.isFrozen(node)).toBe(false);
        const compiled = everyNode(catalog.document(doc.id));
        for (const node of everyNode(input)) expect(compiled).not.toContain(node);
      }),
    );
  });
});

describe('identity', () => {
  it('snapshot id is the stable serialization: same request same id, key order irrelevant, order and choice matter', () => {
    fc.assert(
      fc.property(docAndSelection, ([doc, ids, mode]) => {
        const catalog = defineKnowledgeCatalog([doc]);
        const a = catalog.read({ documentId: doc.id, selection: { mode, sectionIds: ids } });
        const b = defineKnowledgeCatalog([structuredClone(doc)]).read({
          selection: { sectionIds: [...ids], mode },
          documentId: doc.id,
        });
        expect(b.id).toBe(a.id);
        expect(a.id).toBe(
          stringify({
            documentId: doc.id,
            revision: doc.revision,
            locale: doc.locale,
            selection: { mode, sectionIds: ids },
          }),
        );
        expect(catalog.read({ documentId: doc.id, selection: { mode: 'document' } }).id).toBe(
          stringify({
            documentId: doc.id,
            revision: doc.revision,
            locale: doc.locale,
            selection: { mode: 'document' },
          }),
        );
        expect(JSON.parse(a.id)).toEqual(
          JSON.parse(
            JSON.stringify({
              documentId: doc.id,
              revision: doc.revision,
              locale: doc.locale,
              selection: a.selection,
            }),
          ),
        );
        if (ids.length > 1) {
          const reversed = catalog.read({
            documentId: doc.id,
            selection: { mode, sectionIds: [...ids].reverse() },
          });
          expect(reversed.id).not.toBe(a.id);
        }
        const other = mode === 'self' ? 'subtree' : 'self';
        expect(
          catalog.read({ documentId: doc.id, selection: { mode: other, sectionIds: ids } }).id,
        ).not.toBe(a.id);
      }),
    );
  });
});

describe('limits', () => {
  it('maxChars passes at the content size in code points and throws one below, never cutting', () => {
    fc.assert(
      fc.property(docAndSelection, fc.boolean(), ([doc, ids, mode], asDefault) => {
        const selection = { mode, sectionIds: ids };
        const content = defineKnowledgeCatalog([doc]).read({
          documentId: doc.id,
          selection,
        }).content;
        const size = codePoints(content);
        const at = (limit: number) =>
          asDefault
            ? defineKnowledgeCatalog([doc], { maxChars: limit }).read({
                documentId: doc.id,
                selection,
              })
            : defineKnowledgeCatalog([doc]).read({
                documentId: doc.id,
                selection,
                maxChars: limit,
              });
        expect(at(size).content).toBe(content);
        if (size > 0) {
          expectKnowledgeError(() => at(size - 1), {
            code: 'MAX_CHARS_EXCEEDED',
            actual: size,
            limit: size - 1,
            documentId: doc.id,
          });
        }
      }),
    );
  });

  it('a hand-built document with astral characters counts code points', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', minLength: 1 }), { minLength: 1, maxLength: 5 }),
        (texts) => {
          const doc: KnowledgeDocument = { id: 'd', revision: 'r', parts: texts };
          const content = texts.join('\n\n').trim();
          const catalog = defineKnowledgeCatalog([doc]);
          expect(
            catalog.read({
              documentId: 'd',
              selection: { mode: 'document' },
              maxChars: codePoints(content),
            }).content,
          ).toBe(content);
          if (content.length > 0) {
            expectKnowledgeError(
              () =>
                catalog.read({
                  documentId: 'd',
                  selection: { mode: 'document' },
                  maxChars: codePoints(content) - 1,
                }),
              {
                code: 'MAX_CHARS_EXCEEDED',
                actual: codePoints(content),
              },
            );
          }
        },
      ),
    );
  });
});
