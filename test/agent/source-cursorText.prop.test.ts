/**
 * Invariants of a cursor's payload text: any JSON value list reads back exactly as it was written;
 * the text holds only characters that a URL query, a shell word in double quotes and a JSON string
 * carry as they are (no space, quote, `#`, `&`, `+`, `%` or control character); and a text changed
 * anywhere never throws when read (it reads as some values, or as none).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCursorText, writeCursorText } from '../../src/agent/source/cursorText.js';
import type { JsonValue } from '../../src/agent/types.js';

const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('read_file', '__proto__', '~s', '~a2', '', ' ', '-1', '配送 退货', 'a,b~c_d'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'grapheme' }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Characters a payload text never holds. */
const UNSAFE = /[\s"'#&+%\\<>`$\u0000-\u001f\u007f-\u00a0\u2000-\u206f\ufeff]/u;

describe('cursor text', () => {
  it('reads back exactly what it wrote, in safe characters only', () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 7 }), (values) => {
        const text = writeCursorText(values);
        expect(text).not.toMatch(UNSAFE);
        expect(readCursorText(text)).toEqual(values);
      }),
    );
  });

  it('a text changed anywhere reads as some values or as none, without throwing', () => {
    fc.assert(
      fc.property(
        fc.array(json, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.string({ unit: 'grapheme', maxLength: 3 }),
        (values, at, insert) => {
          const text = writeCursorText(values);
          const i = at % (text.length + 1);
          expect(() =>
            readCursorText(`${text.slice(0, i)}${insert}${text.slice(i + 1)}`),
          ).not.toThrow();
        },
      ),
    );
  });

  it('writes a read_file payload in few characters', () => {
    expect(
      writeCursorText([3, 'kb', 'rev-1', 'read_file', { path: 'pages/http.md' }, [197, 197]]),
    ).toBe('3,kb,rev-1,read~_file,~o1,path,pages/http.md,~a2,197,197');
    expect(writeCursorText(['', '10', 'a b', '~x', '\u00a0'])).toBe('~s,~s10,a_b,~s~7ex,~s~a0');
  });
});
