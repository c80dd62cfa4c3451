/**
 * The one line/column finder of the tests: where a needle or an index sits in a text, as the library
 * counts places (1-based lines ended by LF, CRLF or a lone CR; 1-based columns in UTF-16 code units).
 */

/** A 1-based line and UTF-16 column. */
export interface Place {
  readonly line: number;
  readonly column: number;
}

/** The place of index `at` in `text`, counting LF, CRLF and a lone CR as line ends. */
export function placeAt(text: string, at: number): Place {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

/**
 * The place of the first `needle` in `text`, plus `shift` code units (to point inside the needle).
 *
 * @throws Error when `needle` is not in `text`, so a test cannot silently check place 0.
 */
export function placeOf(text: string, needle: string, shift = 0): Place {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`placeOf: ${JSON.stringify(needle)} is not in the text`);
  return placeAt(text, at + shift);
}
