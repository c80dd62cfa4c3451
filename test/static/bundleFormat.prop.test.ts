/**
 * The postings coding of a bundle's shards is lossless: `decodeNumbers(encodeNumbers(list))` is the
 * list for any non-negative safe integers, and page differences undo exactly; a corrupt list is an error.
 * A page text's digest, hashed in slices, is the SHA-256 of the whole text's UTF-8 bytes.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeNumbers,
  deltaPages,
  encodeNumbers,
  pageTextDigest,
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

describe('page text digest', () => {
  const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

  it('is the SHA-256 of the whole text as UTF-8, lone surrogates included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        expect(await pageTextDigest(text)).toBe(sha(text));
      }),
      { seed: 2424, numRuns: 300 },
    );
  });

  it('is the same when a slice boundary falls inside a surrogate pair or beside a lone one', async () => {
    const slice = 1 << 18; // DIGEST_SLICE
    for (const text of [
      `${'x'.repeat(slice - 1)}😀y`,
      `${'x'.repeat(slice - 1)}\ud83dy`,
      `${'x'.repeat(slice)}\ude00y`,
      `${'é'.repeat(slice + 5)}😀`.repeat(2),
      '',
    ])
      expect(await pageTextDigest(text)).toBe(sha(text));
  });
});
