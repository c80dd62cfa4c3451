/**
 * The explicit ID a docs-site heading writes after its text, in the three forms generators use:
 * `## Title {#id}` or `{#id .class}` (VitePress, Docusaurus, Pandoc, kramdown), `## Title {/*id*\/}`
 * (react.dev's MDX comment) and `# Title { #id .class key=value }` (MkDocs `attr_list`, with quoted
 * values such as `data-toc-label="Two words"`, and the ID also written `id="9.7.6"`). The ID syntax
 * is not part of the heading's text. One backward scan from the end of the heading; no
 * regular expression runs on the author's text.
 */
import {
  APOSTROPHE,
  BACKSLASH,
  CLOSE_BRACE,
  DEL,
  EQUALS,
  HASH,
  OPEN_BRACE,
  PERIOD,
  QUOTATION_MARK,
  SPACE,
  isSpaceOrTab,
} from './chars.js';

/** A heading's raw inline text split into its text and the explicit ID it writes, if any. */
export interface HeadingIdSplit {
  /** The inline text without the trailing ID syntax, trailing spaces removed. */
  readonly text: string;
  /** The explicit ID, or `undefined` when the heading writes none. */
  readonly id: string | undefined;
}

/** True for a character allowed in an explicit ID: anything but whitespace, braces and quotes. */
function isIdChar(c: number): boolean {
  return (
    c > SPACE &&
    c !== OPEN_BRACE &&
    c !== CLOSE_BRACE &&
    c !== QUOTATION_MARK &&
    c !== APOSTROPHE &&
    c !== DEL
  );
}

/** The ID of an MDX comment group's inside (`/*id*\/`, spaces allowed around the ID), or `undefined`. */
function commentId(inner: string): string | undefined {
  if (!inner.startsWith('/*') || !inner.endsWith('*/') || inner.length < 4) return undefined;
  const id = inner.slice(2, -2).trim();
  if (id.length === 0) return undefined;
  for (let i = 0; i < id.length; i++) if (!isIdChar(id.charCodeAt(i))) return undefined;
  return id;
}

/**
 * The ID of an attribute list's inside (`#id .class key=value`, in any order, at most one `#id`),
 * or `undefined` when it holds no `#id` or a part that is not an attribute.
 */
function attributeId(inner: string): string | undefined {
  let id: string | undefined;
  let i = 0;
  const n = inner.length;
  while (i < n) {
    while (i < n && isSpaceOrTab(inner.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpaceOrTab(inner.charCodeAt(i))) {
      const c = inner.charCodeAt(i);
      if (
        (c === QUOTATION_MARK || c === APOSTROPHE) /* a quoted value: key="two words" */ &&
        inner.charCodeAt(i - 1) === EQUALS
      ) {
        const close = inner.indexOf(inner[i] ?? '', i + 1);
        if (close < 0) return undefined;
        i = close + 1;
      } else i++;
    }
    const part = inner.slice(start, i);
    const head = part.charCodeAt(0);
    if (head === HASH) {
      if (id !== undefined || part.length < 2) return undefined;
      for (let k = 1; k < part.length; k++) if (!isIdChar(part.charCodeAt(k))) return undefined;
      id = part.slice(1);
    } else if (head === PERIOD) {
      if (part.length < 2) return undefined;
    } else {
      const eq = part.indexOf('=');
      if (eq <= 0) return undefined;
      if (eq === 2 && part.startsWith('id')) {
        // `id="9.7.6"` (or unquoted) names the ID as `#9.7.6` does.
        const quote = part.charCodeAt(3);
        const value =
          quote === QUOTATION_MARK || quote === APOSTROPHE
            ? part.slice(4, part.length - 1)
            : part.slice(3);
        if (id !== undefined || value.length === 0) return undefined;
        for (let k = 0; k < value.length; k++) if (!isIdChar(value.charCodeAt(k))) return undefined;
        id = value;
      }
    }
  }
  return id;
}

/**
 * Splits a heading's inline text (as the block scanner gives it, closing `#`s removed) into its text
 * and the explicit ID written at its end. A brace group that is not one of the three forms, or that
 * holds no ID, is left in the text. Linear in the heading's length.
 *
 * @param raw - the heading's inline text.
 * @returns the text without the ID syntax, and the ID.
 * @example
 * ```ts
 * splitHeadingId('Props {#props}'); // { text: 'Props', id: 'props' }
 * splitHeadingId('Reference {/*reference*\/}'); // { text: 'Reference', id: 'reference' }
 * splitHeadingId('First Steps { #first-steps }'); // { text: 'First Steps', id: 'first-steps' }
 * splitHeadingId('Use {curly} braces'); // { text: 'Use {curly} braces', id: undefined }
 * ```
 */
export function splitHeadingId(raw: string): HeadingIdSplit {
  let end = raw.length;
  while (end > 0 && isSpaceOrTab(raw.charCodeAt(end - 1))) end--;
  if (end === 0 || raw.charCodeAt(end - 1) !== CLOSE_BRACE)
    return { text: raw.slice(0, end), id: undefined };
  const open = raw.lastIndexOf('{', end - 1);
  if (open < 0 || (open > 0 && raw.charCodeAt(open - 1) === BACKSLASH) /* escaped \{ */) {
    return { text: raw.slice(0, end), id: undefined };
  }
  const inner = raw.slice(open + 1, end - 1);
  const trimmed = inner.trim();
  const id = trimmed.startsWith('/*') ? commentId(trimmed) : attributeId(trimmed);
  if (id === undefined) return { text: raw.slice(0, end), id: undefined };
  let textEnd = open;
  while (textEnd > 0 && isSpaceOrTab(raw.charCodeAt(textEnd - 1))) textEnd--;
  return { text: raw.slice(0, textEnd), id };
}
