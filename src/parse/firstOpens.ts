/**
 * Duplicate section IDs in the parse in progress. Internal to `parseKnowledgeDocument`, which is
 * synchronous; a parse started inside another one (only a patched built-in can do that) sets the
 * outer one's state aside (`suspendFirstOpens`).
 *
 * The scan only records each open anchor (`recordOpen`): its ID's hash, where the ID is and its line,
 * appended to a list. `findDuplicates` then looks them all up at once, after the scan, in an
 * open-addressing hash table. Looked up during the scan, each new ID cost a cache miss: the text
 * streaming through evicts the table between two anchors, and that miss was a seventh of the
 * section-dense parse's time. After the scan the table stays in cache, and the lookups, which do not
 * depend on each other, overlap their misses (docs/performance.md).
 *
 * The list and the table are typed arrays that outlive the parse: a `Map` of the IDs grew by fresh
 * allocations on every parse, which this machine pays in page faults. The table is all zeros between
 * parses (`findDuplicates` clears the slots it filled) and used only as far as the parse needs: at
 * least two slots per ID.
 *
 * An entry of the list is four numbers: the ID's hash; where the ID is (its offset in the text, or
 * -1 - k for the k-th ID that is not in the text as written: a near miss paired as meant); the line
 * of its open anchor; and the table slot it went to (-1 for none). A slot holds 1 + the index of the
 * first entry with its ID, or 0 when it is empty.
 *
 * The hash is FNV-1a over the ID's code units, from a seed drawn at random when the module loads.
 * Whatever the IDs, a lookup that probes more than `MAX_PROBES` slots moves the rest of the lookups to
 * a `Map`, so crafted collisions cannot make a parse quadratic.
 */
import type { KnowledgePosition } from '../errors/codes.js';
import { SPACE } from '../markdown/chars.js';

const STRIDE = 4;
const MIN_SLOTS = 1 << 4;
/** The largest list kept between parses: 32,768 entries (512 KB). */
const MAX_KEPT_ENTRIES = 1 << 15;
/** The largest table kept between parses: 65,536 slots (256 KB), enough for 32,768 IDs. */
const MAX_KEPT_SLOTS = 1 << 16;
export const MAX_PROBES = 64;
const SEED = (Math.random() * 0x1_0000_0000) | 0;

let entries = new Int32Array(1024 * STRIDE);
let count = 0;
let table = new Int32Array(1024);
let text = '';
/** IDs not in the text as written, and the columns of their anchors (allocated when needed). */
let extraIds: string[] | undefined;
let extraColumns: number[] | undefined;

/** What `suspendFirstOpens` set aside. */
export interface SuspendedFirstOpens {
  readonly entries: typeof entries;
  readonly count: number;
  readonly table: typeof table;
  readonly text: string;
  readonly extraIds: string[] | undefined;
  readonly extraColumns: number[] | undefined;
}

/**
 * Set aside the state of the parse in progress and give the next parse fresh arrays: for a parse
 * started from inside another one (user code can run in a scan only through a patched built-in).
 */
export function suspendFirstOpens(): SuspendedFirstOpens {
  const suspended = { entries, count, table, text, extraIds, extraColumns };
  entries = new Int32Array(1024 * STRIDE);
  table = new Int32Array(1024);
  return suspended;
}

/** Take back what `suspendFirstOpens` set aside, once the inner parse has ended. */
export function resumeFirstOpens(suspended: SuspendedFirstOpens): void {
  ({ entries, count, table, text, extraIds, extraColumns } = suspended);
}

/** Start a parse of `source`. */
export function beginFirstOpens(source: string): void {
  count = 0;
  text = source;
  extraIds = undefined;
  extraColumns = undefined;
}

/** End the parse: drop what refers to its text, and a list or table grown past what is kept. */
export function endFirstOpens(): void {
  text = '';
  extraIds = undefined;
  extraColumns = undefined;
  if (entries.length > MAX_KEPT_ENTRIES * STRIDE) entries = new Int32Array(1024 * STRIDE);
  if (table.length > MAX_KEPT_SLOTS) table = new Int32Array(1024);
}

/**
 * The hash of the ID `source[from, to)`: FNV-1a over its code units, from this process's seed.
 * Exported for tests, which build IDs that collide.
 */
export function hashOf(source: string, from: number, to: number): number {
  let h = SEED;
  for (let i = from; i < to; i++) h = Math.imul(h ^ source.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * Record an open anchor of the ID at `text[from, to)` (or, when `id` is given, of `id`, which the
 * text does not hold as written) at `line` and `column`.
 */
export function recordOpen(
  from: number,
  to: number,
  id: string | undefined,
  line: number,
  column: number,
): void {
  const h = id === undefined ? hashOf(text, from, to) : hashOf(id, 0, id.length);
  let where = from;
  if (id !== undefined) {
    extraIds ??= [];
    extraColumns ??= [];
    where = -1 - extraIds.length;
    extraIds.push(id);
    extraColumns.push(column);
  }
  if ((count + 1) * STRIDE > entries.length) {
    const grown = new Int32Array(entries.length * 2);
    grown.set(entries);
    entries = grown;
  }
  const at = count * STRIDE;
  entries[at] = h;
  entries[at + 1] = where;
  entries[at + 2] = line;
  count++;
}

/** An open anchor whose ID was opened before. */
export interface DuplicateOpen {
  /** The place of this open anchor. */
  readonly at: KnowledgePosition;
  readonly id: string;
  /** The place of the first open anchor with that ID. */
  readonly first: KnowledgePosition;
}

/**
 * Look up every open anchor recorded in this parse; returns those whose ID was opened before, in text
 * order, or `undefined` when there are none.
 */
export function findDuplicates(): DuplicateOpen[] | undefined {
  if (count < 2) return undefined;
  let slots = MIN_SLOTS;
  while (slots < count * 2) slots *= 2;
  if (slots > table.length) table = new Int32Array(slots);
  const mask = slots - 1;
  let found: DuplicateOpen[] | undefined;
  let fallback: Map<string, number> | undefined;
  try {
    for (let i = 0; i < count; i++) {
      const at = i * STRIDE;
      const h = entries[at]!;
      entries[at + 3] = -1;
      let first = -1;
      if (fallback === undefined) {
        let slot = h & mask;
        for (let probes = 0; ; probes++) {
          const held = table[slot]!;
          if (held === 0) {
            table[slot] = i + 1;
            entries[at + 3] = slot;
            break;
          }
          if (entries[(held - 1) * STRIDE] === h && sameId(held - 1, i)) {
            first = held - 1;
            break;
          }
          if (probes === MAX_PROBES) {
            fallback = tableAsMap(i);
            break;
          }
          slot = (slot + 1) & mask;
        }
      }
      if (fallback !== undefined) {
        const id = idOf(i);
        const known = fallback.get(id);
        if (known === undefined) fallback.set(id, i);
        else first = known;
      }
      if (first >= 0) (found ??= []).push({ at: placeOf(i), id: idOf(i), first: placeOf(first) });
    }
  } finally {
    // Leave the table all zeros for the next parse.
    for (let i = 0; i < count; i++) {
      const slot = entries[i * STRIDE + 3]!;
      if (slot >= 0) table[slot] = 0;
    }
  }
  return found;
}

/** The place of entry `i`'s open anchor. */
function placeOf(i: number): KnowledgePosition {
  const where = entries[i * STRIDE + 1]!;
  return { line: entries[i * STRIDE + 2]!, column: where >= 0 ? 1 : extraColumns![-1 - where]! };
}

/** Whether entries `a` and `b` hold the same ID. */
function sameId(a: number, b: number): boolean {
  const whereA = entries[a * STRIDE + 1]!;
  const whereB = entries[b * STRIDE + 1]!;
  if (whereA < 0 || whereB < 0) return idOf(a) === idOf(b);
  // An ID in the text ends at the space of its anchor's ` -->`.
  for (let i = 0; ; i++) {
    const x = text.charCodeAt(whereA + i);
    if (x !== text.charCodeAt(whereB + i)) return false;
    if (x === SPACE) return true;
  }
}

/** Entry `i`'s ID, as a string. */
function idOf(i: number): string {
  const where = entries[i * STRIDE + 1]!;
  if (where < 0) return extraIds![-1 - where]!;
  let end = where;
  while (text.charCodeAt(end) !== SPACE) end++;
  return text.slice(where, end);
}

/** The first entry of each ID among entries `[0, upTo)`, as a `Map`, for the lookups whose IDs collide too much. */
function tableAsMap(upTo: number): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < upTo; i++) {
    const id = idOf(i);
    if (!map.has(id)) map.set(id, i);
  }
  return map;
}
