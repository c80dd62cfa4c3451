/**
 * Character codes and the small character tests every block construct shares. Internal to
 * `src/markdown`.
 */

export const TAB = 9;
export const SPACE = 32;
export const BANG = 33;
export const HASH = 35;
export const STAR = 42;
export const PLUS = 43;
export const DASH = 45;
export const SLASH = 47;
export const ZERO = 48;
export const NINE = 57;
export const COLON = 58;
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

/** Whether `c` is a space or a tab. */
export function isSpaceOrTab(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** Whether `c` is an ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** Whether `c` is an ASCII letter. */
export function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
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
