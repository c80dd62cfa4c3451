/**
 * The headings of a page as its search chunks see them: for each chunk (in `documentChunks` order),
 * every heading whose range meets the chunk, its range in the chunk's own code units, so that a hit
 * names the innermost heading that holds its match and takes its excerpt from that range only.
 */
import type { KnowledgeDocument, KnowledgePart } from '../../types.js';
import { firstAtLeast } from '../../shared/sortedSearch.js';
import { pageHeadings } from '../files/pageHeadings.js';
import { isFunctionWord } from './functionWords.js';
import { indexTokens } from './indexTokens.js';
import type { SearchChunkHeading, SearchChunk } from './port.js';

/** The string parts of a chunk: the section's (or the document's) own strings, in order. */
interface ChunkParts {
  readonly strings: string[];
}

/** The innermost heading of `headings` (one chunk's) whose range holds `at`, or `null`. */
export function headingAt(
  headings: readonly SearchChunkHeading[],
  at: number,
): SearchChunkHeading | null {
  for (let i = headings.length - 1; i >= 0; i--) {
    const h = headings[i]!;
    if (h.from <= at && at < h.to) return h;
  }
  return null;
}

const NONE: readonly SearchChunkHeading[] = Object.freeze([]);

/** How alike a heading's words and the query's must be for the query to name it (their Jaccard). */
export const NAMES_HEADING = 2 / 3;

/** Whether a folded token is CJK (a bigram or a character of Han, Kana or Hangul). */
const isCjk = (token: string): boolean => token.charCodeAt(0) >= 0x2e80;

/** Each heading's distinct words but function words, read once per heading object. */
const WORDS = new WeakMap<SearchChunkHeading, readonly string[]>();

/** A heading's distinct index tokens but function words (`headingNamed`), cached per heading. */
function headingWords(h: SearchChunkHeading): readonly string[] {
  let words = WORDS.get(h);
  if (words === undefined) {
    const set = new Set<string>();
    indexTokens(h.text, (token, cjk) => {
      if (!isFunctionWord(token, cjk)) set.add(token);
    });
    words = [...set];
    WORDS.set(h, words);
  }
  return words;
}

/** Each heading's words of a chunk's heading list, read once per list object. */
const LIST_WORDS = new WeakMap<readonly SearchChunkHeading[], readonly (readonly string[])[]>();

/** `headingWords` of each heading of `headings`, cached per list (one look-up per call). */
function listWords(headings: readonly SearchChunkHeading[]): readonly (readonly string[])[] {
  let lists = LIST_WORDS.get(headings);
  if (lists === undefined) {
    lists = headings.map(headingWords);
    LIST_WORDS.set(headings, lists);
  }
  return lists;
}

/** For each word of a chunk's heading list, the headings holding it (ascending), read once per list. */
const LIST_INDEX = new WeakMap<readonly SearchChunkHeading[], ReadonlyMap<string, number[]>>();

/** The headings of `headings` holding each word (`listWords`, inverted), cached per list. */
function listIndex(headings: readonly SearchChunkHeading[]): ReadonlyMap<string, number[]> {
  let index = LIST_INDEX.get(headings);
  if (index === undefined) {
    const built = new Map<string, number[]>();
    listWords(headings).forEach((words, i) => {
      for (const word of words) {
        const list = built.get(word);
        if (list === undefined) built.set(word, [i]);
        else list.push(i);
      }
    });
    index = built;
    LIST_INDEX.set(headings, index);
  }
  return index;
}

/**
 * The heading of `headings` (one chunk's) that the query names: the one whose words (its index
 * tokens but function words) are most like `terms`, the query's words that the chunk holds, by
 * their Jaccard index, when that is at least `NAMES_HEADING` (`Custom anchors` for the query
 * `custom anchors`, or `vitepress custom anchors`); on a tie, the first in page order. `null` when
 * none is that alike. Reads each heading's short text once (its words, and which headings hold
 * each word, are kept with the list): a call looks up the query's words, not every heading's.
 *
 * @param headings - a chunk's headings (`chunkHeadings`).
 * @param terms - the query's tokens found in the chunk (`LexicalFile.bestTerms`).
 * @returns the heading named, or `null`.
 * @example
 * ```ts
 * headingNamed([{ id: 'props', text: 'Props', from: 0, to: 9 }], ['props']); // the `props` heading
 * ```
 */
export function headingNamed(
  headings: readonly SearchChunkHeading[],
  terms: readonly string[],
): SearchChunkHeading | null {
  if (headings.length === 0 || terms.length === 0) return null;
  const query = new Set<string>();
  for (const term of terms) if (!isFunctionWord(term, isCjk(term))) query.add(term);
  if (query.size === 0) return null;
  // The words each heading shares with the query, counted from the list's word index (only the
  // headings holding a query word are touched), then the headings read in page order.
  const index = listIndex(headings);
  let shared: number[] | undefined;
  for (const term of query) {
    const holders = index.get(term);
    if (holders === undefined) continue;
    shared ??= new Array<number>(headings.length).fill(0);
    for (const i of holders) shared[i]!++;
  }
  if (shared === undefined) return null;
  let best: SearchChunkHeading | null = null;
  let bestScore = NAMES_HEADING;
  const q = query.size;
  const wordLists = listWords(headings);
  for (let i = 0; i < headings.length; i++) {
    const s = shared[i]!;
    if (s === 0) continue;
    const w = wordLists[i]!.length;
    const score = s / (w + q - s);
    if (score > bestScore || (score === bestScore && best === null)) {
      best = headings[i]!;
      bestScore = score;
    }
  }
  return best;
}

/**
 * For each chunk of `document` (as `documentChunks` gives them), the headings whose ranges meet it,
 * in page order (so the innermost heading holding a place is the last one listed that holds it).
 * The whole page's text is the catalog's (its non-empty strings in pre-order, joined by a blank line,
 * trimmed); a chunk is its own strings joined the same way. A chunk whose text is that join with
 * dialect markup removed line by line (`pageText`) gets the same headings at the same lines; one
 * whose lines differ has none. Linear in the document's length times the
 * headings that meet each string (run only for the pages a search shows).
 *
 * @param document - a compiled document.
 * @param given - its chunks as the corpus gives them (`documentChunks`).
 * @returns one list per chunk.
 */
export function chunkHeadings(
  document: KnowledgeDocument,
  given: readonly SearchChunk[],
): (readonly SearchChunkHeading[])[] {
  // Where each non-empty string starts in the joined text, in pre-order; each chunk's strings.
  const starts: number[] = [];
  const texts: string[] = [];
  const chunks: ChunkParts[] = [];
  const own: number[][] = [];
  const walk = (parts: readonly KnowledgePart[]): void => {
    // Explicit stack: section nesting follows the input.
    const stack: { parts: readonly KnowledgePart[]; at: number; chunk: number }[] = [];
    const open = (p: readonly KnowledgePart[]): void => {
      own.push([]);
      chunks.push({ strings: [] });
      stack.push({ parts: p, at: 0, chunk: chunks.length - 1 });
    };
    open(parts);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.at >= top.parts.length) {
        stack.pop();
        continue;
      }
      const part = top.parts[top.at++]!;
      if (typeof part === 'string') {
        chunks[top.chunk]!.strings.push(part);
        if (part.length > 0) {
          own[top.chunk]!.push(texts.length);
          texts.push(part);
        } else own[top.chunk]!.push(-1);
      } else open(part.parts);
    }
  };
  walk(document.parts);
  let offset = 0;
  for (const text of texts) {
    starts.push(offset);
    offset += text.length + 2;
  }
  const joined = texts.join('\n\n');
  const whole = joined.trim();
  const lead = joined.length - joined.trimStart().length;
  const headings = pageHeadings(whole);
  const out: (readonly SearchChunkHeading[])[] = [];
  // `documentChunks` leaves out chunks without text, in the same order.
  for (let c = 0; c < chunks.length; c++) {
    const strings = chunks[c]!.strings;
    const text = strings.join('\n\n');
    if (!/\S/.test(text)) continue;
    const chunk = given[out.length];
    if (chunk === undefined || headings.length === 0) {
      out.push(NONE);
      continue;
    }
    const found = headingsIn(own[c]!, strings, starts, lead, headings);
    // A dialect-free chunk (MDX, containers) keeps the page's lines: line n of its text is what is
    // left of line n of the author's, so a heading's place maps over line by line.
    out.push(chunk.text === text ? found : onLines(found, text, chunk.text));
  }
  return out;
}

/**
 * The headings meeting one chunk, clipped to it. `indexes[k]` is the place in the page's strings of
 * the chunk's `k`-th string (`-1` for an empty one); `starts` their offsets in the joined text.
 */
function headingsIn(
  indexes: readonly number[],
  strings: readonly string[],
  starts: readonly number[],
  lead: number,
  headings: ReturnType<typeof pageHeadings>,
): readonly SearchChunkHeading[] {
  const found: SearchChunkHeading[] = [];
  const placeOf = new Map<string, number>();
  let chunkAt = 0;
  for (let k = 0; k < strings.length; k++) {
    const length = strings[k]!.length;
    if (indexes[k]! >= 0) {
      // The string's span in the whole (trimmed) text, and in the chunk.
      const from = starts[indexes[k]!]! - lead;
      const to = from + length;
      for (const h of headings) {
        if (h.to <= from || h.from >= to) continue;
        const a = chunkAt + Math.max(0, h.from - from);
        const b = chunkAt + Math.min(length, h.to - from);
        // A heading that runs on from the chunk's string before covers the separator too.
        const place = placeOf.get(h.id);
        if (place !== undefined) {
          const had = found[place]!;
          found[place] = { id: had.id, text: had.text, from: had.from, to: b };
        } else {
          placeOf.set(h.id, found.length);
          found.push({ id: h.id, text: h.text, from: a, to: b });
        }
      }
    }
    chunkAt += length + 2;
  }
  return found.length === 0 ? NONE : found;
}

/** Where each line of `text` starts, in code units. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/**
 * `found` (places in `raw`) moved to the same lines of `shown`, a text with as many lines; a place
 * inside a line keeps its column, clipped to the shown line. `NONE` when the line counts differ.
 */
function onLines(
  found: readonly SearchChunkHeading[],
  raw: string,
  shown: string,
): readonly SearchChunkHeading[] {
  if (found.length === 0) return NONE;
  const from = lineStarts(raw);
  const to = lineStarts(shown);
  if (from.length !== to.length) return NONE;
  const move = (at: number): number => {
    if (at >= raw.length) return shown.length;
    const lo = firstAtLeast(from, at + 1) - 1; // the line that holds `at`
    const end = lo + 1 < to.length ? to[lo + 1]! - 1 : shown.length;
    return Math.min(to[lo]! + (at - from[lo]!), end);
  };
  return found.map((h) => ({ id: h.id, text: h.text, from: move(h.from), to: move(h.to) }));
}
