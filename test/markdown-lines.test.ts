/**
 * The one line iterator (`src/markdown/lines.ts`): LF, CRLF and CR line endings, blank lines, the
 * first non-blank character, and a text that ends with a line ending (no empty last line).
 */
import { describe, expect, it } from 'vitest';
import { LineReader, lineAfter } from '../src/markdown/lines.js';

const read = (text: string, from = 0) => {
  const lines = new LineReader(text, from);
  const out: [string, number, string][] = [];
  while (lines.read())
    out.push([
      text.slice(lines.start, lines.end),
      lines.first - lines.start,
      text.slice(lines.next),
    ]);
  return { out, sawCarriageReturn: lines.sawCarriageReturn };
};

describe('markdown: the line iterator', () => {
  it('reads LF, CRLF and CR line endings, blank lines, and where each line text starts', () => {
    const { out, sawCarriageReturn } = read('a\r\n  b\rc\n\n \t\nd');
    expect(out.map(([line, first]) => [line, first])).toEqual([
      ['a', 0],
      ['  b', 2],
      ['c', 0],
      ['', 0],
      [' \t', 2],
      ['d', 0],
    ]);
    expect(sawCarriageReturn).toBe(true);
    expect(read('a\nb').sawCarriageReturn).toBe(false);
  });

  it('has no empty last line after a final line ending; an empty text has no line', () => {
    expect(read('a\n').out.map(([line]) => line)).toEqual(['a']);
    expect(read('a\r\n\r\n').out.map(([line]) => line)).toEqual(['a', '']);
    expect(read('').out).toEqual([]);
    expect(read('\ufeffa\nb', 1).out.map(([line]) => line)).toEqual(['a', 'b']);
  });

  it('gives the next line start after a line end found by the caller', () => {
    expect(lineAfter('ab\r\ncd', 2)).toBe(4);
    expect(lineAfter('ab\rcd', 2)).toBe(3);
    expect(lineAfter('ab\ncd', 2)).toBe(3);
    expect(lineAfter('ab', 2)).toBe(3);
    const lines = new LineReader('x\r\ny\nz');
    expect([lines.lineEnd(0), lines.lineEnd(3), lines.lineEnd(5)]).toEqual([1, 4, 6]);
  });
});
