import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  isKnowledgeError,
  parseKnowledgeDocument,
} from '../src/index.js';
import {
  anchorLine,
  nearMissLine,
  parsedDocument,
  proseLine,
  sectionId,
} from './helpers/arbitraries.js';

/** Call `fn`; it may return, or throw a KnowledgeError with at least one issue — nothing else. */
function onlyKnowledgeErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!isKnowledgeError(error)) throw new Error(`escaped: ${String(error)}`, { cause: error });
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.issues[0]!.code).toBe(error.code);
    for (const issue of error.issues) expect(issue.message.length).toBeGreaterThan(10);
  }
}

const anything = fc.anything({
  withNullPrototype: true,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withSparseArray: true,
  withObjectString: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
});

/** Text made of anchor-ish lines, fences and noise, with every kind of line ending. */
const noisyText = fc
  .array(
    fc.oneof(
      anchorLine,
      nearMissLine,
      proseLine,
      fc.constantFrom('```', '~~~', '````md', '   ```', '', '\uFEFF', '<!--', '-->'),
      fc.string({ maxLength: 10 }),
    ),
    { maxLength: 30 },
  )
  .chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((eol) => lines.join(eol)));

describe('only KnowledgeError escapes a public function', () => {
  it('even for values whose getters or prototypes throw', () => {
    const hostile = Object.create(
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
          getPrototypeOf: () => {
            throw new Error('trap');
          },
        },
      ),
      {
        id: {
          get: () => {
            throw new Error('getter');
          },
          enumerable: true,
        },
      },
    ) as unknown;
    const catalog = defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: [] }]);
    for (const call of [
      () => parseKnowledgeDocument(hostile as never),
      () => defineKnowledgeCatalog([hostile] as never),
      () => defineKnowledgeCatalog([], hostile as never),
      () => formatKnowledgeDocument(hostile as never),
      () => catalog.read(hostile as never),
      () => catalog.assertSelection({ documentId: 'd', selection: hostile }),
      () => catalog.document(hostile as never),
      () => catalog.sectionIds(hostile as never),
    ]) {
      expect(() => call()).toThrow();
      onlyKnowledgeErrors(call);
    }
  });

  it('parseKnowledgeDocument on arbitrary arguments and noisy text', () => {
    fc.assert(
      fc.property(anything, (value) =>
        onlyKnowledgeErrors(() => parseKnowledgeDocument(value as never)),
      ),
    );
    fc.assert(
      fc.property(noisyText, sectionId, (text, id) =>
        onlyKnowledgeErrors(() => parseKnowledgeDocument({ id, revision: 'r', text })),
      ),
    );
  });

  it('defineKnowledgeCatalog and formatKnowledgeDocument on arbitrary values', () => {
    fc.assert(
      fc.property(anything, anything, (documents, options) => {
        onlyKnowledgeErrors(() => defineKnowledgeCatalog(documents as never, options as never));
        onlyKnowledgeErrors(() => defineKnowledgeCatalog([documents] as never));
        onlyKnowledgeErrors(() => formatKnowledgeDocument(documents as never));
        onlyKnowledgeErrors(() =>
          defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: [documents] }] as never),
        );
        expect(typeof isKnowledgeError(documents)).toBe('boolean');
      }),
    );
  });

  it('catalog methods on arbitrary requests and IDs', () => {
    fc.assert(
      fc.property(
        parsedDocument,
        anything,
        fc.oneof(
          anything,
          fc.record(
            {
              documentId: anything,
              selection: fc.record({ mode: anything, sectionIds: anything }),
              maxChars: anything,
            },
            { requiredKeys: [] },
          ),
        ),
        (doc, id, request) => {
          const catalog = defineKnowledgeCatalog([doc]);
          onlyKnowledgeErrors(() => catalog.read(request as never));
          onlyKnowledgeErrors(() => catalog.assertSelection(request));
          onlyKnowledgeErrors(() => catalog.sectionIds(id as never));
          onlyKnowledgeErrors(() => catalog.document(id as never));
        },
      ),
    );
  });
});
