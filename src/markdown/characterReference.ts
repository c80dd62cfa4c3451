/**
 * Character references as CommonMark reads them (`&amp;`, `&#123;`, `&#x1F600;`): the one decoder of
 * the package, for link destinations and titles (the agent layer's `decodeMarkdownString`), plain
 * inline text and a page's search text (`pageText`). Internal to the package.
 */
import {
  CR,
  DEL,
  HASH,
  LOWER_X,
  SEMICOLON,
  SPACE,
  TAB,
  isAlnum,
  isDigit,
  isHexDigit,
} from './chars.js';

/**
 * Named character references this decoder knows. CommonMark accepts all 2,125 HTML5 names; a page
 * path almost never holds one, so the agent layer carries only the common ones and leaves any other
 * `&name;` as written (what CommonMark does with a name it does not know).
 */
const NAMED: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
  ['copy', '©'],
  ['reg', '®'],
  ['trade', '™'],
  ['hellip', '…'],
  ['mdash', '—'],
  ['ndash', '–'],
  ['lsquo', '‘'],
  ['rsquo', '’'],
  ['ldquo', '“'],
  ['rdquo', '”'],
  ['laquo', '«'],
  ['raquo', '»'],
  ['middot', '·'],
  ['deg', '°'],
  ['times', '×'],
  ['divide', '÷'],
  ['euro', '€'],
  ['pound', '£'],
  ['yen', '¥'],
  ['cent', '¢'],
  ['sect', '§'],
  ['para', '¶'],
  ['bull', '•'],
  ['shy', '\u00ad'],
  ['auml', 'ä'],
  ['ouml', 'ö'],
  ['uuml', 'ü'],
  ['Auml', 'Ä'],
  ['Ouml', 'Ö'],
  ['Uuml', 'Ü'],
  ['szlig', 'ß'],
  ['eacute', 'é'],
  ['egrave', 'è'],
  ['aacute', 'á'],
  ['agrave', 'à'],
  ['ccedil', 'ç'],
  ['ntilde', 'ñ'],
  ['larr', '←'],
  ['rarr', '→'],
  ['uarr', '↑'],
  ['darr', '↓'],
  ['harr', '↔'],
  ['ensp', '\u2002'],
  ['emsp', '\u2003'],
  ['thinsp', '\u2009'],
  ['zwnj', '\u200c'],
  ['zwj', '\u200d'],
  ['lowbar', '_'],
  ['ast', '*'],
  ['lsqb', '['],
  ['rsqb', ']'],
  ['lbrack', '['],
  ['rbrack', ']'],
  ['lpar', '('],
  ['rpar', ')'],
  ['num', '#'],
  ['excl', '!'],
  ['quest', '?'],
  ['colon', ':'],
  ['semi', ';'],
  ['sol', '/'],
  ['bsol', '\\'],
  ['grave', '`'],
  ['Tab', '\t'],
  ['NewLine', '\n'],
]);

/** A numeric reference's character; U+FFFD for the code points CommonMark (micromark) refuses. */
function numeric(code: number): string {
  const low = code & 0xffff;
  if (
    code < TAB ||
    code === 11 /* vertical tab */ ||
    (code > CR && code < SPACE) ||
    (code >= DEL && code < 160) /* DEL and the C1 controls */ ||
    (code > 0xd7ff && code < 0xe000) ||
    (code > 0xfdcf && code < 0xfdf0) ||
    low === 0xffff ||
    low === 0xfffe ||
    code > 0x10ffff
  )
    return '\ufffd';
  return String.fromCodePoint(code);
}

/**
 * The character reference starting at `text[at] === '&'`, as `[decoded, end]`, or `undefined`.
 * Forms: `&#1234567;` (1–7 digits), `&#x10FFFF;` (1–6 hex digits), `&name;` (1–31 alphanumerics).
 */
export function characterReference(
  text: string,
  at: number,
): readonly [string, number] | undefined {
  let i = at + 1;
  if (text.charCodeAt(i) === HASH) {
    i++;
    const hex = (text.charCodeAt(i) | 0x20) === LOWER_X; // x or X (`| 0x20` folds ASCII case)
    if (hex) i++;
    const start = i;
    const max = hex ? 6 : 7;
    while (i - start < max && (hex ? isHexDigit(text.charCodeAt(i)) : isDigit(text.charCodeAt(i))))
      i++;
    if (i === start || text.charCodeAt(i) !== SEMICOLON) return undefined;
    return [numeric(Number.parseInt(text.slice(start, i), hex ? 16 : 10)), i + 1];
  }
  const start = i;
  while (i - start < 31 && isAlnum(text.charCodeAt(i))) i++;
  if (i === start || text.charCodeAt(i) !== SEMICOLON) return undefined;
  const value = NAMED.get(text.slice(start, i));
  return value === undefined ? undefined : [value, i + 1];
}
