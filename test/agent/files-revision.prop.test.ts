import stringify from 'fast-json-stable-stringify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { buildFileTable } from '../../src/agent/files/index.js';
import { pagesText } from '../../src/agent/files/buildFileTable.js';
import { digest64 } from '../../src/shared/digest.js';
import type { JsonObject } from '../../src/agent/types.js';

/**
 * A source's `activeContentRevision` digests its pages as `fast-json-stable-stringify` writes them;
 * `pagesText` writes that text out by hand, and must give it to the character, or every revision
 * (and so every cursor) would change.
 */
const text = fc.string({ unit: 'binary', maxLength: 12 });
const page = fc.record(
  {
    title: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
    description: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
    // fast-check's JSON values, as the package's JSON type (the same values, typed apart).
    frontmatter: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 3,
    }) as fc.Arbitrary<JsonObject>,
    locale: fc.constantFrom('en', 'zh-CN', 'de "CH"'),
    body: text,
    revision: fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  },
  { requiredKeys: ['body', 'revision'] },
);

describe('files: the content revision', () => {
  it('digests the text fast-json-stable-stringify gives for the pages', () => {
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 6 }), (specs) => {
        const documents = specs.map((spec, i) =>
          parseKnowledgeDocument({
            id: `doc-${i}`,
            revision: spec.revision,
            ...(spec.locale === undefined ? {} : { locale: spec.locale }),
            text: `# Heading ${i}\n\n${spec.body.replace(/<!--/g, '')}\n`,
          }),
        );
        const files = Object.fromEntries(
          specs.map((spec, i) => [
            `doc-${i}`,
            {
              path: `pages/p${i}.md`,
              ...(spec.title === undefined ? {} : { title: spec.title }),
              ...(spec.description === undefined ? {} : { description: spec.description }),
              ...(spec.frontmatter === undefined ? {} : { frontmatter: spec.frontmatter }),
            },
          ]),
        );
        const table = buildFileTable(defineKnowledgeCatalog(documents), { files });
        const want = stringify(
          table.pages.map((p) => [
            p.fileId,
            p.revision,
            p.locale,
            p.path,
            p.title,
            p.description,
            p.frontmatter,
          ]),
        );
        expect(pagesText(table.pages)).toBe(want);
        expect(table.activeContentRevision).toBe(`rev-${digest64(want)}`);
      }),
    );
  });
});
