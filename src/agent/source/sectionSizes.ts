/**
 * Section places and sizes for `get_file`: what a `self` and a `subtree` read of each section would
 * return, in code points, computed in one pass over the document (no read per section, so a deeply
 * nested document costs its size, not its size times its depth). The property tests compare every
 * size with the catalog's own reads.
 */
import type { KnowledgeCatalog, KnowledgePart } from '../../types.js';
import { countCodePoints as codePoints } from '../../shared/codePoints.js';
import type { SectionSize } from './state.js';
import { isWhitespaceCode } from '../../markdown/chars.js';

/** One non-empty string part: its code points, and the trimmable characters at each end. */
interface Piece {
  readonly points: number;
  readonly lead: number;
  /** `-1` when the whole string is trimmable. */
  readonly trail: number;
}

function piece(text: string): Piece {
  let lead = 0;
  while (lead < text.length && isWhitespaceCode(text.charCodeAt(lead))) lead++;
  if (lead === text.length) return { points: codePoints(text), lead, trail: -1 };
  let trail = 0;
  while (isWhitespaceCode(text.charCodeAt(text.length - 1 - trail))) trail++;
  return { points: codePoints(text), lead, trail };
}

/**
 * Code points of `pieces[from, to)` joined by a blank line and trimmed, as a read returns them:
 * whitespace-only pieces at either end vanish with their separators.
 */
function joinedSize(
  pieces: readonly Piece[],
  first: readonly number[],
  sum: readonly number[],
  from: number,
  to: number,
): number {
  const f = first[from]!; // first piece at or after `from` with text
  if (f >= to) return 0;
  let l = to - 1;
  while (pieces[l]!.trail < 0) l--; // walks only this list's trailing whitespace-only pieces
  return sum[l + 1]! - sum[f]! + 2 * (l - f) - pieces[f]!.lead - pieces[l]!.trail;
}

/** Every section of `documentId` in source order (pre-order), with parent, depth and sizes. */
export function computeSectionSizes(catalog: KnowledgeCatalog, documentId: string): SectionSize[] {
  // Pass 1, explicit stack: the document's non-empty strings in pre-order, each section's range of
  // them, and its own strings.
  const pieces: Piece[] = [];
  const sections: {
    id: string;
    parentId: string | null;
    depth: number;
    start: number;
    end: number;
    own: Piece[];
  }[] = [];
  const stack: { parts: readonly KnowledgePart[]; index: number; at: number }[] = [
    { parts: catalog.document(documentId).parts, index: 0, at: -1 },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index >= frame.parts.length) {
      stack.pop();
      if (frame.at >= 0) sections[frame.at]!.end = pieces.length;
      continue;
    }
    const part = frame.parts[frame.index++]!;
    if (typeof part === 'string') {
      if (part.length === 0) continue;
      const p = piece(part);
      pieces.push(p);
      if (frame.at >= 0) sections[frame.at]!.own.push(p);
      continue;
    }
    const parent = frame.at >= 0 ? sections[frame.at]! : undefined;
    sections.push({
      id: part.id,
      parentId: parent?.id ?? null,
      depth: (parent?.depth ?? 0) + 1,
      start: pieces.length,
      end: 0,
      own: [],
    });
    stack.push({ parts: part.parts, index: 0, at: sections.length - 1 });
  }
  // Pass 2: prefix sums of code points, and for each index the first piece at or after it with text.
  const index = (list: readonly Piece[]) => {
    const sum = [0];
    for (const p of list) sum.push(sum[sum.length - 1]! + p.points);
    const first = new Array<number>(list.length + 1).fill(list.length);
    for (let i = list.length - 1; i >= 0; i--) first[i] = list[i]!.trail >= 0 ? i : first[i + 1]!;
    return { sum, first };
  };
  const whole = index(pieces);
  // The last piece with text at or before each index, so trailing whitespace-only pieces cost O(1).
  const last = new Array<number>(pieces.length).fill(-1);
  for (let i = 0; i < pieces.length; i++)
    last[i] = pieces[i]!.trail >= 0 ? i : i > 0 ? last[i - 1]! : -1;
  return sections.map((s) => {
    const own = index(s.own);
    const subtreeLast = s.end > s.start ? last[s.end - 1]! : -1;
    const subtreeChars =
      subtreeLast < s.start
        ? 0
        : whole.sum[subtreeLast + 1]! -
          whole.sum[whole.first[s.start]!]! +
          2 * (subtreeLast - whole.first[s.start]!) -
          pieces[whole.first[s.start]!]!.lead -
          pieces[subtreeLast]!.trail;
    return {
      id: s.id,
      parentId: s.parentId,
      depth: s.depth,
      selfChars: joinedSize(s.own, own.first, own.sum, 0, s.own.length),
      subtreeChars,
    };
  });
}
