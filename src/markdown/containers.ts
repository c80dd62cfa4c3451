/**
 * Containers (CommonMark 5, micromark's `block-quote` and `list-item` continuation): the stack of
 * open block quotes and list items, and the cursor that reads a line's container prefixes.
 * Internal to `src/markdown`.
 *
 * Linear whatever the nesting depth (docs/performance.md, "Nesting depth"): the first non-blank
 * character after the cursor is found once per run of blanks, not once per container, so each list
 * item a line continues costs a few reads and at least two columns of the line; a blank line, which
 * consumes nothing, skips the list items it continues in one step (`stops`); and a run of two or
 * more list items between two block quotes is matched by a binary search over their summed content
 * indentation (`total`), not one by one. A line costs its length plus `O(q log d)` for `q` block
 * quote markers on it and `d` open containers.
 */
import { firstAtLeast } from '../shared/sortedSearch.js';
import { GT, SPACE, TAB } from './chars.js';

/** A block quote on the stack; a list item holds its content indentation (> 0) instead. */
export const QUOTE = -1;

/** The open containers of one text and the cursor in its current line; one per `BlockScanner`. */
export class Containers {
  /** Per open container, outermost first: `QUOTE`, or a list item's content indentation. */
  readonly need: number[] = [];
  /** Per open container: 1 for a list item that began with a blank line and holds nothing yet. */
  readonly empty: number[] = [];
  /**
   * The indices, ascending, of the open containers a blank line does not continue: block quotes
   * and empty list items.
   */
  private readonly stops: number[] = [];
  /** The indices, ascending, of the open block quotes. */
  private readonly quotes: number[] = [];
  /**
   * Per open container: the content indentation of the list items up to it, itself included (a block
   * quote adds nothing). Between two block quotes, the columns a run of list items needs. Valid for
   * the first `totalValid` containers; filled in by `match` only when a line continues a list item,
   * so that opening and closing containers costs nothing here (each entry is summed once per push).
   */
  private readonly total: number[] = [];
  private totalValid = 0;
  /** Whether the last `match` stopped at an empty list item on a blank line (which closes it). */
  emptyClosed = false;

  // The cursor in the current line: an offset, its column (tabs stop every 4), and whether the tab
  // at `offset` is partly consumed. `next*` describe the first non-blank character from the cursor.
  end = 0;
  offset = 0;
  column = 0;
  nextOffset = 0;
  nextColumn = 0;
  indent = 0;
  blank = false;

  constructor(private readonly text: string) {}

  /** Whether a container that a blank line does not continue is open. */
  get stopsOpen(): boolean {
    return this.stops.length !== 0;
  }

  /** Put the cursor at the start of the line `[start, end)`. */
  reset(start: number, end: number): void {
    this.end = end;
    this.offset = start;
    this.column = 0;
    // No run of blanks found yet on this line.
    this.nextOffset = start - 1;
  }

  /**
   * Which open containers does the line continue (from the cursor, at its start)? Leaves the cursor
   * after their prefixes and `next*` at the first non-blank character after it.
   *
   * @returns how many containers, outermost first, the line continues.
   */
  match(): number {
    const text = this.text;
    const need = this.need;
    const depth = need.length;
    this.emptyClosed = false;
    let matched = 0;
    for (; matched < depth; matched++) {
      this.findNext();
      if (this.blank) {
        // Every list item that holds something goes on through a blank line, consuming nothing;
        // the first block quote or empty list item from here does not.
        const stop = this.stopFrom(matched);
        if (stop > matched) this.toNext();
        matched = stop;
        // A list item can begin with at most one blank line.
        if (stop < depth && need[stop] !== QUOTE) this.emptyClosed = true;
        break;
      }
      const n = need[matched]!;
      if (n !== QUOTE && this.indent >= n) {
        const next = matched + 1;
        if (next === depth || need[next] === QUOTE || this.indent < n + need[next]!) {
          this.advance(n); // the common case: one list item, or the last of a run
          continue;
        }
        // A run of list items: each takes its content indentation in columns of blanks, so the line
        // continues as many as its indentation covers, found by a binary search in `total`.
        if (this.totalValid < depth) this.sum();
        const last = this.lastCovered(matched);
        const before = matched === 0 ? 0 : this.total[matched - 1]!;
        this.advance(this.total[last]! - before);
        matched = last;
        continue;
      }
      if (n === QUOTE) {
        if (this.indent > 3 || text.charCodeAt(this.nextOffset) !== GT) break;
        this.toNext();
        this.offset++;
        this.column++;
        const c = text.charCodeAt(this.offset);
        if (c === SPACE || c === TAB) this.advance(1);
      } else break;
    }
    this.findNext();
    return matched;
  }

  /** Fill in `total` for every open container. */
  private sum(): void {
    const need = this.need;
    const total = this.total;
    for (let i = this.totalValid; i < need.length; i++) {
      const n = need[i]!;
      total[i] = (i === 0 ? 0 : total[i - 1]!) + (n === QUOTE ? 0 : n);
    }
    this.totalValid = need.length;
  }

  /** The first index `>= from` in `stops`, or the depth. */
  private stopFrom(from: number): number {
    return firstFrom(this.stops, from, this.need.length);
  }

  /**
   * The last of the list items from `from` (a list item that the cursor's blanks cover) up to the
   * next block quote whose content indentation, with those of the items before it in the run, the
   * blanks from the cursor still cover.
   */
  private lastCovered(from: number): number {
    const total = this.total;
    const limit = (from === 0 ? 0 : total[from - 1]!) + this.indent;
    let lo = from;
    let hi = firstFrom(this.quotes, from, this.need.length) - 1;
    // total[lo] <= limit; find the last index in [lo, hi] with total <= limit.
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (total[mid]! <= limit) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Open a container: `QUOTE`, or a list item's content indentation; `empty` 1 for a blank start. */
  push(need: number, empty: number): void {
    const depth = this.need.length;
    if (need === QUOTE || empty === 1) this.stops.push(depth);
    if (need === QUOTE) this.quotes.push(depth);
    this.need.push(need);
    this.empty.push(empty);
  }

  /** Close the containers after the first `keep`. */
  close(keep: number): void {
    // Popped rather than cut by setting `length`, which is a runtime call that also frees the arrays'
    // storage, only for the next `push` to allocate it again.
    const need = this.need;
    const empty = this.empty;
    if (this.stops.length !== 0 || this.quotes.length !== 0) this.closeStops(keep);
    if (this.totalValid > keep) this.totalValid = keep;
    while (need.length > keep) {
      need.pop();
      empty.pop();
    }
  }

  /**
   * `close`'s work on `stops` and `quotes`: a method of its own, never called where no block quote
   * or empty list item is open, so that `close` stays small enough to be inlined into the anchor
   * scanner's loop without crowding out what else is inlined there.
   */
  private closeStops(keep: number): void {
    const stops = this.stops;
    const quotes = this.quotes;
    while (stops.length !== 0 && stops[stops.length - 1]! >= keep) stops.pop();
    while (quotes.length !== 0 && quotes[quotes.length - 1]! >= keep) quotes.pop();
  }

  /** The innermost container now holds a block. */
  markFilled(): void {
    const last = this.empty.length - 1;
    if (last >= 0 && this.empty[last] === 1) {
      this.empty[last] = 0;
      this.stops.pop(); // an empty list item is the innermost container, so the last stop
    }
  }

  /**
   * Find the first non-blank character from the cursor. Once per run of blanks: the cursor only
   * moves on, so while it has not passed the character found last, that is still the answer (at the
   * same column, as tab stops are counted from the line's start).
   */
  findNext(): void {
    let i = this.offset;
    if (i <= this.nextOffset) {
      this.indent = this.nextColumn - this.column;
      return;
    }
    const text = this.text;
    const end = this.end;
    let col = this.column;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SPACE) col++;
      else if (c === TAB) col += 4 - (col & 3);
      else break;
      i++;
    }
    this.nextOffset = i;
    this.nextColumn = col;
    this.indent = col - this.column;
    this.blank = i === end;
  }

  /** Move the cursor to the first non-blank character found. */
  toNext(): void {
    this.offset = this.nextOffset;
    this.column = this.nextColumn;
  }

  /** Move the cursor `count` columns on, consuming part of a tab where needed. */
  advance(count: number): void {
    const text = this.text;
    while (count > 0 && this.offset < this.end) {
      if (text.charCodeAt(this.offset) === TAB) {
        const toTab = 4 - (this.column & 3);
        if (toTab > count) {
          this.column += count;
          return;
        }
        this.column += toTab;
        this.offset++;
        count -= toTab;
      } else {
        this.offset++;
        this.column++;
        count--;
      }
    }
  }
}

/** The first value `>= from` in `sorted` (ascending), or `none`: a binary search. */
function firstFrom(sorted: readonly number[], from: number, none: number): number {
  const i = firstAtLeast(sorted, from);
  return i < sorted.length ? sorted[i]! : none;
}
