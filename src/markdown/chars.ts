/**
 * Character codes and the character classes of Markdown's grammar, defined once: the block scanner,
 * the link and HTML syntax, the anchor parser, the inline scanner and page summaries of the agent
 * layer, page paths and the command line read them, and none writes a code as a number of its own.
 * A named `const` compiles to the same comparison as the literal. Internal to the package.
 */

/** Horizontal tab (`\t`). */
export const TAB = 9;
/** Line feed (`\n`). */
export const LF = 10;
/** Carriage return (`\r`). */
export const CR = 13;
/** Space. */
export const SPACE = 32;
/** Exclamation mark (`!`). */
export const BANG = 33;
/** Quotation mark (`"`). */
export const QUOTATION_MARK = 34;
/** Number sign (`#`). */
export const HASH = 35;
/** Dollar sign (`$`). */
export const DOLLAR = 36;
/** Ampersand (`&`). */
export const AMPERSAND = 38;
/** Apostrophe (`'`). */
export const APOSTROPHE = 39;
/** Left parenthesis (`(`). */
export const OPEN_PAREN = 40;
/** Right parenthesis (`)`). */
export const CLOSE_PAREN = 41;
/** Asterisk (`*`). */
export const STAR = 42;
/** Plus sign (`+`). */
export const PLUS = 43;
/** Comma (`,`). */
export const COMMA = 44;
/** Hyphen-minus (`-`). */
export const DASH = 45;
/** Full stop (`.`). */
export const PERIOD = 46;
/** Solidus (`/`). */
export const SLASH = 47;
/** Digit zero (`0`). */
export const ZERO = 48;
/** Digit one (`1`). */
export const ONE = 49;
/** Digit nine (`9`). */
export const NINE = 57;
/** Colon (`:`). */
export const COLON = 58;
/** Semicolon (`;`). */
export const SEMICOLON = 59;
/** Less-than sign (`<`). */
export const LT = 60;
/** Equals sign (`=`). */
export const EQUALS = 61;
/** Greater-than sign (`>`). */
export const GT = 62;
/** Question mark (`?`). */
export const QUESTION = 63;
/** Commercial at (`@`). */
export const AT = 64;
/** Latin capital letter A. */
export const UPPER_A = 65;
/** Latin capital letter Z. */
export const UPPER_Z = 90;
/** Left square bracket (`[`). */
export const OPEN_BRACKET = 91;
/** Reverse solidus (`\\`). */
export const BACKSLASH = 92;
/** Right square bracket (`]`). */
export const CLOSE_BRACKET = 93;
/** Low line (`_`). */
export const UNDERSCORE = 95;
/** Grave accent (`` ` ``). */
export const BACKTICK = 96;
/** Latin small letter a. */
export const LOWER_A = 97;
/** Latin small letter n (`\n` in an escape). */
export const LOWER_N = 110;
/** Latin small letter t (`\t` in an escape). */
export const LOWER_T = 116;
/** Latin small letter x (a hexadecimal character reference's `&#x`). */
export const LOWER_X = 120;
/** Latin small letter z. */
export const LOWER_Z = 122;
/** Left curly bracket (`{`). */
export const OPEN_BRACE = 123;
/** Right curly bracket (`}`). */
export const CLOSE_BRACE = 125;
/** Tilde (`~`). */
export const TILDE = 126;
/** DEL, the last ASCII control character. */
export const DEL = 127;
/** No-break space (U+00A0). */
export const NBSP = 0xa0;
/** Line separator (U+2028), a line terminator to JavaScript and to JSON readers. */
export const LINE_SEPARATOR = 0x2028;
/** Paragraph separator (U+2029), a line terminator to JavaScript and to JSON readers. */
export const PARAGRAPH_SEPARATOR = 0x2029;
/** En dash (`–`, U+2013). */
export const EN_DASH = 0x2013;
/** Em dash (`—`, U+2014). */
export const EM_DASH = 0x2014;
/** The byte order mark (U+FEFF), which a text may start with and which is then no character of it. */
export const BOM = 0xfeff;

/** Whether `c` is a space or a tab. */
export function isSpaceOrTab(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * Whether `c` can stand in a line's prefix before its content: a space or tab, `>` (a block quote) or
 * a list marker (`-`, `*`, `+`, or an ordered list's digits and `.` or `)`).
 */
export function isLinePrefixChar(c: number): boolean {
  return (
    c === SPACE ||
    c === TAB ||
    c === GT ||
    c === DASH ||
    c === STAR ||
    c === PLUS ||
    c === PERIOD ||
    c === CLOSE_PAREN ||
    (c >= ZERO && c <= NINE)
  );
}

/** Whether `c` is an ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** Whether `c` is an ASCII letter. */
export function isAlpha(c: number): boolean {
  return (c >= UPPER_A && c <= UPPER_Z) || (c >= LOWER_A && c <= LOWER_Z);
}

/** Whether `c` is an ASCII letter or digit. */
export function isAlnum(c: number): boolean {
  return isAlpha(c) || isDigit(c);
}

/** Whether `c` may go on a URL scheme after its first letter: a letter, a digit, `+`, `-` or `.`. */
export function isSchemeChar(c: number): boolean {
  return isAlnum(c) || c === PLUS || c === DASH || c === PERIOD;
}

/** Whether `c` is an ASCII hexadecimal digit. */
export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Whether `c` is ASCII punctuation: the characters a backslash escapes. */
export function isAsciiPunctuation(c: number): boolean {
  return (
    (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
  );
}

/**
 * Whether `c` is a space, a tab or a line ending: the whitespace of link syntax and HTML tags
 * (micromark's `markdownLineEndingOrSpace`), which may span the lines of a paragraph.
 */
export function isSpaceOrLineEnding(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

/** `text[from]` onwards past spaces and tabs, up to `end`. */
export function skipSpaceOrTab(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && isSpaceOrTab(text.charCodeAt(i))) i++;
  return i;
}

/** `text[from]` onwards past spaces, tabs and line endings, up to `end`. */
export function skipSpaceOrLineEnding(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && isSpaceOrLineEnding(text.charCodeAt(i))) i++;
  return i;
}

/** Whether `[from, to)` holds no tab. */
export function noTab(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === TAB) return false;
  return true;
}

/** Whether `[from, end)` holds only spaces and tabs. */
export function onlySpaceOrTab(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** Whether `[from, end)` holds the character `code`. */
export function contains(text: string, from: number, end: number, code: number): boolean {
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === code) return true;
  return false;
}

/** Whether `[from, end)` contains `pattern`, reading no further than `end`. */
export function has(text: string, from: number, end: number, pattern: string): boolean {
  const first = pattern.charCodeAt(0);
  for (let i = from; i + pattern.length <= end; i++) {
    if (text.charCodeAt(i) === first && text.startsWith(pattern, i)) return true;
  }
  return false;
}

/**
 * Whether `c` is a JavaScript whitespace code unit (what `\s` matches and `String.prototype.trim`
 * removes: the space, tab, line breaks, no-break spaces, the Unicode space separators and the byte
 * order mark).
 */
export function isWhitespaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  // CJK text: past U+3000, only the byte order mark.
  if (c > 0x3000) return c === 0xfeff;
  if (c < 0x1680) return c === 0xa0;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
