import stringify from 'fast-json-stable-stringify';
import { describe, expect, it } from 'vitest';
import {
  defineKnowledgeCatalog,
  type KnowledgeDocument,
  type KnowledgeReadRequest,
} from '../src/index.js';
import { seedDocument } from './fixtures/seed.js';
import { catchKnowledgeError, expectKnowledgeError } from './helpers/knowledgeError.js';

const seed = defineKnowledgeCatalog([seedDocument]);
const read = (selection: KnowledgeReadRequest['selection'], maxChars?: number) =>
  seed.read({
    documentId: 'service-guide',
    selection,
    ...(maxChars === undefined ? {} : { maxChars }),
  });

describe('catalog.read', () => {
  it("reads the seed's JSON example in all three modes", () => {
    expect(read({ mode: 'document' }).content).toBe('全局引言。\n\n本章节自身正文。\n\n时机说明。');
    expect(read({ mode: 'self', sectionIds: ['delivery'] }).content).toBe('本章节自身正文。');
    expect(read({ mode: 'subtree', sectionIds: ['delivery'] }).content).toBe(
      '本章节自身正文。\n\n时机说明。',
    );
    expect(read({ mode: 'self', sectionIds: ['delivery.timing'] }).content).toBe('时机说明。');
  });

  it('joins selected sections in request order with a blank line', () => {
    expect(read({ mode: 'self', sectionIds: ['delivery.timing', 'delivery'] }).content).toBe(
      '时机说明。\n\n本章节自身正文。',
    );
    expect(read({ mode: 'self', sectionIds: ['delivery', 'delivery.timing'] }).content).toBe(
      '本章节自身正文。\n\n时机说明。',
    );
  });

  it('keeps ancestor overlap: a parent and its child both in subtree mode repeat the child', () => {
    expect(read({ mode: 'subtree', sectionIds: ['delivery', 'delivery.timing'] }).content).toBe(
      '本章节自身正文。\n\n时机说明。\n\n时机说明。',
    );
  });

  it('self excludes children, wherever they sit among the own parts', () => {
    const catalog = defineKnowledgeCatalog([
      {
        id: 'd',
        revision: 'r',
        parts: [
          {
            id: 'a',
            parts: ['one', { id: 'b', parts: ['child'] }, 'two', { id: 'c', parts: [] }, 'three'],
          },
        ],
      },
    ]);
    const r = (mode: 'self' | 'subtree') =>
      catalog.read({ documentId: 'd', selection: { mode, sectionIds: ['a'] } }).content;
    expect(r('self')).toBe('one\n\ntwo\n\nthree');
    expect(r('subtree')).toBe('one\n\nchild\n\ntwo\n\nthree');
  });

  it('skips empty pieces at every level: no run of four newlines', () => {
    const doc: KnowledgeDocument = {
      id: 'd',
      revision: 'r',
      parts: [
        '',
        'a',
        '',
        { id: 'empty', parts: ['', { id: 'empty2', parts: [] }] },
        { id: 'x', parts: ['', 'x1', ''] },
        '',
        'b',
      ],
    };
    const catalog = defineKnowledgeCatalog([doc]);
    const c = (selection: KnowledgeReadRequest['selection']) =>
      catalog.read({ documentId: 'd', selection }).content;
    expect(c({ mode: 'document' })).toBe('a\n\nx1\n\nb');
    expect(c({ mode: 'self', sectionIds: ['empty', 'x', 'empty2'] })).toBe('x1');
    expect(c({ mode: 'subtree', sectionIds: ['empty', 'x', 'empty2'] })).toBe('x1');
    expect(c({ mode: 'subtree', sectionIds: ['empty'] })).toBe('');
  });

  it('trims the result with String.prototype.trim, but not the inside', () => {
    const catalog = defineKnowledgeCatalog([
      {
        id: 'd',
        revision: 'r',
        parts: ['  \n lead', { id: 's', parts: ['mid  '] }, 'tail \u00a0\n'],
      },
    ]);
    expect(catalog.read({ documentId: 'd', selection: { mode: 'document' } }).content).toBe(
      'lead\n\nmid  \n\ntail',
    );
  });

  it('neither freezes nor changes the request', () => {
    const request = {
      documentId: 'service-guide',
      selection: { mode: 'subtree' as const, sectionIds: ['delivery.timing', 'delivery'] },
      maxChars: 100,
    };
    const before = structuredClone(request);
    seed.assertSelection(request);
    seed.read(request);
    expect(request).toEqual(before);
    expect(
      Object.isFrozen(request) ||
        Object.isFrozen(request.selection) ||
        Object.isFrozen(request.selection.sectionIds),
    ).toBe(false);
  });

  it('reads an empty document as empty content', () => {
    const catalog = defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: [] }]);
    expect(catalog.read({ documentId: 'd', selection: { mode: 'document' } }).content).toBe('');
  });

  describe('maxChars', () => {
    const full = '全局引言。\n\n本章节自身正文。\n\n时机说明。';
    it('passes at the exact boundary and throws one below, with actual size and limit', () => {
      expect(read({ mode: 'document' }, full.length).content).toBe(full);
      const error = expectKnowledgeError(() => read({ mode: 'document' }, full.length - 1), {
        code: 'MAX_CHARS_EXCEEDED',
        path: ['maxChars'],
        documentId: 'service-guide',
        actual: full.length,
        limit: full.length - 1,
      });
      expect(error.message).toContain('Nothing is cut');
    });

    it('counts the trimmed content', () => {
      const catalog = defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: ['   abc   '] }]);
      expect(
        catalog.read({ documentId: 'd', selection: { mode: 'document' }, maxChars: 3 }).content,
      ).toBe('abc');
      expectKnowledgeError(
        () => catalog.read({ documentId: 'd', selection: { mode: 'document' }, maxChars: 2 }),
        {
          code: 'MAX_CHARS_EXCEEDED',
          actual: 3,
        },
      );
    });

    it('counts Unicode code points, not UTF-16 units', () => {
      const text = '😀😀a'; // 5 UTF-16 units, 3 code points
      const catalog = defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: [text] }]);
      expect(
        catalog.read({ documentId: 'd', selection: { mode: 'document' }, maxChars: 3 }).content,
      ).toBe(text);
      expectKnowledgeError(
        () => catalog.read({ documentId: 'd', selection: { mode: 'document' }, maxChars: 2 }),
        {
          code: 'MAX_CHARS_EXCEEDED',
          actual: 3,
          limit: 2,
        },
      );
      // A lone surrogate counts as one code point.
      const lone = defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: ['\ud800x\udc00'] }]);
      expectKnowledgeError(
        () => lone.read({ documentId: 'd', selection: { mode: 'document' }, maxChars: 2 }),
        {
          code: 'MAX_CHARS_EXCEEDED',
          actual: 3,
        },
      );
    });

    it('uses the catalog default, which a request overrides either way', () => {
      const limited = defineKnowledgeCatalog([seedDocument], { maxChars: 5 });
      const error = expectKnowledgeError(
        () => limited.read({ documentId: 'service-guide', selection: { mode: 'document' } }),
        {
          code: 'MAX_CHARS_EXCEEDED',
          limit: 5,
        },
      );
      expect(error.issues[0]!.path).toBeUndefined();
      expect(error.message).toContain("the catalog's default maxChars");
      expect(
        limited.read({
          documentId: 'service-guide',
          selection: { mode: 'document' },
          maxChars: 1000,
        }).content,
      ).toBe(full);
      expect(
        limited.read({
          documentId: 'service-guide',
          selection: { mode: 'self', sectionIds: ['delivery.timing'] },
        }).content,
      ).toBe('时机说明。');
      const generous = defineKnowledgeCatalog([seedDocument], { maxChars: 1000 });
      expectKnowledgeError(
        () =>
          generous.read({
            documentId: 'service-guide',
            selection: { mode: 'document' },
            maxChars: 3,
          }),
        {
          code: 'MAX_CHARS_EXCEEDED',
          limit: 3,
        },
      );
      expect(
        generous.read({
          documentId: 'service-guide',
          selection: { mode: 'document' },
          maxChars: undefined,
        }).content,
      ).toBe(full);
    });

    it('maxChars 0 allows only empty content', () => {
      const catalog = defineKnowledgeCatalog([
        { id: 'd', revision: 'r', parts: [{ id: 'e', parts: [] }, 'x'] },
      ]);
      expect(
        catalog.read({
          documentId: 'd',
          selection: { mode: 'self', sectionIds: ['e'] },
          maxChars: 0,
        }).content,
      ).toBe('');
      expectKnowledgeError(
        () => catalog.read({ documentId: 'd', selection: { mode: 'document' }, maxChars: 0 }),
        { code: 'MAX_CHARS_EXCEEDED' },
      );
    });
  });

  describe('request errors: what assertSelection and read both throw', () => {
    const cases: [string, unknown, string, (string | number)[]][] = [
      ['not an object', 'service-guide', 'INVALID_SELECTION', []],
      [
        'missing documentId',
        { selection: { mode: 'document' } },
        'INVALID_SELECTION',
        ['documentId'],
      ],
      [
        'non-string documentId',
        { documentId: 1, selection: { mode: 'document' } },
        'INVALID_SELECTION',
        ['documentId'],
      ],
      [
        'unknown document',
        { documentId: 'nope', selection: { mode: 'document' } },
        'UNKNOWN_DOCUMENT',
        ['documentId'],
      ],
      ['missing selection', { documentId: 'service-guide' }, 'INVALID_SELECTION', ['selection']],
      [
        'bad mode',
        { documentId: 'service-guide', selection: { mode: 'all' } },
        'INVALID_SELECTION',
        ['selection', 'mode'],
      ],
      [
        'sectionIds in document mode',
        { documentId: 'service-guide', selection: { mode: 'document', sectionIds: ['delivery'] } },
        'INVALID_SELECTION',
        ['selection', 'sectionIds'],
      ],
      [
        'missing sectionIds',
        { documentId: 'service-guide', selection: { mode: 'self' } },
        'INVALID_SELECTION',
        ['selection', 'sectionIds'],
      ],
      [
        'empty sectionIds',
        { documentId: 'service-guide', selection: { mode: 'subtree', sectionIds: [] } },
        'INVALID_SELECTION',
        ['selection', 'sectionIds'],
      ],
      [
        'non-string section ID',
        { documentId: 'service-guide', selection: { mode: 'self', sectionIds: ['delivery', 3] } },
        'INVALID_SELECTION',
        ['selection', 'sectionIds', 1],
      ],
      [
        'unknown section',
        {
          documentId: 'service-guide',
          selection: { mode: 'self', sectionIds: ['delivery.timng'] },
        },
        'UNKNOWN_SECTION',
        ['selection', 'sectionIds', 0],
      ],
      [
        'duplicate selection',
        {
          documentId: 'service-guide',
          selection: { mode: 'subtree', sectionIds: ['delivery', 'delivery.timing', 'delivery'] },
        },
        'DUPLICATE_SELECTION',
        ['selection', 'sectionIds', 2],
      ],
      [
        'negative maxChars',
        { documentId: 'service-guide', selection: { mode: 'document' }, maxChars: -1 },
        'INVALID_SELECTION',
        ['maxChars'],
      ],
      [
        'fractional maxChars',
        { documentId: 'service-guide', selection: { mode: 'document' }, maxChars: 2.5 },
        'INVALID_SELECTION',
        ['maxChars'],
      ],
      [
        'unsafe maxChars',
        { documentId: 'service-guide', selection: { mode: 'document' }, maxChars: 2 ** 53 },
        'INVALID_SELECTION',
        ['maxChars'],
      ],
      [
        'string maxChars',
        { documentId: 'service-guide', selection: { mode: 'document' }, maxChars: '10' },
        'INVALID_SELECTION',
        ['maxChars'],
      ],
      [
        'unknown request key',
        { documentId: 'service-guide', selection: { mode: 'document' }, limit: 5 },
        'INVALID_SELECTION',
        ['limit'],
      ],
      [
        'unknown selection key',
        { documentId: 'service-guide', selection: { mode: 'document', ids: [] } },
        'INVALID_SELECTION',
        ['selection', 'ids'],
      ],
    ];
    for (const [name, request, code, path] of cases) {
      it(`${code}: ${name}`, () => {
        const fromAssert = expectKnowledgeError(() => seed.assertSelection(request), {
          code: code as never,
          path,
        });
        const fromRead = expectKnowledgeError(() => seed.read(request as never), {
          code: code as never,
          path,
        });
        expect(fromRead.issues.map((i) => i.code)).toEqual(fromAssert.issues.map((i) => i.code));
        expect(fromAssert.message).toContain('catalog.assertSelection');
        expect(fromRead.message).toContain('catalog.read');
      });
    }

    it('UNKNOWN_SECTION suggests close matches', () => {
      const error = expectKnowledgeError(
        () => read({ mode: 'self', sectionIds: ['delivery.timng'] }),
        {
          code: 'UNKNOWN_SECTION',
          documentId: 'service-guide',
          sectionId: 'delivery.timng',
          suggestions: ['delivery.timing'],
        },
      );
      expect(error.message).toContain("catalog.sectionIds('service-guide')");
    });

    it('reports every request problem at once', () => {
      const error = catchKnowledgeError(() =>
        seed.assertSelection({
          documentId: 'service-guide',
          selection: { mode: 'self', sectionIds: ['x', 'delivery', 'delivery'] },
          maxChars: -1,
        }),
      );
      expect(error.issues.map((i) => i.code)).toEqual([
        'UNKNOWN_SECTION',
        'DUPLICATE_SELECTION',
        'INVALID_SELECTION',
      ]);
    });

    it('assertSelection passes a valid request and never throws MAX_CHARS_EXCEEDED', () => {
      const request: unknown = {
        documentId: 'service-guide',
        selection: { mode: 'document' },
        maxChars: 1,
      };
      expect(() => seed.assertSelection(request)).not.toThrow();
      seed.assertSelection(request);
      expectKnowledgeError(() => seed.read(request as KnowledgeReadRequest), {
        code: 'MAX_CHARS_EXCEEDED',
      });
    });
  });
});

describe('KnowledgeSnapshot', () => {
  it('has exactly the spec fields, in order, and a normalized frozen copy of the selection', () => {
    const ids = ['delivery'];
    const selection = { sectionIds: ids, mode: 'subtree' as const };
    const snapshot = seed.read({ documentId: 'service-guide', selection });
    expect(Object.keys(snapshot)).toEqual([
      'id',
      'documentId',
      'selection',
      'revision',
      'locale',
      'content',
    ]);
    expect(snapshot.selection).toEqual({ mode: 'subtree', sectionIds: ['delivery'] });
    expect(Object.keys(snapshot.selection)).toEqual(['mode', 'sectionIds']);
    expect(snapshot.selection).not.toBe(selection);
    if (snapshot.selection.mode === 'document') throw new Error('expected subtree');
    expect(snapshot.selection.sectionIds).not.toBe(ids);
    ids.push('changed');
    expect(snapshot.selection.sectionIds).toEqual(['delivery']);
  });

  it('leaves locale out when the document has none', () => {
    const catalog = defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: ['x'] }]);
    const snapshot = catalog.read({ documentId: 'd', selection: { mode: 'document' } });
    expect(Object.keys(snapshot)).toEqual(['id', 'documentId', 'selection', 'revision', 'content']);
    expect(snapshot.id).toBe('{"documentId":"d","revision":"r","selection":{"mode":"document"}}');
  });

  it('id is the fast-json-stable-stringify serialization of documentId, revision, locale and selection', () => {
    const snapshot = read({ mode: 'self', sectionIds: ['delivery'] });
    expect(snapshot.id).toBe(
      stringify({
        documentId: 'service-guide',
        revision: 'content-version-1',
        locale: 'zh-CN',
        selection: { mode: 'self', sectionIds: ['delivery'] },
      }),
    );
    expect(snapshot.id).not.toContain(snapshot.content);
  });

  it('id is stable across reads and catalogs, unchanged by key order, changed by section order and choice', () => {
    const a = read({ mode: 'self', sectionIds: ['delivery', 'delivery.timing'] });
    const again = defineKnowledgeCatalog([structuredClone(seedDocument)]).read({
      selection: { sectionIds: ['delivery', 'delivery.timing'], mode: 'self' },
      documentId: 'service-guide',
    });
    expect(again.id).toBe(a.id);
    expect(read({ mode: 'self', sectionIds: ['delivery.timing', 'delivery'] }).id).not.toBe(a.id);
    expect(read({ mode: 'self', sectionIds: ['delivery'] }).id).not.toBe(a.id);
    expect(read({ mode: 'subtree', sectionIds: ['delivery', 'delivery.timing'] }).id).not.toBe(
      a.id,
    );
  });

  it('id changes with the revision and the locale, not with the content', () => {
    const base = read({ mode: 'document' });
    const withRevision = defineKnowledgeCatalog([
      { ...seedDocument, revision: 'content-version-2' },
    ]).read({
      documentId: 'service-guide',
      selection: { mode: 'document' },
    });
    const withLocale = defineKnowledgeCatalog([{ ...seedDocument, locale: 'en' }]).read({
      documentId: 'service-guide',
      selection: { mode: 'document' },
    });
    const withContent = defineKnowledgeCatalog([{ ...seedDocument, parts: ['other'] }]).read({
      documentId: 'service-guide',
      selection: { mode: 'document' },
    });
    expect(new Set([base.id, withRevision.id, withLocale.id]).size).toBe(3);
    expect(withContent.id).toBe(base.id);
  });
});
