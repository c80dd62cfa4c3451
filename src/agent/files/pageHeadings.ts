/**
 * A page's headings as the tools give them: `scanHeadings` over the text `read_file` returns for the
 * whole page, each heading's text read as plain inline text (links keep their text, emphasis and
 * code marks go), and its range in code points of that text as well as in code units.
 */
import { type HeadingRange, scanHeadings } from '../../markdown/headings.js';
import { scanBlocks } from '../relations/markdownBlocks.js';
import { plainInline } from './summarize.js';

/** One heading of a page: its ID, text and depth, and its range in the whole page's text. */
export interface PageHeading {
  readonly id: string;
  readonly text: string;
  readonly depth: number;
  /** Where the range starts, in code points of the whole page's text. */
  readonly start: number;
  /** Where it ends (exclusive), in code points. */
  readonly end: number;
  /** `start` in UTF-16 code units. */
  readonly from: number;
  /** `end` in UTF-16 code units. */
  readonly to: number;
}

/**
 * The headings of a page's whole text, in page order. Linear in the text's length.
 *
 * @param text - the page's whole text (`catalog.read` of the whole document).
 * @returns the headings, `[]` for a page without one.
 * @example
 * ```ts
 * pageHeadings('# Guide\n\n## Install **now**\n').map((h) => [h.id, h.text, h.start, h.end]);
 * // [['guide', 'Guide', 0, 28], ['install-now', 'Install now', 9, 28]]
 * ```
 */
export function pageHeadings(text: string): readonly PageHeading[] {
  // Reference links (`[text][label]`) keep only their text when their label is defined.
  const labels = text.includes(']:')
    ? new Set(scanBlocks(text).definitions.map((d) => d.label))
    : undefined;
  const ranges = scanHeadings(text, (raw) => plainInline(raw, labels));
  return withCodePoints(text, ranges);
}

/**
 * The ranges with their code-point offsets: starts ascend, and every end is a later start or the
 * text's length, so one forward count gives them all.
 */
function withCodePoints(text: string, ranges: readonly HeadingRange[]): PageHeading[] {
  const pointAt = new Map<number, number>();
  let unit = 0;
  let point = 0;
  const advance = (to: number): number => {
    for (; unit < to; point++) {
      const c = text.charCodeAt(unit);
      const d = text.charCodeAt(unit + 1);
      unit += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    }
    pointAt.set(to, point);
    return point;
  };
  const starts = ranges.map((r) => advance(r.start));
  const total = advance(text.length);
  return ranges.map((r, i) => ({
    id: r.id,
    text: r.text,
    depth: r.depth,
    start: starts[i]!,
    end: r.end === text.length ? total : pointAt.get(r.end)!,
    from: r.start,
    to: r.end,
  }));
}
