/**
 * Section places and sizes for `get_file`: what a `self` and a `subtree` read of each section would
 * return, in code points. Sizes come from the catalog's own reads, so they agree with `read_file` by
 * construction; they are computed once per page.
 */
import type { KnowledgeCatalog, KnowledgePart, KnowledgeSection } from '../../types.js';
import type { SectionSize } from './state.js';

/** Unicode code points in `text`. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Every section of `documentId` in source order (pre-order), with parent, depth and sizes. */
export function computeSectionSizes(catalog: KnowledgeCatalog, documentId: string): SectionSize[] {
  const out: SectionSize[] = [];
  const size = (sectionId: string, mode: 'self' | 'subtree'): number =>
    codePoints(
      catalog.read({ documentId, selection: { mode, sectionIds: [sectionId] }, maxChars: Number.MAX_SAFE_INTEGER }).content,
    );
  // Explicit stack: nesting depth comes from the document.
  const stack: { parts: readonly KnowledgePart[]; index: number; parentId: string | null; depth: number }[] = [
    { parts: catalog.document(documentId).parts, index: 0, parentId: null, depth: 1 },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index >= frame.parts.length) {
      stack.pop();
      continue;
    }
    const part = frame.parts[frame.index++]!;
    if (typeof part === 'string') continue;
    const section = part as KnowledgeSection;
    out.push({
      id: section.id,
      parentId: frame.parentId,
      depth: frame.depth,
      selfChars: size(section.id, 'self'),
      subtreeChars: size(section.id, 'subtree'),
    });
    stack.push({ parts: section.parts, index: 0, parentId: section.id, depth: frame.depth + 1 });
  }
  return out;
}
