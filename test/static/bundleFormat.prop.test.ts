/**
 * The postings coding of a bundle's shards is lossless: `decodeNumbers(encodeNumbers(list))` is the
 * list for any non-negative safe integers, and page differences undo exactly; a corrupt list is an error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeNumbers,
  deltaPages,
  encodeNumbers,
  undeltaPages,
} from '../../src/agent/static/bundleFormat.js';

describe('postings coding', () => {
  it('round-trips any non-negative safe integers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat(40), fc.nat(), fc.maxSafeNat()), { maxLength: 200 }),
        (list) => {
          expect(decodeNumbers(encodeNumbers(list))).toEqual(list);
        },
      ),
      { seed: 2424, numRuns: 500 },
    );
  });

  it('undoes page differences for postings ascending by page, any stride', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.nat(1000), { maxLength: 60 }),
        (stride, raw) => {
          const pages = raw.map((_, i) => raw.slice(0, i + 1).reduce((a, b) => a + b, 0));
          const list = pages.flatMap((page, i) => [
            page,
            ...Array.from({ length: stride - 1 }, () => i),
          ]);
          const coded = deltaPages(list, stride);
          expect(coded.every((n) => n >= 0)).toBe(true);
          expect(undeltaPages(coded, stride)).toEqual(list);
        },
      ),
      { seed: 2425, numRuns: 300 },
    );
  });

  it('writes a number under 32 as one character, and refuses a corrupt list', () => {
    expect(encodeNumbers([0, 31, 32, 1023])).toBe('0vB0_v');
    expect(() => decodeNumbers('B')).toThrow(/ends inside a number/);
    expect(() => decodeNumbers('0,1')).toThrow(/holds ","/);
  });
});
