import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceCodePoints,
  countCodePoints,
  retreatCodePoints,
} from '../../src/shared/codePoints.js';

// Strings with astral characters, and lone surrogates that the helpers must count as one each.
const text = fc.string({
  unit: fc.constantFrom('a', ' ', '中', '😀', '𠀀', '\ud800', '\udc00'),
  maxLength: 40,
});
const withRange = text.chain((t) =>
  fc
    .tuple(fc.constant(t), fc.nat(t.length), fc.nat(t.length))
    .map(([s, a, b]) => [s, Math.min(a, b), Math.max(a, b)] as const),
);

describe('code-point helpers (src/shared/codePoints.ts, shared by the core, search and source)', () => {
  it('countCodePoints equals the code points JavaScript iterates in the same slice', () => {
    fc.assert(
      fc.property(withRange, ([s, from, to]) => {
        expect(countCodePoints(s, from, to)).toBe([...s.slice(from, to)].length);
        expect(countCodePoints(s)).toBe([...s].length);
      }),
    );
  });

  it('advance and retreat move by whole code points and stop at the ends', () => {
    fc.assert(
      fc.property(text, fc.nat(50), (s, steps) => {
        const end = advanceCodePoints(s, 0, steps);
        expect(s.slice(0, end)).toBe([...s].slice(0, steps).join(''));
        const start = retreatCodePoints(s, s.length, steps);
        expect(s.slice(start)).toBe(steps === 0 ? '' : [...s].slice(-steps).join(''));
      }),
    );
  });

  it('examples', () => {
    expect(countCodePoints('a😀b')).toBe(3);
    expect(countCodePoints('😀', 0, 1)).toBe(1);
    expect(countCodePoints('\ud800\ud800\udc00')).toBe(2);
    expect(advanceCodePoints('😀😀', 0, 1)).toBe(2);
    expect(retreatCodePoints('😀😀', 4, 1)).toBe(2);
  });
});
