/**
 * The excerpt of a hit is cut from a window of the chunk collapsed piece by piece, and the term is
 * found with one scan of its places in any case: both give what a direct reading of the whole text
 * gives (collapse all of it, cut; try the term as written, then in any case).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTermAt, locateTerm } from '../../src/agent/search/locateTerm.js';
import { hasTextIn, makeExcerpt } from '../../src/agent/search/makeExcerpt.js';
import { isWhitespaceCode } from '../../src/markdown/chars.js';
import { excerptAround } from '../../src/agent/search/toRankedFile.js';

/** The excerpt of the whole text collapsed: what the windows must reproduce. */
function wholeExcerpt(raw: string, a: number, b: number, maxChars: number): string {
  const lead = raw.slice(0, a).replace(/\s+/g, ' ').trimStart();
  const rest = raw.slice(b).replace(/\s+/g, ' ').trimEnd();
  return makeExcerpt(lead + raw.slice(a, b) + rest, lead.length, lead.length + (b - a), maxChars);
}

/**
 * The term's first whole place written as folded, Capitalized or in capitals; else in any mix of
 * ASCII cases (`K` as `k`); else wherever the text folds to it (`ſ` as `s`).
 */
function directLocate(text: string, term: string): readonly [number, number] | undefined {
  const written = [term, term[0]!.toUpperCase() + term.slice(1), term.toUpperCase()];
  const caseless = (p: number): boolean =>
    [...term].every((t, k) => {
      const c = text[p + k]!;
      return c === t || c === t.toUpperCase() || (t === 'k' && c === '\u212a');
    });
  const places: number[] = [];
  for (let at = 0; at + term.length <= text.length; at++)
    if (isTermAt(text, at, term)) places.push(at);
  const at =
    places.find((p) => written.some((w) => text.startsWith(w, p))) ??
    places.find(caseless) ??
    places[0];
  return at === undefined ? undefined : [at, at + term.length];
}

describe('excerpt windows', () => {
  it('isWhitespaceCode is what \\s matches, for every code unit', () => {
    for (let c = 0; c <= 0xffff; c++)
      if (isWhitespaceCode(c) !== /\s/.test(String.fromCharCode(c)))
        expect.fail(`U+${c.toString(16)}: ${isWhitespaceCode(c)}`);
  });

  it('hasTextIn says what /\\S/ says of the slice', () => {
    const unit = fc.constantFrom('a', '中', ' ', '\n', '\u3000', '\ufeff', '\u00a0', '😀');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 20 }), fc.nat(22), fc.nat(22), (text, x, y) => {
        const [from, to] = x <= y ? [x, y] : [y, x];
        expect(hasTextIn(text, from, Math.min(to, text.length))).toBe(
          /\S/.test(text.slice(from, to)),
        );
      }),
      { seed: 20261207, numRuns: 500 },
    );
  });

  it('excerptAround gives the excerpt of the whole text collapsed', () => {
    const piece = fc.constantFrom(
      'word',
      'longerword',
      'a',
      '中文',
      '配置项',
      '😀',
      ' ',
      '  ',
      '\n',
      '\n\n    ',
      '\t',
      '\u3000',
      'https://example.com/a/long/path',
    );
    const text = fc.array(piece, { maxLength: 80 }).map((p) => p.join(''));
    const term = fc.constantFrom('', 'term', 'v-model', '属性', '😀x');
    fc.assert(
      fc.property(text, term, text, fc.integer({ min: 16, max: 90 }), (lead, t, rest, max) => {
        const raw = lead + t + rest;
        const a = lead.length;
        const b = a + t.length;
        expect(excerptAround(raw, a, b, max)).toBe(wholeExcerpt(raw, a, b, max));
      }),
      { seed: 20261207, numRuns: 3000 },
    );
    // Long texts, at the default size and at the smallest `excerptChars` allows.
    const long = fc.array(piece, { maxLength: 300 }).map((p) => p.join(''));
    fc.assert(
      fc.property(long, term, long, fc.constantFrom(16, 17, 40, 240), (lead, t, rest, max) => {
        const raw = lead + t + rest;
        const a = lead.length;
        const b = a + t.length;
        expect(excerptAround(raw, a, b, max)).toBe(wholeExcerpt(raw, a, b, max));
      }),
      { seed: 20261207, numRuns: 500 },
    );
  });

  it('locateTerm finds a lower-case ASCII term where the direct reading does', () => {
    const unit = fc.constantFrom(
      ...[
        'a',
        'b',
        'A',
        'B',
        'k',
        'K',
        '\u212a',
        '-',
        ' ',
        '中',
        '1',
        '_',
        's',
        'S',
        'ſ',
        'ı',
        '.',
      ],
    );
    const term = fc.constantFrom(
      'ab',
      'ba',
      'a-b',
      'k',
      'ka',
      'bk',
      'a_b',
      '1a',
      'sa',
      'as',
      'a.b',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), term, (text, t) => {
        expect(locateTerm(text, t)).toEqual(directLocate(text, t));
      }),
      { seed: 20261207, numRuns: 3000 },
    );
  });

  it('locateTerm prefers the term as written over an earlier one in another mix of cases', () => {
    expect(locateTerm('WeakMap and weakmap', 'weakmap')).toEqual([12, 19]);
    expect(locateTerm('use watchEffect here', 'watcheffect')).toEqual([4, 15]);
    expect(locateTerm('HASHMAP or HashMap', 'hashmap')).toEqual([0, 7]);
    expect(locateTerm('Kelvin \u212aey', 'key')).toEqual([7, 10]);
    expect(locateTerm('ascii only', 'absent')).toBeUndefined();
  });
});
