/**
 * A page's **text**: its Markdown without the docs-site dialects' markup, for titles, headings,
 * search, excerpts and descriptions. Heading IDs (`{#id}`, `{/*id*\/}`, `{ #id }`, through
 * `splitHeadingId`), container marker lines (`::: tip Title`, `:::tip[Title]`, `:::`; the title
 * stays), MkDocs admonition markers (`!!! note "Title"`, `??? note`, `???+ note`; the title stays,
 * the body is de-indented) and, in `.mdx` pages only, ESM statements (`import`, `export`), JSX tags
 * with their attributes, `{expressions}` and `{/* comments *\/}` (text children stay). A raw
 * `<script>` or `<style>` HTML block (a VitePress page's `<script setup>`) is code, never text.
 * Inline, character references are decoded (`&lt;` is `<`) and in `.md` pages raw HTML tags and
 * comments are not text (`<Badge text="new" />`, `<kbd>`; the text between tags stays), outside
 * code spans (`inlineText`).
 *
 * One forward pass over the lines with the project's `BlockScanner`: nothing inside fenced or
 * indented code is touched (MDX has no indented code, so in `.mdx` pages only fenced code is code),
 * and containers and admonitions count only on their own lines. Removed lines keep their line
 * break, so the text has exactly the page's lines, line `n` of the text being what is left of line
 * `n` of the page (a place found in the text is on the same line of the page); it is never longer
 * than the page. Internal.
 */
import { BlockScanner } from './blockScanner.js';
import {
  CLOSE_BRACE,
  COLON,
  CR,
  DASH,
  EQUALS,
  GT,
  HASH,
  LF,
  LT,
  SPACE,
  TAB,
  isLinePrefixChar,
} from './chars.js';
import { MarkerTitle, NO_MARKER, admonitionMarker, containerMarker } from './dialectMarkers.js';
import { splitHeadingId } from './headingId.js';
import { atxText } from './leafStarts.js';
import {
  ATX_HEADING,
  FENCE_BODY,
  FENCE_OPEN,
  HTML_LINE,
  INDENTED_CODE,
  PARAGRAPH_LINE,
  PARAGRAPH_START,
  SETEXT_UNDERLINE,
} from './lineKinds.js';
import { LineReader } from './lines.js';
import { EsmReader, JsxStripper, exportedString, isEsmStart } from './mdxSyntax.js';
import {
  DECODE,
  IN_HTML_BLOCK,
  OVER_LINES,
  STRIP_HTML,
  holdsInline,
  inlineText,
} from './inlineText.js';
import { mayHoldInline } from './mayHoldInline.js';

/** A page's text and the metadata its MDX statements give. */
export interface PageText {
  /** The page's Markdown without dialect markup (the page's own string when it holds none). */
  readonly text: string;
  /** `export const title = "…"` of an `.mdx` page (a string literal), else `undefined`. */
  readonly title: string | undefined;
  /** `export const description = "…"` of an `.mdx` page, else `undefined`. */
  readonly description: string | undefined;
}

/**
 * The switch the benchmark turns off to time loading without the dialect scanner (the text is then
 * the page's own). Internal: never turned off outside the benchmark.
 */
export const dialectScanning = { enabled: true };

/**
 * Whether a page path is an MDX page's (`.mdx`), whose ESM, JSX and MDX comments are read.
 *
 * @param path - a page path or file name.
 * @returns `true` for `….mdx`.
 */
export function isMdxPath(path: string): boolean {
  return path.endsWith('.mdx');
}

/**
 * Whether a page is read as MDX: its path ends in `.mdx`, or its text begins (after blank lines,
 * where front matter was) with an ESM statement at the start of a line (`import Tabs from
 * '@theme/Tabs';`), as Docusaurus's `.md` pages, which Docusaurus compiles as MDX, do. Reads only
 * the text's first non-blank line.
 *
 * @param mdxPath - whether the page's path ends in `.mdx`.
 * @param text - the page's text, or its first text part.
 * @returns whether ESM, JSX and MDX comments are read in the page.
 * @example
 * ```ts
 * readsAsMdx(false, '\n\nimport Tabs from "@theme/Tabs";\n'); // true
 * readsAsMdx(false, '# Title\n'); // false
 * ```
 */
export function readsAsMdx(mdxPath: boolean, text: string): boolean {
  if (mdxPath) return true;
  let p = 0;
  let line = 0;
  const n = text.length;
  while (p < n) {
    const c = text.charCodeAt(p);
    if (c === LF || c === CR) line = p + 1;
    else if (c !== SPACE && c !== TAB) break;
    p++;
  }
  if (p !== line || p >= n) return false;
  let end = p;
  while (end < n && text.charCodeAt(end) !== LF && text.charCodeAt(end) !== CR) end++;
  return isEsmStart(text, p, end);
}

/**
 * A page's text without dialect markup; see the module's description.
 *
 * @param text - the page's Markdown (front matter already blanked or removed).
 * @param mdx - whether the page is MDX (`.mdx`): ESM, JSX and MDX comments are read only then.
 * @returns the text, the page's own string when nothing was removed.
 * @example
 * ```ts
 * pageText('## Props {#props}\n\n::: tip Note\nBody\n:::\n'); // '## Props\n\nNote\nBody\n\n'
 * pageText('import X from "x";\n\n<X a={1}>Hi</X>\n', true); // '\n\nHi\n'
 * pageText('## `useData` <Badge text="new" />\n\nA &amp; B\n'); // '## `useData` \n\nA & B\n'
 * ```
 */
export function pageText(text: string, mdx = false): string {
  return scanPageText(text, mdx).text;
}

/** Openings of a heading ID group: `{#id}`, `{ #id }`, `{/*id*\/}`, `{.class #id}`. */
const ID_OPENERS = ['{#', '{ #', '{/*', '{.'] as const;
/** Markers of containers, admonitions and content tabs. */
const MARKERS = [':::', '!!!', '???', '=== "', '===+', '===!', '<script', '<style'] as const;

/**
 * The end tag that closes the raw HTML block opening at `at` (`<script` or `<style`, any case, then a
 * blank, `>` or the line's end: CommonMark's first kind of HTML block), or `undefined`.
 */
function rawBlockEnd(text: string, at: number, end: number): string | undefined {
  for (const name of ['script', 'style']) {
    const after = at + 1 + name.length;
    if (
      after <= end &&
      text.charCodeAt(at) === LT &&
      text.slice(at + 1, after).toLowerCase() === name &&
      (after === end || text.charCodeAt(after) === GT || text.charCodeAt(after) <= SPACE)
    )
      return `</${name}>`;
  }
  return undefined;
}

/**
 * Whether `text` can hold any dialect that `.md` pages have: a heading ID's opening on a line that
 * starts with `#` (or is followed by a setext underline) and ends with `}`, or a container's,
 * admonition's or content tab's marker after nothing but blanks, `>`, `:` or a list marker on its
 * line. Each `indexOf` hit costs its line, and the search goes on after that line, so this is
 * linear, and the many pages whose `{#` or `===` are code skip the line scan.
 */
function mayHoldDialect(text: string): boolean {
  for (const opener of ID_OPENERS) {
    let at = text.indexOf(opener);
    while (at >= 0) {
      const start = lineStartOf(text, at);
      const end = lineEndOf(text, at);
      if (
        endsWithBrace(text, at, end) &&
        (startsWithHash(text, start, at) || underlined(text, end))
      )
        return true;
      at = text.indexOf(opener, end);
    }
  }
  for (const marker of MARKERS) {
    let at = text.indexOf(marker);
    while (at >= 0) {
      if (onlyPrefix(text, lineStartOf(text, at), at)) return true;
      at = text.indexOf(marker, lineEndOf(text, at));
    }
  }
  return false;
}

function lineStartOf(text: string, at: number): number {
  let p = at;
  while (p > 0) {
    const c = text.charCodeAt(p - 1);
    if (c === LF || c === CR) break;
    p--;
  }
  return p;
}

function lineEndOf(text: string, at: number): number {
  let p = at;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if (c === LF || c === CR) break;
    p++;
  }
  return p;
}

/** Whether the line's last non-blank character in `[at, end)` is `}`. */
function endsWithBrace(text: string, at: number, end: number): boolean {
  let p = end;
  while (p > at && (text.charCodeAt(p - 1) === SPACE || text.charCodeAt(p - 1) === TAB)) p--;
  return p > at && text.charCodeAt(p - 1) === CLOSE_BRACE;
}

/** Whether the line's first non-blank character (before `at`, after `>` markers) is `#`. */
function startsWithHash(text: string, start: number, at: number): boolean {
  for (let p = start; p < at; p++) {
    const c = text.charCodeAt(p);
    if (c === HASH) return true;
    if (c !== SPACE && c !== TAB && c !== GT) return false;
  }
  return false;
}

/** Whether the line after `end` starts (after blanks) with `=` or `-`: maybe a setext underline. */
function underlined(text: string, end: number): boolean {
  let p = end + 1;
  if (text.charCodeAt(end) === CR && text.charCodeAt(p) === LF) p++;
  while (p < text.length && (text.charCodeAt(p) === SPACE || text.charCodeAt(p) === TAB)) p++;
  const c = text.charCodeAt(p);
  return c === EQUALS || c === DASH;
}

/** Whether `[start, at)` holds only blanks, `>`, `:` and list markers (`-`, `*`, `+`, digits, `.`, `)`). */
function onlyPrefix(text: string, start: number, at: number): boolean {
  for (let p = start; p < at; p++) {
    const c = text.charCodeAt(p);
    // `:` too: a container's marker (`:::`).
    if (!isLinePrefixChar(c) && c !== COLON) return false;
  }
  return true;
}

/** The column after the blanks of `[start, to)` (tabs to the next multiple of 4). */
function columnOf(text: string, start: number, to: number): number {
  let col = 0;
  for (let p = start; p < to; p++) col = text.charCodeAt(p) === TAB ? col + 4 - (col % 4) : col + 1;
  return col;
}

/** Where `columns` columns of blanks from `start` end, at most at `first`. */
function skipColumns(text: string, start: number, first: number, columns: number): number {
  let col = 0;
  let p = start;
  while (p < first && col < columns) {
    const c = text.charCodeAt(p);
    if (c === TAB) col += 4 - (col % 4);
    else if (c === SPACE) col++;
    else break;
    p++;
  }
  return p;
}

const NO_TEXT: PageText = { text: '', title: undefined, description: undefined };

/**
 * A page's text and its MDX metadata (`export const title` / `description`); see `pageText`.
 * Linear in the page's length.
 *
 * @param text - the page's Markdown.
 * @param mdx - whether the page is MDX.
 * @param decode - whether character references are decoded: `false` for a reader that decodes
 *   them itself (titles and descriptions read each inline text as plain text, which decodes once).
 * @param quick - whether a `.md` page that the quick tests (`mayHoldDialect`, `mayHoldInline`) show
 *   to hold nothing to remove is returned unscanned; `false` (for tests) always scans.
 * @returns the text and metadata.
 */
export function scanPageText(text: string, mdx: boolean, decode = true, quick = true): PageText {
  if (text.length === 0) return NO_TEXT;
  if (
    !dialectScanning.enabled ||
    (quick && !mdx && !mayHoldDialect(text) && !mayHoldInline(text, decode))
  )
    return { text, title: undefined, description: undefined };
  return new PageTextScan(text, mdx, decode).run();
}

/** One pass of `scanPageText`. */
class PageTextScan {
  private readonly out: string[] = [];
  /** The page's text before this is on `out` (or dropped). */
  private copied = 0;
  private blocks: BlockScanner;
  private readonly jsx: JsxStripper | undefined;
  private readonly marker = new MarkerTitle();
  private title: string | undefined;
  private description: string | undefined;
  /** `inlineText`'s flags for this page: raw HTML in `.md` pages, references when decoding. */
  private readonly inline: number;
  /** Where a tag that began on a line before ends (the text up to there is inside it), or -1. */
  private carry = -1;
  /** Where a code span that began on a line before ends (the text up to there is code), or -1. */
  private code = -1;

  constructor(
    private readonly text: string,
    private readonly mdx: boolean,
    decode: boolean,
  ) {
    this.blocks = new BlockScanner(text);
    this.jsx = mdx ? new JsxStripper() : undefined;
    this.inline = (mdx ? 0 : STRIP_HTML) | (decode ? DECODE : 0);
  }

  /** Replaces `[from, to)` of the page by `piece`. */
  private replace(from: number, to: number, piece: string): void {
    if (from > this.copied) this.out.push(this.text.slice(this.copied, from));
    if (piece.length > 0) this.out.push(piece);
    this.copied = to;
  }

  /**
   * The text of `[at, end)` with JSX removed (`.mdx`), or raw HTML (`.md`), references decoded, the
   * rest of the line up to `drop` dropped. `over`: whether a tag may go on over the next lines
   * (`OVER_LINES`: a paragraph's line; with `IN_HTML_BLOCK`, an HTML block's; 0: a heading's).
   */
  private textLine(at: number, end: number, drop: number, over = OVER_LINES): void {
    const text = this.text;
    const flags = this.inline;
    if (this.carry >= 0) {
      // The rest of a tag that began on a line before.
      if (this.carry > at) {
        const to = Math.min(this.carry, end);
        this.replace(at, to, '');
        at = to;
      }
      if (this.carry > end) {
        if (drop > end) this.replace(end, drop, '');
        return;
      }
      this.carry = -1;
    }
    if (this.code >= 0) {
      // The rest of a code span that began on a line before: as written.
      if (this.code > end) {
        if (drop > end) this.replace(end, drop, '');
        return;
      }
      at = Math.max(at, this.code);
      this.code = -1;
    }
    const jsx = this.jsx;
    if (jsx !== undefined && !jsx.untouched(text, at, end)) {
      this.replace(at, at, '');
      const first = this.out.length;
      jsx.line(text, at, end, this.out);
      if ((flags & DECODE) !== 0) this.decodePieces(first);
      this.copied = drop;
      return;
    }
    if (flags !== 0 && holdsInline(text, at, end, flags | over)) {
      this.replace(at, at, '');
      const carry = inlineText(text, at, end, flags | over, this.out);
      if (carry > end) this.carry = carry;
      else if (carry < -1) this.code = -carry;
      this.copied = drop;
      return;
    }
    if (drop > end) this.replace(end, drop, '');
  }

  /** The pieces on `out` from `first` on (JSX already removed), character references decoded. */
  private decodePieces(first: number): void {
    const out = this.out;
    const last = out.length;
    for (let i = first; i < last; i++) {
      const piece = out[i]!;
      if (!holdsInline(piece, 0, piece.length, DECODE)) continue;
      const decoded: string[] = [];
      inlineText(piece, 0, piece.length, DECODE, decoded);
      out[i] = decoded.join('');
    }
  }

  /** A marker line's replacement: its title, in the line's place (the text keeps the page's lines). */
  private markerLine(at: number, end: number): void {
    const { titleStart, titleEnd } = this.marker;
    this.replace(at, end, this.text.slice(titleStart, titleEnd).trim());
  }

  /** An ESM line: dropped; `export const title/description = '…'` read. */
  private esmLine(esm: EsmReader, start: number, first: number, end: number): void {
    const text = this.text;
    if (esm.closed && text.startsWith('export', first)) {
      this.title ??= exportedString(text, first, end, 'title');
      this.description ??= exportedString(text, first, end, 'description');
    }
    esm.line(text, first, end);
    this.replace(start, end, '');
  }

  run(): PageText {
    const text = this.text;
    const lines = new LineReader(text);
    const mdx = this.mdx;
    const jsx = this.jsx;
    const marker = this.marker;
    let esm: EsmReader | undefined;
    /** Admonition bodies' columns, innermost last. */
    const bodies: number[] = [];
    /** The end tag of the raw `<script>`/`<style>` block being dropped. */
    let raw: string | undefined;
    // The last paragraph line, when it was left as it is: a setext underline may make it a heading.
    let paraAt = -1;
    let paraEnd = -1;
    while (lines.read()) {
      const start = lines.start;
      const end = lines.end;
      const first = lines.first;
      if (esm !== undefined) {
        if (first === end && esm.closed) {
          esm = undefined;
          this.blocks = new BlockScanner(text);
        } else this.esmLine(esm, start, first, end);
        continue;
      }
      let from = start;
      if (bodies.length > 0) {
        if (first < end) {
          const col = columnOf(text, start, first);
          while (bodies.length > 0 && col < bodies[bodies.length - 1]!) {
            bodies.pop();
            this.blocks = new BlockScanner(text);
          }
        }
        if (bodies.length > 0) {
          from = skipColumns(text, start, first, bodies[bodies.length - 1]!);
          if (from > start) this.replace(start, from, '');
        }
      }
      const blocks = this.blocks;
      blocks.contentAt = -1;
      const kind = blocks.line(from, end, first, lines.code);
      // Inside a JSX tag or expression, the line is JSX from its start (a `>` is no block quote).
      const at = jsx?.open === true ? from : blocks.contentAt < 0 ? first : blocks.contentAt;
      const wasPara = paraAt;
      paraAt = -1;
      if (kind !== HTML_LINE) raw = undefined;
      else if (raw !== undefined || (raw = rawBlockEnd(text, at, end)) !== undefined) {
        // A script or style block is code: dropped, its lines kept empty, up to its end tag.
        const closes = text.slice(at, end).toLowerCase().includes(raw);
        this.replace(at, end, '');
        if (closes) raw = undefined;
        continue;
      }
      if (kind === FENCE_OPEN || kind === FENCE_BODY || (kind === INDENTED_CODE && !mdx)) {
        jsx?.reset();
        this.carry = -1;
        this.code = -1;
        continue;
      }
      if (kind === PARAGRAPH_START || kind === PARAGRAPH_LINE || kind === HTML_LINE) {
        if (
          kind === PARAGRAPH_START &&
          mdx &&
          bodies.length === 0 &&
          at === start &&
          isEsmStart(text, at, end)
        ) {
          esm = new EsmReader();
          this.esmLine(esm, start, first, end);
          continue;
        }
        if (containerMarker(text, at, end, marker) !== NO_MARKER) {
          this.markerLine(at, end);
          continue;
        }
        const admonition = kind === HTML_LINE ? NO_MARKER : admonitionMarker(text, at, end, marker);
        if (admonition !== NO_MARKER) {
          bodies.push(columnOf(text, start, admonition) + 4);
          this.markerLine(at, end);
          this.blocks = new BlockScanner(text);
          continue;
        }
        const before = this.copied;
        this.textLine(at, end, end, kind === HTML_LINE ? OVER_LINES | IN_HTML_BLOCK : OVER_LINES);
        if (kind !== HTML_LINE && this.copied === before) {
          paraAt = at;
          paraEnd = end;
        }
      } else if (kind === ATX_HEADING) {
        const [from, to] = atxText(text, at, end);
        const split = splitHeadingId(text.slice(from, to));
        if (split.id !== undefined) this.textLine(from, from + split.text.length, end, 0);
        else this.textLine(from, end, end, 0);
      } else if (kind === SETEXT_UNDERLINE) {
        if (wasPara >= 0 && this.copied <= wasPara) {
          const split = splitHeadingId(text.slice(wasPara, paraEnd));
          if (split.id !== undefined) this.replace(wasPara, paraEnd, split.text);
        }
      } else if (jsx !== undefined) this.textLine(at, end, end);
    }
    if (this.out.length === 0 && this.copied === 0)
      return { text, title: this.title, description: this.description };
    if (this.copied < text.length) this.out.push(text.slice(this.copied));
    return { text: this.out.join(''), title: this.title, description: this.description };
  }
}
