/**
 * A page's sections as ranges of its text: `read_file` returns a page without its anchor lines, so a
 * bundle keeps, for each section, where its subtree's text is in the page's text (`[start, end)`, in
 * UTF-16 code units). The export finds the ranges from the source's section reads; the static source
 * rebuilds the document from the text and the ranges. Both walk the tree with explicit stacks.
 */
import type { KnowledgeDocument, KnowledgeSection } from '../../types.js';
import type { FileSectionInfo } from '../tools/getFile/types.js';

/** `[start, end)` of a section's subtree text in its page's text. */
export type SectionRange = readonly [start: number, end: number];

const SEP = '\n\n';

/** What the tree of a page's sections needs of each: its ID and its parent's. */
export type SectionNode = Pick<FileSectionInfo, 'id' | 'parentId'>;

/** Children of each section (and of the root, key `null`), in source order. */
function childrenOf(sections: readonly SectionNode[]): Map<string | null, number[]> {
  const out = new Map<string | null, number[]>([[null, []]]);
  sections.forEach((s, i) => {
    let list = out.get(s.parentId);
    if (list === undefined) out.set(s.parentId, (list = []));
    list.push(i);
  });
  return out;
}

/**
 * Where each section's subtree text is in the page's text.
 *
 * @param text - the page's text (a document-mode read).
 * @param sections - its sections in source order (`get_file`).
 * @param subtree - each section's `subtree` read.
 * @param self - each section's `self` read (to tell a section's text from the same words before it).
 * @returns the ranges, or `undefined` when the texts do not fit together.
 */
export function findSectionRanges(
  text: string,
  sections: readonly FileSectionInfo[],
  subtree: readonly string[],
  self: readonly string[],
): SectionRange[] | undefined {
  const kids = childrenOf(sections);
  const ranges: [number, number][] = sections.map(() => [0, 0]);
  const stack: { parent: number | null; start: number; end: number }[] = [
    { parent: null, start: 0, end: text.length },
  ];
  while (stack.length > 0) {
    const { parent, start, end } = stack.pop()!;
    const own = parent === null ? null : self[parent]!;
    let pos = start;
    let ownPos = 0;
    for (const child of kids.get(parent === null ? null : sections[parent]!.id) ?? []) {
      const t = subtree[child]!;
      if (t.length === 0) {
        ranges[child] = [pos, pos];
        continue;
      }
      let found = -1;
      for (
        let q = text.indexOf(t, pos);
        q !== -1 && q + t.length <= end;
        q = text.indexOf(t, q + 1)
      ) {
        if (q === pos) {
          found = q;
          break;
        }
        let direct = text.slice(pos, q);
        if (!direct.endsWith(SEP)) continue;
        direct = direct.slice(pos > start && direct.startsWith(SEP) ? SEP.length : 0, -SEP.length);
        if (direct.length === 0 && pos > start) {
          found = q;
          break;
        }
        if (
          own === null ||
          (own.startsWith(direct, ownPos) &&
            (ownPos + direct.length === own.length || own.startsWith(SEP, ownPos + direct.length)))
        ) {
          ownPos += direct.length + SEP.length;
          found = q;
          break;
        }
      }
      if (found === -1) return undefined;
      ranges[child] = [found, found + t.length];
      stack.push({ parent: child, start: found, end: found + t.length });
      pos = found + t.length;
    }
  }
  return ranges;
}

/** A text piece between sections, without the blank lines that joined it to its neighbours. */
function piece(text: string): string {
  let from = 0;
  let to = text.length;
  if (text.startsWith(SEP)) from = SEP.length;
  if (to - from >= SEP.length && text.endsWith(SEP)) to -= SEP.length;
  return text.slice(from, to);
}

/**
 * The document of a page from its text and its sections' ranges.
 *
 * @param head - the document's ID, revision and locale.
 * @param text - the page's text.
 * @param sections - its sections in source order.
 * @param ranges - each section's range (`findSectionRanges`).
 * @returns the document (plain data, for `defineKnowledgeCatalog`).
 */
export function documentFromRanges(
  head: { readonly id: string; readonly revision: string; readonly locale: string | null },
  text: string,
  sections: readonly SectionNode[],
  ranges: readonly SectionRange[],
): KnowledgeDocument {
  const kids = childrenOf(sections);
  type Parts = (string | KnowledgeSection)[];
  const rootParts: Parts = [];
  const stack: { parent: number | null; start: number; end: number; parts: Parts }[] = [
    { parent: null, start: 0, end: text.length, parts: rootParts },
  ];
  while (stack.length > 0) {
    const { parent, start, end, parts } = stack.pop()!;
    let pos = start;
    for (const child of kids.get(parent === null ? null : sections[parent]!.id) ?? []) {
      const [s, e] = ranges[child]!;
      const before = piece(text.slice(pos, s));
      if (before.length > 0) parts.push(before);
      const childParts: Parts = [];
      parts.push({ id: sections[child]!.id, parts: childParts });
      stack.push({ parent: child, start: s, end: e, parts: childParts });
      pos = Math.max(pos, e);
    }
    const after = piece(text.slice(pos, end));
    if (after.length > 0) parts.push(after);
  }
  return head.locale === null
    ? { id: head.id, revision: head.revision, parts: rootParts }
    : { id: head.id, revision: head.revision, locale: head.locale, parts: rootParts };
}
