/**
 * Where each section ID was first opened in the parse in progress, to report duplicate IDs: an
 * open-addressing hash table in typed arrays that outlive the parse. A `Map` of the IDs cost a fifth
 * of the section-dense parse's time: its table grew by fresh allocations on every parse, and this
 * machine pays page faults for fresh memory (docs/performance.md). Once grown, this table is
 * reused, so a parse allocates nothing for it. Internal to `parseKnowledgeDocument`, which is
 * synchronous and never re-entered.
 *
 * A slot is four numbers: the stamp of the parse that filled it (a slot with another stamp is
 * empty, so nothing is cleared between parses), the ID's hash, where the ID is (its offset in the
 * text, or -1 - k for the k-th ID that is not in the text as written: a near miss paired as meant),
 * and the line of its open anchor.
 *
 * The hash is FNV-1a over the ID's code units, from a seed drawn at random when the module loads.
 * Whatever the IDs, a lookup that probes more than `MAX_PROBES` slots moves the rest of the parse to
 * a `Map`, so crafted collisions cannot make a parse quadratic.
 */
import type { KnowledgePosition } from '../errors/codes.js';

const STRIDE = 4;
const MIN_SLOTS = 1 << 10;
/** The largest table kept between parses: 65,536 slots (1 MB), enough for 32,768 IDs. */
const MAX_KEPT_SLOTS = 1 << 16;
const MAX_PROBES = 64;
const SEED = (Math.random() * 0x1_0000_0000) | 0;

let table = new Int32Array(MIN_SLOTS * STRIDE);
let mask = MIN_SLOTS - 1;
let stamp = 0;
let count = 0;
let text = '';
/** IDs not in the text as written, and the columns of their anchors (allocated when needed). */
let extraIds: string[] | undefined;
let extraColumns: number[] | undefined;
/** Set when a lookup probed too far: the rest of the parse uses it. */
let fallback: Map<string, KnowledgePosition> | undefined;

/** Start a parse of `source`. */
export function beginFirstOpens(source: string): void {
  if (stamp === 0x7fffffff) {
    table.fill(0);
    stamp = 0;
  }
  stamp++;
  count = 0;
  text = source;
}

/** End the parse: drop what refers to its text, and a table grown past what is kept. */
export function endFirstOpens(): void {
  text = '';
  extraIds = undefined;
  extraColumns = undefined;
  fallback = undefined;
  if (table.length > MAX_KEPT_SLOTS * STRIDE) {
    table = new Int32Array(MIN_SLOTS * STRIDE);
    mask = MIN_SLOTS - 1;
    stamp = 0;
  }
}

/**
 * Record the open anchor of the ID at `text[from, to)` (or, when `id` is given, of `id`, which the
 * text does not hold as written) at `line` and `column`. Returns where the same ID was first opened,
 * or `undefined` when this is its first open.
 */
export function firstOpen(from: number, to: number, id: string | undefined, line: number, column: number): KnowledgePosition | undefined {
  if (fallback !== undefined) return fallbackOpen(id ?? text.slice(from, to), line, column);
  const source = id ?? text;
  const start = id === undefined ? from : 0;
  const length = id === undefined ? to - from : id.length;
  let h = SEED;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ source.charCodeAt(start + i), 0x01000193);
  let slot = h & mask;
  for (let probes = 0; ; probes++) {
    const at = slot * STRIDE;
    if (table[at] !== stamp) break;
    if (table[at + 1] === h && sameId(table[at + 2]!, source, start, length)) {
      const where = table[at + 2]!;
      return { line: table[at + 3]!, column: where >= 0 ? 1 : extraColumns![-1 - where]! };
    }
    if (probes === MAX_PROBES) {
      fallback = tableAsMap();
      return fallbackOpen(id ?? text.slice(from, to), line, column);
    }
    slot = (slot + 1) & mask;
  }
  let where = from;
  if (id !== undefined) {
    extraIds ??= [];
    extraColumns ??= [];
    where = -1 - extraIds.length;
    extraIds.push(id);
    extraColumns.push(column);
  }
  const at = slot * STRIDE;
  table[at] = stamp;
  table[at + 1] = h;
  table[at + 2] = where;
  table[at + 3] = line;
  if (++count * 2 > mask + 1) grow();
  return undefined;
}

/** Whether the ID stored as `where` is `source[start, start + length)`. */
function sameId(where: number, source: string, start: number, length: number): boolean {
  if (where < 0) {
    const id = extraIds![-1 - where]!;
    if (id.length !== length) return false;
    for (let i = 0; i < length; i++) if (id.charCodeAt(i) !== source.charCodeAt(start + i)) return false;
    return true;
  }
  // An ID in the text ends at the space of its anchor's ` -->`.
  for (let i = 0; i < length; i++) if (text.charCodeAt(where + i) !== source.charCodeAt(start + i)) return false;
  return text.charCodeAt(where + length) === 32;
}

/** The ID stored as `where`, as a string. */
function idAt(where: number): string {
  if (where < 0) return extraIds![-1 - where]!;
  let end = where;
  while (text.charCodeAt(end) !== 32) end++;
  return text.slice(where, end);
}

/** Double the table, moving this parse's entries. */
function grow(): void {
  const old = table;
  const oldSlots = mask + 1;
  table = new Int32Array(oldSlots * 2 * STRIDE);
  mask = oldSlots * 2 - 1;
  for (let slot = 0; slot < oldSlots; slot++) {
    const from = slot * STRIDE;
    if (old[from] !== stamp) continue;
    let to = old[from + 1]! & mask;
    while (table[to * STRIDE] === stamp) to = (to + 1) & mask;
    table.set(old.subarray(from, from + STRIDE), to * STRIDE);
  }
}

/** This parse's entries as a `Map`, for the rest of a parse whose IDs collide too much. */
function tableAsMap(): Map<string, KnowledgePosition> {
  const map = new Map<string, KnowledgePosition>();
  for (let slot = 0; slot <= mask; slot++) {
    const at = slot * STRIDE;
    if (table[at] !== stamp) continue;
    const where = table[at + 2]!;
    map.set(idAt(where), { line: table[at + 3]!, column: where >= 0 ? 1 : extraColumns![-1 - where]! });
  }
  return map;
}

function fallbackOpen(id: string, line: number, column: number): KnowledgePosition | undefined {
  const first = fallback!.get(id);
  if (first === undefined) fallback!.set(id, { line, column });
  return first;
}
