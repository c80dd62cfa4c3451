/**
 * Decoding of Markdown "string" content (link destinations, titles, labels): backslash escapes and
 * character references, as CommonMark (and remark's `node.url`) decodes them. No percent-encoding is
 * added or removed. Linear: one pass with `indexOf`.
 */
import { AMPERSAND, BACKSLASH, isAsciiPunctuation } from '../../markdown/chars.js';
import { characterReference } from '../../markdown/characterReference.js';

/** `text[start, end)` with backslash escapes and character references decoded. */
export function decodeMarkdownString(text: string, start = 0, end = text.length): string {
  let out = '';
  let last = start;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH && i + 1 < end && isAsciiPunctuation(text.charCodeAt(i + 1))) {
      out += text.slice(last, i);
      last = i + 1; // keep the escaped character
      i += 2;
    } else if (c === AMPERSAND) {
      const ref = characterReference(text, i);
      if (ref !== undefined && ref[1] <= end) {
        out += text.slice(last, i) + ref[0];
        last = i = ref[1];
      } else i++;
    } else i++;
  }
  return last === start ? text.slice(start, end) : out + text.slice(last, end);
}
