/**
 * What a static source checks of a page before it serves any of its text as evidence: the text is the
 * one the export wrote (its SHA-256 is the `textSha256` that `files.json` and the page shards carry),
 * and its sections' ranges cut it into a tree (each range inside the text and inside its parent's,
 * siblings in order, not overlapping). A page that fails is refused, never served with wrong text.
 */
import { pageTextDigest } from './bundleFormat.js';

/** A page's sections as the check needs them: each one's parent (its index, `-1` at top level). */
export interface PageShape {
  /** The page text's digest as the bundle records it (anything: the bundle's word). */
  readonly textSha256: unknown;
  /** Each section's parent index, in source order (`-1`: top level). */
  readonly parents: readonly number[];
  /** Each section's `[start, end)`, parallel to `parents` (the bundle's word). */
  readonly ranges: readonly unknown[];
}

/** Whether `value` is an integer in `[low, high]`. */
const within = (value: unknown, low: number, high: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= low && (value as number) <= high;

/**
 * Why the section ranges do not cut `length` code units into a tree, or `undefined` when they do.
 * Linear in the sections.
 */
export function rangesProblem(length: number, shape: PageShape): string | undefined {
  const { parents, ranges } = shape;
  if (ranges.length !== parents.length)
    return `has ${parents.length} sections but ${ranges.length} ranges`;
  // Where the next child of each section (and of the page, key `-1`) may start.
  const next = new Map<number, number>([[-1, 0]]);
  for (let i = 0; i < parents.length; i++) {
    const parent = parents[i]!;
    const range = ranges[i];
    if (!Number.isSafeInteger(parent) || parent < -1 || parent >= i)
      return `has a section (number ${i}) whose parent is not a section before it`;
    const [low, high] = parent === -1 ? [0, length] : (ranges[parent] as readonly [number, number]);
    if (
      !Array.isArray(range) ||
      range.length !== 2 ||
      !within(range[0], next.get(parent)!, high) ||
      !within(range[1], range[0] as number, high) ||
      (range[0] as number) < low
    )
      return `has a section range (${JSON.stringify(range)} of section number ${i}) outside its parent's or before its previous sibling's, in a text of ${length} characters`;
    next.set(parent, range[1] as number);
    next.set(i, range[0] as number);
  }
  return undefined;
}

/**
 * Why `text` is not the page the bundle describes, or `undefined` when it is: a missing digest (an
 * export older than the check), a digest that does not match, or ranges that do not cut it into a
 * tree.
 *
 * @param text - the page file's text as read.
 * @param shape - the digest and sections the bundle records for it.
 * @returns the reason, as the end of a sentence naming the file.
 */
export async function pageTextProblem(text: string, shape: PageShape): Promise<string | undefined> {
  if (typeof shape.textSha256 !== 'string')
    return 'has no digest of its text in the bundle (`textSha256`, which exports from this version on carry), so it cannot be checked and is not served';
  if ((await pageTextDigest(text)) !== shape.textSha256)
    return 'does not match the digest of its text in the bundle (`textSha256`): it was changed after the export, or is of another export';
  return rangesProblem(text.length, shape);
}
