/**
 * Character codes and the character classes of Markdown's grammar, defined once: the block scanner,
 * the link and HTML syntax and the inline scanner of the agent layer read them. Internal to the
 * package.
 */

export const TAB = 9;
/** Line feed. */
export const LF = 10;
/** Carriage return. */
export const CR = 13;
export const SPACE = 32;
export const BANG = 33;
export const QUOTATION_MARK = 34;
export const HASH = 35;
export const AMPERSAND = 38;
export const APOSTROPHE = 39;
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const STAR = 42;
export const PLUS = 43;
export const DASH = 45;
export const SLASH = 47;
export const ZERO = 48;
export const NINE = 57;
export const COLON = 58;
export const SEMICOLON = 59;
export const LT = 60;
export const EQUALS = 61;
export const GT = 62;
export const QUESTION = 63;
export const OPEN_BRACKET = 91;
export const BACKSLASH = 92;
export const CLOSE_BRACKET = 93;
export const UNDERSCORE = 95;
export const BACKTICK = 96;
export const TILDE = 126;
/** DEL, the last ASCII control character. */
export const DEL = 127;

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
    c === 0x3e ||
    c === 0x2d ||
    c === 0x2a ||
    c === 0x2b ||
    c === 0x2e ||
    c === 0x29 ||
    (c >= 0x30 && c <= 0x39)
  );
}

/** Whether `c` is an ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** Whether `c` is an ASCII letter. */
export function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Whether `c` is an ASCII letter or digit. */
export function isAlnum(c: number): boolean {
  return isAlpha(c) || isDigit(c);
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
