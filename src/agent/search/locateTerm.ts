import { classOf, MARK } from './charClass.js';
import { scanTokens } from './scanTokens.js';

const ASCII = /^[\u0000-\u007f]*$/;

/**
 * Where a token first occurs in original text: the text is folded piece by piece (a character with
 * its combining marks, NFKC and lower case), keeping for every folded code unit the original offset
 * it came from, and scanned with the tokenizer's own scanner. Linear in the text.
 *
 * @param text - original text (already whitespace-collapsed for excerpts).
 * @param term - a token as the tokenizer produced it.
 * @returns the code-unit range `[start, end)` in `text`, or `undefined` when the term is not there.
 */
export function locateTerm(text: string, term: string): readonly [number, number] | undefined {
  let folded: string;
  let origin: Int32Array | undefined;
  if (ASCII.test(text)) {
    folded = text.toLowerCase();
  } else {
    const pieces: string[] = [];
    const offsets: number[] = [];
    let i = 0;
    while (i < text.length) {
      const start = i;
      i += (text.codePointAt(i)! > 0xffff ? 2 : 1);
      while (i < text.length) {
        const next = text.codePointAt(i)!;
        if ((classOf(next) & MARK) === 0) break;
        i += next > 0xffff ? 2 : 1;
      }
      const piece = i - start === 1 && text.charCodeAt(start) < 0x80 ? text[start]!.toLowerCase() : text.slice(start, i).normalize('NFKC').toLowerCase();
      pieces.push(piece);
      for (let k = 0; k < piece.length; k++) offsets.push(start);
    }
    offsets.push(text.length);
    folded = pieces.join('');
    origin = Int32Array.from(offsets);
  }
  let found: readonly [number, number] | undefined;
  const first = term.charCodeAt(0);
  scanTokens(folded, (start, end) => {
    if (found !== undefined || end - start !== term.length || folded.charCodeAt(start) !== first) return;
    if (folded.startsWith(term, start)) found = origin === undefined ? [start, end] : [origin[start]!, origin[end]!];
  });
  return found;
}
