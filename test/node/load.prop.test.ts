import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  parseKnowledgeDocument,
} from '../../src/index.js';
import { decodeUtf8, firstInvalidByte } from '../../src/node/decodeUtf8.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { parsedDocument } from '../helpers/arbitraries.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { expectPlacedIssue, sha256Revision } from '../helpers/loadErrors.js';
import { withTree } from '../helpers/tempFolders.js';

/** These properties write folders to disk, so they run fewer times than the pure ones. */
const DISK_RUNS = 25;

/** A front matter key that is a plain YAML string and none of the keys Knowledge Kit checks. */
const key = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_0123456789'),
    minLength: 1,
    maxLength: 8,
  })
  .map((k) => `k_${k}`);

/** A YAML value that parses to JSON: a number, a boolean, null, a double-quoted printable string or a flow list. */
const value = fc.oneof(
  fc.integer().map(String),
  fc.boolean().map(String),
  fc.constant('null'),
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc
    .array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 })
    .map((items) => `[${items.join(', ')}]`),
);

/** The lines between the fences: unique `key: value` lines, with comments and blank lines mixed in. */
const frontMatterLines = fc
  .uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 8 })
  .chain((pairs) =>
    fc.array(fc.constantFrom('', '# a comment', '   '), { maxLength: 3 }).chain((extras) =>
      fc.shuffledSubarray([...pairs.map(([k, v]) => `${k}: ${v}`), ...extras], {
        minLength: pairs.length + extras.length,
      }),
    ),
  );

/** A body line that is never an anchor, a near miss or a fence: a letter, then letters and spaces. */
const proseLine = fc
  .tuple(
    fc.constantFrom(...'abcXYZ中é'),
    fc.string({ unit: fc.constantFrom(...'abc xyz,.'), maxLength: 20 }),
  )
  .map(([first, rest]) => first + rest);
const bodyLines = fc.array(fc.oneof(proseLine, fc.constant('')), { maxLength: 8 });

/** Lines that parse as MALFORMED_ANCHOR, each reported at column 1. */
const brokenAnchor = fc.constantFrom(
  '<!--agent-section:a-->',
  '<!-- AGENT-SECTION:a -->',
  '<!-- agent-section: -->',
  '<!-- agent-section:a b -->',
  '<!-- agent-section:a --> ',
);

/** A file's shape: line ending, BOM, closing fence, where it lives. */
const layout = fc.record({
  eol: fc.constantFrom('\n', '\r\n'),
  bom: fc.boolean(),
  close: fc.constantFrom('---', '...', '---  '),
  path: fc.constantFrom('doc.md', 'guides/doc.md', 'a/b/c.md', '中文/文档.md'),
});

describe('positions through front matter', () => {
  it('a broken anchor on body line n is reported at file line n + the lines of the front matter block', async () => {
    await fc.assert(
      fc.asyncProperty(
        frontMatterLines,
        bodyLines,
        brokenAnchor,
        bodyLines,
        layout,
        async (front, before, broken, after, { eol, bom, close, path }) => {
          const blockLines = ['---', ...front, close];
          const text =
            (bom ? '\ufeff' : '') + [...blockLines, ...before, broken, ...after].join(eol) + eol;
          const error = await withTree({ [path]: text }, (dir) =>
            catchKnowledgeError(loadKnowledgeDirectory(dir)),
          );
          expect(error.issues).toHaveLength(1);
          expectPlacedIssue(error.issues[0], {
            code: 'MALFORMED_ANCHOR',
            file: path,
            line: blockLines.length + before.length + 1,
            column: 1,
          });
        },
      ),
      { numRuns: DISK_RUNS },
    );
  });
});

describe('round trip through the loader', () => {
  /** Per file: a title (or none), whether to set the locale, and the line ending. */
  const fileShape = fc.record({
    title: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    setLocale: fc.boolean(),
    eol: fc.constantFrom('\n', '\r\n'),
  });

  it('each loaded document reads as its body parsed on its own', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(parsedDocument, fileShape), { minLength: 1, maxLength: 4 }),
        async (files) => {
          const tree: Record<string, string> = {};
          const expected = files.map(([document, { title, setLocale, eol }], i) => {
            const path = i % 2 === 0 ? `d${i}.md` : `sub/d${i}.md`;
            const id = path.slice(0, -'.md'.length);
            const locale = setLocale ? document.locale : undefined;
            const head = [
              '---',
              ...(title === undefined ? [] : [`title: ${JSON.stringify(title)}`]),
              ...(locale === undefined ? [] : [`locale: ${locale}`]),
              '---',
            ];
            const body = formatKnowledgeDocument(document).replaceAll('\n', eol);
            const text = head.join(eol) + eol + body;
            tree[path] = text;
            return {
              id,
              path,
              title,
              direct: parseKnowledgeDocument({
                id,
                revision: sha256Revision(text),
                text: body,
                locale,
              }),
            };
          });
          const loaded = await withTree(tree, (dir) => loadKnowledgeDirectory(dir));
          const reference = defineKnowledgeCatalog(expected.map(({ direct }) => direct));
          // Path order: `sub/d1.md` comes after `d2.md`.
          const byPath = [...expected].sort((a, b) => (a.path < b.path ? -1 : 1));
          expect(loaded.catalog.ids).toEqual(byPath.map(({ id }) => id));
          for (const { id, path, title, direct } of expected) {
            expect(loaded.catalog.document(id)).toEqual(direct);
            const whole = { documentId: id, selection: { mode: 'document' } } as const;
            expect(loaded.catalog.read(whole)).toEqual(reference.read(whole));
            for (const sectionId of reference.sectionIds(id)) {
              const subtree = {
                documentId: id,
                selection: { mode: 'subtree', sectionIds: [sectionId] },
              } as const;
              expect(loaded.catalog.read(subtree)).toEqual(reference.read(subtree));
            }
            expect(loaded.paths[id]).toBe(path);
            expect(loaded.files[id]?.path).toBe(`pages/${path}`);
            expect(loaded.files[id]?.title).toBe(title);
          }
        },
      ),
      { numRuns: DISK_RUNS },
    );
  });
});

describe('firstInvalidByte and decodeUtf8 against TextDecoder', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const isValid = (bytes: Uint8Array): boolean => {
    try {
      fatal.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };

  /** Valid characters, random bytes, and the sequences RFC 3629 forbids or that stop early. */
  const chunk = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 3 })
        .map((s) => [...Buffer.from(s, 'utf8')]),
    },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 255 }).map((b) => [b]) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        [0xc0, 0x80],
        [0xc1, 0xbf],
        [0xe0, 0x80, 0x80],
        [0xe0, 0x9f, 0xbf],
        [0xed, 0xa0, 0x80],
        [0xed, 0xbf, 0xbf],
        [0xf0, 0x80, 0x80, 0x80],
        [0xf0, 0x8f, 0xbf, 0xbf],
        [0xf4, 0x90, 0x80, 0x80],
        [0xf5, 0x80, 0x80, 0x80],
        [0xff],
        [0x80],
        [0xc3],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98],
        [0xef, 0xbb, 0xbf],
      ),
    },
  );
  /** The bytes, as a view into a larger buffer (as Node's pooled buffers are). */
  const bytes = fc
    .tuple(fc.array(chunk, { maxLength: 12 }), fc.nat({ max: 7 }))
    .map(([chunks, pad]) => {
      const flat = chunks.flat();
      const backing = new Uint8Array(pad + flat.length + 3).fill(0xff);
      backing.set(flat, pad);
      return backing.subarray(pad, pad + flat.length);
    });

  it('firstInvalidByte is -1 exactly for valid UTF-8, else the end of the longest valid prefix where no character starts', () => {
    fc.assert(
      fc.property(bytes, (input) => {
        const at = firstInvalidByte(input);
        if (isValid(input)) {
          expect(at).toBe(-1);
          return;
        }
        expect(at).toBeGreaterThanOrEqual(0);
        expect(at).toBeLessThan(input.length);
        expect(isValid(input.subarray(0, at))).toBe(true);
        for (let length = 1; length <= 4; length++)
          expect(isValid(input.subarray(at, at + length))).toBe(false);
      }),
    );
  });

  it('decodeUtf8 gives the strict decoding without a leading BOM, or the first invalid byte', () => {
    const stripping = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(bytes, (input) => {
        const result = decodeUtf8(input);
        if (isValid(input)) expect(result).toEqual({ text: stripping.decode(input) });
        else expect(result).toEqual({ invalidAt: firstInvalidByte(input) });
      }),
    );
  });
});
