import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, type KnowledgeDocument } from '../src/index.js';
import { seedDocument } from './fixtures/seed.js';
import { catchKnowledgeError, expectKnowledgeError } from './helpers/knowledgeError.js';
import { everyNode } from './helpers/trees.js';

const doc = (id: string, parts: unknown[], extra: object = {}) =>
  ({ id, revision: 'r1', parts, ...extra }) as KnowledgeDocument;

describe('defineKnowledgeCatalog', () => {
  it('lists document IDs in input order and section IDs in pre-order', () => {
    const catalog = defineKnowledgeCatalog([
      doc('b', [
        {
          id: 'x',
          parts: [{ id: 'x1', parts: [] }, 'text', { id: 'x2', parts: [{ id: 'x2a', parts: [] }] }],
        },
        { id: 'y', parts: [] },
      ]),
      doc('a', []),
    ]);
    expect(catalog.ids).toEqual(['b', 'a']);
    expect(catalog.sectionIds('b')).toEqual(['x', 'x1', 'x2', 'x2a', 'y']);
    expect(catalog.sectionIds('a')).toEqual([]);
  });

  it('returns the compiled document, equal to the input but a different, frozen object', () => {
    const catalog = defineKnowledgeCatalog([seedDocument]);
    const compiled = catalog.document('service-guide');
    expect(compiled).toEqual(seedDocument);
    expect(compiled).not.toBe(seedDocument);
    expect(Object.isFrozen(compiled)).toBe(true);
  });

  it('deep-freezes the catalog and everything it hands out, node by node', () => {
    const catalog = defineKnowledgeCatalog([seedDocument]);
    const snapshot = catalog.read({
      documentId: 'service-guide',
      selection: { mode: 'subtree', sectionIds: ['delivery'] },
    });
    const nodes = [
      catalog,
      ...everyNode(catalog.ids),
      ...everyNode(catalog.sectionIds('service-guide')),
      ...everyNode(catalog.document('service-guide')),
      ...everyNode(snapshot),
    ];
    expect(nodes.length).toBeGreaterThan(10);
    for (const node of nodes) expect(Object.isFrozen(node), JSON.stringify(node)).toBe(true);
  });

  it('neither freezes nor mutates the input, and later changes to it do not reach the catalog', () => {
    const input = structuredClone(seedDocument) as unknown as { parts: unknown[] };
    const before = structuredClone(input);
    const catalog = defineKnowledgeCatalog([input as unknown as KnowledgeDocument]);
    expect(input).toEqual(before);
    for (const node of everyNode(input)) expect(Object.isFrozen(node)).toBe(false);
    ((input.parts[1] as { parts: unknown[] }).parts as unknown[])[0] = 'changed';
    input.parts.push('added');
    const read = catalog.read({ documentId: 'service-guide', selection: { mode: 'document' } });
    expect(read.content).toBe('全局引言。\n\n本章节自身正文。\n\n时机说明。');
  });

  it('accepts frozen input and null-prototype objects', () => {
    const section = Object.assign(Object.create(null) as object, {
      id: 's',
      parts: Object.freeze(['t']),
    });
    const frozen = Object.freeze({ id: 'd', revision: 'r', parts: Object.freeze([section]) });
    const catalog = defineKnowledgeCatalog(Object.freeze([frozen]) as readonly KnowledgeDocument[]);
    expect(catalog.document('d')).toEqual({
      id: 'd',
      revision: 'r',
      parts: [{ id: 's', parts: ['t'] }],
    });
  });

  it('treats prototype names as ordinary document and section IDs', () => {
    const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];
    const catalog = defineKnowledgeCatalog(
      names.map((name) =>
        doc(
          name,
          names.map((id) => ({ id, parts: [`${name}/${id}`] })),
        ),
      ),
    );
    expect(catalog.ids).toEqual(names);
    for (const name of names) {
      expect(catalog.sectionIds(name)).toEqual(names);
      const read = catalog.read({
        documentId: name,
        selection: { mode: 'self', sectionIds: ['__proto__', 'constructor'] },
      });
      expect(read.content).toBe(`${name}/__proto__\n\n${name}/constructor`);
    }
    expectKnowledgeError(() => catalog.sectionIds('prototype'), {
      code: 'UNKNOWN_DOCUMENT',
      documentId: 'prototype',
    });
  });

  it('has nothing that registers, upserts, deletes, saves or watches', () => {
    const catalog = defineKnowledgeCatalog([]);
    expect(Object.keys(catalog).sort()).toEqual([
      'assertSelection',
      'document',
      'ids',
      'read',
      'sectionIds',
    ]);
  });

  describe('validation: every problem, each with its path', () => {
    it('reports all problems of all documents in one error', () => {
      const error = catchKnowledgeError(() =>
        defineKnowledgeCatalog([
          doc('a', [
            { id: 'x', parts: [] },
            { id: 'x', parts: [] },
          ]),
          { id: '', revision: '', parts: 'nope' } as never,
          doc('a', [42]),
        ]),
      );
      expect(error.issues.map((i) => [i.code, i.path])).toEqual([
        ['DUPLICATE_SECTION_ID', [0, 'parts', 1, 'id']],
        ['INVALID_INPUT', [1, 'id']],
        ['INVALID_INPUT', [1, 'revision']],
        ['INVALID_INPUT', [1, 'parts']],
        ['INVALID_INPUT', [2, 'parts', 0]],
        ['DUPLICATE_DOCUMENT_ID', [2, 'id']],
      ]);
    });

    it('DUPLICATE_DOCUMENT_ID at the second document', () => {
      const error = expectKnowledgeError(
        () => defineKnowledgeCatalog([doc('a', []), doc('b', []), doc('a', [])]),
        {
          code: 'DUPLICATE_DOCUMENT_ID',
          path: [2, 'id'],
          documentId: 'a',
        },
      );
      expect(error.message).toContain('already used by documents[0]');
    });

    it('DUPLICATE_SECTION_ID across the whole document, naming where the first is', () => {
      const error = expectKnowledgeError(
        () =>
          defineKnowledgeCatalog([
            doc('d', [
              { id: 'a', parts: [{ id: 'x', parts: [] }] },
              { id: 'b', parts: ['t', { id: 'x', parts: [] }] },
            ]),
          ]),
        {
          code: 'DUPLICATE_SECTION_ID',
          path: [0, 'parts', 1, 'parts', 1, 'id'],
          documentId: 'd',
          sectionId: 'x',
        },
      );
      expect(error.message).toContain('already used at documents[0].parts[0].parts[0]');
    });

    it('CYCLE when a section is its own ancestor: detected, no overflow, no hang', () => {
      const a: { id: string; parts: unknown[] } = { id: 'a', parts: [] };
      const b = { id: 'b', parts: [a] };
      a.parts.push(b);
      expectKnowledgeError(() => defineKnowledgeCatalog([doc('d', [a])]), {
        code: 'CYCLE',
        path: [0, 'parts', 0, 'parts', 0, 'parts', 0],
        documentId: 'd',
      });
      const self: { id: string; parts: unknown[] } = { id: 's', parts: [] };
      self.parts.push(self);
      expectKnowledgeError(() => defineKnowledgeCatalog([doc('d', [self])]), {
        code: 'CYCLE',
        path: [0, 'parts', 0, 'parts', 0],
      });
      const document = { id: 'd', revision: 'r', parts: [] as unknown[] };
      document.parts.push(document);
      expectKnowledgeError(() => defineKnowledgeCatalog([document as KnowledgeDocument]), {
        code: 'CYCLE',
        path: [0, 'parts', 0],
      });
    });

    it('CYCLE also for sections opened after the first duplicate or invalid ID, and with an invalid ID', () => {
      // Ancestors are tracked only from the first suspicious section on; sections opened later must
      // still be found. (A missed cycle here would not return at all.)
      const loop: { id: string; parts: unknown[] } = { id: 'loop', parts: [] };
      loop.parts.push({ id: 'inner', parts: [loop] });
      const error = catchKnowledgeError(() =>
        defineKnowledgeCatalog([
          doc('d', [{ id: 'a', parts: [] }, { id: 'a', parts: [] }, { id: '', parts: [] }, loop]),
        ]),
      );
      expect(error.issues.map((i) => [i.code, i.path])).toEqual([
        ['DUPLICATE_SECTION_ID', [0, 'parts', 1, 'id']],
        ['INVALID_INPUT', [0, 'parts', 2, 'id']],
        ['CYCLE', [0, 'parts', 3, 'parts', 0, 'parts', 0]],
      ]);
      const nameless: { id: number; parts: unknown[] } = { id: 7, parts: [] };
      nameless.parts.push({ id: 'child', parts: [nameless] });
      const cycle = catchKnowledgeError(() =>
        defineKnowledgeCatalog([doc('d', [nameless as never])]),
      );
      expect(cycle.issues.map((i) => [i.code, i.path])).toEqual([
        ['INVALID_INPUT', [0, 'parts', 0, 'id']],
        ['CYCLE', [0, 'parts', 0, 'parts', 0, 'parts', 0]],
      ]);
    });

    it('a section shared in two places (not a cycle) is a duplicate section ID', () => {
      const shared = { id: 's', parts: [] };
      expectKnowledgeError(() => defineKnowledgeCatalog([doc('d', [shared, shared])]), {
        code: 'DUPLICATE_SECTION_ID',
        path: [0, 'parts', 1, 'id'],
      });
    });

    const invalid: [string, unknown, (string | number)[]][] = [
      ['documents not an array', { length: 0 }, []],
      ['a document that is not an object', ['doc'], [0]],
      ['a class instance as a document', [new (class Doc {})()], [0]],
      [
        'an unknown document key',
        [{ id: 'd', revision: 'r', parts: [], title: 'x' }],
        [0, 'title'],
      ],
      ['a numeric revision', [{ id: 'd', revision: 1, parts: [] }], [0, 'revision']],
      ['an empty locale', [{ id: 'd', revision: 'r', locale: '', parts: [] }], [0, 'locale']],
      ['parts not an array', [{ id: 'd', revision: 'r', parts: {} }], [0, 'parts']],
      ['a number part', [{ id: 'd', revision: 'r', parts: [1] }], [0, 'parts', 0]],
      [
        'a boxed string part',
        [{ id: 'd', revision: 'r', parts: [new String('x')] }],
        [0, 'parts', 0],
      ],
      ['a hole in parts', [{ id: 'd', revision: 'r', parts: ['a', , 'b'] }], [0, 'parts', 1]],
      ['an array part', [{ id: 'd', revision: 'r', parts: [['x']] }], [0, 'parts', 0]],
      [
        'an unknown section key',
        [{ id: 'd', revision: 'r', parts: [{ id: 's', parts: [], title: 't' }] }],
        [0, 'parts', 0, 'title'],
      ],
      [
        'a symbol section key',
        [{ id: 'd', revision: 'r', parts: [{ id: 's', parts: [], [Symbol('k')]: 1 }] }],
        [0, 'parts', 0, 'Symbol(k)'],
      ],
      [
        'an empty section ID',
        [{ id: 'd', revision: 'r', parts: [{ id: '', parts: [] }] }],
        [0, 'parts', 0, 'id'],
      ],
      [
        'section parts missing',
        [{ id: 'd', revision: 'r', parts: [{ id: 's' }] }],
        [0, 'parts', 0, 'parts'],
      ],
      ['a hole in documents', [, { id: 'd', revision: 'r', parts: [] }], [0]],
    ];
    for (const [name, documents, path] of invalid) {
      it(`INVALID_INPUT: ${name}`, () => {
        expectKnowledgeError(() => defineKnowledgeCatalog(documents as never), {
          code: 'INVALID_INPUT',
          path,
        });
      });
    }

    it('INVALID_INPUT for bad options, under the path `options`', () => {
      expectKnowledgeError(() => defineKnowledgeCatalog([], { maxChars: -1 }), {
        code: 'INVALID_INPUT',
        path: ['options', 'maxChars'],
      });
      expectKnowledgeError(() => defineKnowledgeCatalog([], { maxChars: 1.5 }), {
        code: 'INVALID_INPUT',
        path: ['options', 'maxChars'],
      });
      expectKnowledgeError(() => defineKnowledgeCatalog([], { maxChar: 10 } as never), {
        code: 'INVALID_INPUT',
        path: ['options', 'maxChar'],
      });
      expectKnowledgeError(() => defineKnowledgeCatalog([], 5 as never), {
        code: 'INVALID_INPUT',
        path: ['options'],
      });
    });

    it('turns an input getter that throws into INVALID_INPUT with the cause kept', () => {
      const cause = new Error('boom');
      const bad = {
        id: 'd',
        revision: 'r',
        get parts(): never {
          throw cause;
        },
      };
      const error = expectKnowledgeError(() => defineKnowledgeCatalog([bad as never]), {
        code: 'INVALID_INPUT',
      });
      expect(error.cause).toBe(cause);
    });
  });

  describe('lookups', () => {
    const catalog = defineKnowledgeCatalog([seedDocument]);
    it('UNKNOWN_DOCUMENT with close matches as suggestions', () => {
      const error = expectKnowledgeError(() => catalog.document('service-guid'), {
        code: 'UNKNOWN_DOCUMENT',
        path: [],
        documentId: 'service-guid',
        suggestions: ['service-guide'],
      });
      expect(error.message).toContain('Did you mean `service-guide`?');
    });
    it('INVALID_INPUT for a non-string document ID', () => {
      expectKnowledgeError(() => catalog.sectionIds(7 as never), {
        code: 'INVALID_INPUT',
        path: [],
      });
    });
  });
});

describe('hostile arguments (issue 21 item 8)', () => {
  const catalog = defineKnowledgeCatalog([seedDocument]);
  const throwing = new Proxy(
    {},
    {
      get: () => {
        throw new Error('trap');
      },
      getPrototypeOf: () => {
        throw new Error('trap');
      },
    },
  );

  it('catalog.sectionIds and catalog.document with a Proxy whose traps throw: INVALID_INPUT, the trap as cause', () => {
    for (const call of [
      () => catalog.sectionIds(throwing as never),
      () => catalog.document(throwing as never),
    ]) {
      const error = catchKnowledgeError(call);
      expect(error.code).toBe('INVALID_INPUT');
      expect((error.cause as Error).message).toBe('trap');
    }
  });

  it('a sparse array of length 2³²−1 is refused at once, its first holes named', () => {
    const started = performance.now();
    const error = catchKnowledgeError(() => defineKnowledgeCatalog(new Array(2 ** 32 - 1)));
    // Four billion reports would never end; 10 million took 36 s.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.issues.map((issue) => issue.code)).toEqual(Array(21).fill('INVALID_INPUT'));
    expect(error.issues.slice(0, 20).map((issue) => issue.path)).toEqual(
      Array.from({ length: 20 }, (_, i) => [i]),
    );
    expect(error.issues[20]!.message).toContain('sparse array (length 4294967295)');
  });

  it('a few holes are still each reported', () => {
    const documents = new Array(5);
    documents[4] = seedDocument;
    const error = catchKnowledgeError(() => defineKnowledgeCatalog(documents));
    expect(error.issues.map((issue) => issue.path)).toEqual([[0], [1], [2], [3]]);
  });
});
