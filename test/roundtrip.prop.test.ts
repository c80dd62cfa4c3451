import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKnowledgeDocument, isKnowledgeError, parseKnowledgeDocument } from '../src/index.js';
import { anchorLine, parsedDocument } from './helpers/arbitraries.js';
import { catchKnowledgeError } from './helpers/knowledgeError.js';
import { anchorEvents } from './helpers/scan.js';

const reparse = (text: string, doc: { id: string; revision: string; locale?: string }) =>
  parseKnowledgeDocument({
    id: doc.id,
    revision: doc.revision,
    ...(doc.locale === undefined ? {} : { locale: doc.locale }),
    text,
  });

describe('round trip', () => {
  it('parse(format(doc)) deep-equals every document in parsed form', () => {
    fc.assert(
      fc.property(parsedDocument, (doc) => {
        expect(reparse(formatKnowledgeDocument(doc), doc)).toEqual(doc);
      }),
    );
  });

  it('format(parse(text)) is a fixed point: formatting the reparsed document gives the same text', () => {
    fc.assert(
      fc.property(
        parsedDocument,
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        (doc, eol, bom) => {
          const text = formatKnowledgeDocument(doc);
          const variant = (bom ? '\uFEFF' : '') + text.replace(/\n/g, eol);
          expect(formatKnowledgeDocument(reparse(variant, doc))).toBe(text);
        },
      ),
    );
  });

  it('dropping any one anchor line from a formatted document is always reported, never silently accepted', () => {
    fc.assert(
      fc.property(
        parsedDocument.filter((doc) => doc.parts.some((part) => typeof part !== 'string')),
        fc.nat(),
        (doc, pick) => {
          const text = formatKnowledgeDocument(doc);
          const lines = text.split('\n');
          // Real anchors only: anchor-shaped lines inside fences are body text (the scanner's fence
          // handling is checked against remark in fences.prop.test.ts).
          const anchors = anchorEvents(text).map((event) => event.line - 1);
          fc.pre(anchors.length > 0);
          const drop = anchors[pick % anchors.length]!;
          const broken = [...lines.slice(0, drop), ...lines.slice(drop + 1)].join('\n');
          const error = catchKnowledgeError(() => reparse(broken, doc));
          expect(['UNCLOSED_SECTION', 'UNEXPECTED_CLOSE', 'MISMATCHED_CLOSE']).toContain(
            error.code,
          );
          for (const issue of error.issues) expect(issue.line).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('an extra anchor line never parses silently', () => {
    fc.assert(
      fc.property(parsedDocument, anchorLine, fc.nat(), (doc, extra, at) => {
        const lines = formatKnowledgeDocument(doc).split('\n');
        const i = at % (lines.length + 1);
        const text = [...lines.slice(0, i), extra, ...lines.slice(i)].join('\n');
        let parsed;
        try {
          parsed = reparse(text, doc);
        } catch (error) {
          expect(isKnowledgeError(error)).toBe(true);
          return;
        }
        // It may only succeed by standing inside a fenced code block: then it is body text.
        expect(JSON.stringify(parsed)).toContain(extra.replace(/"/g, '\\"'));
      }),
    );
  });
});
