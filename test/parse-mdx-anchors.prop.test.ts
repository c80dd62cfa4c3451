import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKnowledgeDocument, parseKnowledgeDocument } from '../src/index.js';
import { allTexts, parsedDocument } from './helpers/arbitraries.js';

const ANCHOR = /^<!-- (\/?)agent-section:([A-Za-z0-9_.:-]+) -->$/;

/** `text` with the anchor lines chosen by `pick` written as MDX comments. */
function toMdx(text: string, pick: (i: number) => boolean): string {
  return text
    .split('\n')
    .map((line, i) => {
      const m = ANCHOR.exec(line);
      return m !== null && pick(i) ? `{/* ${m[1]}agent-section:${m[2]} */}` : line;
    })
    .join('\n');
}

describe('MDX comment anchors', () => {
  it('an MDX page parses to the same document whichever form each anchor line takes', () => {
    fc.assert(
      fc.property(parsedDocument, fc.func(fc.boolean()), (doc, pick) => {
        // Body text that itself mentions anchors (examples in code) is left to the example tests.
        fc.pre(allTexts(doc).every((t) => !t.includes('agent-section')));
        const text = toMdx(formatKnowledgeDocument(doc), (i) => pick(i));
        const parsed = parseKnowledgeDocument(
          {
            id: doc.id,
            revision: doc.revision,
            ...(doc.locale === undefined ? {} : { locale: doc.locale }),
            text,
          },
          { mdx: true },
        );
        expect(parsed).toEqual(doc);
      }),
      { seed: 20261207, numRuns: 300 },
    );
  });
});
