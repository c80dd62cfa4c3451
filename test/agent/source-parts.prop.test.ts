/**
 * The parts property: for random texts (blank lines, fences, CRLF, astral characters, long lines) and
 * limits, the parts of a read, followed by `nextCursor` alone, concatenate to exactly the whole read,
 * each within the limit, each range starting where the last ended, and each cut where the rule says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { ReadFileOutput } from '../../src/agent/index.js';
import { partBoundaries, partEnd, partEndIn } from '../../src/markdown/partEnd.js';

const SEED = 20_261_201;

/** Lines that make block boundaries, fences, code and odd characters likely. */
const line = fc.oneof(
  fc.constant(''),
  fc.constant('   '),
  fc.constant('```'),
  fc.constant('~~~'),
  fc.constant('    indented code'),
  fc.constant('> quoted'),
  fc.constant('- item'),
  fc.constant('😀 astral 𝄞'),
  fc.string({ minLength: 1, maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ')),
  fc.constant('x'.repeat(120)),
);
const text = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 40 }), fc.constantFrom('\n', '\r\n', '\r'))
  .map(([lines, eol]) => lines.join(eol))
  // Anchor-like lines are the parser's business, not this property's.
  .filter((t) => !t.includes('<!--') && t.trim().length > 0);

describe('read_file parts', () => {
  it('concatenate to the whole read, each within the limit', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 200 }), async (body, limit) => {
        const catalog = defineKnowledgeCatalog([
          parseKnowledgeDocument({ id: 'p', revision: 'r', text: body }),
        ]);
        const source = createCatalogSource(catalog, { id: 'kb' });
        const whole = (await source.readFile({ fileId: 'p' })).content;
        const total = [...whole].length;
        const parts: ReadFileOutput[] = [await source.readFile({ fileId: 'p', maxChars: limit })];
        while (parts.at(-1)!.nextCursor !== null) {
          parts.push(await source.readFile({ cursor: parts.at(-1)!.nextCursor }));
          expect(parts.length).toBeLessThanOrEqual(total + 1);
        }
        expect(parts.map((p) => p.content).join('')).toBe(whole);
        let at = 0;
        for (const part of parts) {
          const size = [...part.content].length;
          expect(size).toBeGreaterThan(0);
          expect(size).toBeLessThanOrEqual(limit);
          if (parts.length > 1) {
            expect(part.file.contentRange).toEqual({ start: at, end: at + size, total });
          } else expect(part.file.contentRange).toBeUndefined();
          at += size;
          // A part cut short of the limit ends a line.
          if (part.nextCursor !== null && size < limit) expect(part.content).toMatch(/[\r\n]$/);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('cut alike from boundaries read once for the whole text (partEndIn) and read up to the window (partEnd)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (body, a, b) => {
        const whole = partBoundaries(body);
        const from = a % body.length;
        const to = from + 1 + (b % (body.length - from + 5));
        // The boundaries up to `to` are the whole text's boundaries up to `to`.
        const upTo = partBoundaries(body, to);
        expect(upTo.lines).toEqual(whole.lines.filter((end) => end <= to));
        expect(upTo.blocks).toEqual(whole.blocks.filter((end) => end <= to));
        expect(partEndIn(whole, body.length, from, to)).toBe(partEnd(body, from, to));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
