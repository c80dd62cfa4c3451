import type { KnowledgeCatalog, KnowledgeSection } from '../../types.js';
import type { PageRecord } from '../internal/model.js';

/**
 * The searchable texts of every page, one per section (its own text: its direct text parts joined by
 * blank lines, as a `self` read returns them) and one for the document's own text outside sections.
 * Parallel arrays indexed by chunk number; chunks of one page are contiguous, document text first, then
 * sections in source order (pre-order). Chunks without a non-whitespace character are left out.
 */
export interface ChunkTable {
  /** Chunk → index of its page in `pages`. */
  readonly pageOf: Int32Array;
  /** Chunk → section ID, `null` for the document's own text. */
  readonly sectionOf: readonly (string | null)[];
  /** Chunk → its text. */
  readonly textOf: readonly string[];
  /** Page index → its first chunk, or `-1` when the page has no text. */
  readonly firstChunkOf: Int32Array;
  readonly count: number;
}

/** Whether `text` has a character other than JavaScript whitespace (`\s`). */
export function hasText(text: string): boolean {
  return /\S/.test(text);
}

/**
 * Cut every page of `pages` into chunks, walking sections with an explicit stack.
 *
 * @param catalog - the compiled catalog (each page's `fileId` is a document ID in it).
 * @param pages - the file table's pages, in path order.
 * @returns the chunk table.
 * @throws what `catalog.document` throws for an unknown page.
 */
export function buildChunks(catalog: KnowledgeCatalog, pages: readonly PageRecord[]): ChunkTable {
  const pageOf: number[] = [];
  const sectionOf: (string | null)[] = [];
  const textOf: string[] = [];
  const firstChunkOf = new Int32Array(pages.length).fill(-1);
  const add = (page: number, sectionId: string | null, text: string): void => {
    if (!hasText(text)) return;
    if (firstChunkOf[page] === -1) firstChunkOf[page] = textOf.length;
    pageOf.push(page);
    sectionOf.push(sectionId);
    textOf.push(text);
  };
  const own: string[] = [];
  for (let p = 0; p < pages.length; p++) {
    const document = catalog.document(pages[p]!.fileId);
    own.length = 0;
    const sections: KnowledgeSection[] = [];
    for (const part of document.parts) {
      if (typeof part === 'string') own.push(part);
      else sections.push(part);
    }
    add(p, null, own.join('\n\n'));
    // Pre-order: push children in reverse so the first child is visited next.
    const stack = sections.reverse();
    while (stack.length > 0) {
      const section = stack.pop()!;
      own.length = 0;
      const children: KnowledgeSection[] = [];
      for (const part of section.parts) {
        if (typeof part === 'string') own.push(part);
        else children.push(part);
      }
      add(p, section.id, own.join('\n\n'));
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
    }
  }
  return { pageOf: Int32Array.from(pageOf), sectionOf, textOf, firstChunkOf, count: textOf.length };
}
