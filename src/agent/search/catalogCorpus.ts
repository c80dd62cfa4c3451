/**
 * The corpus a catalog source gives its search engine (`SearchCorpus`): its pages, their chunks and
 * leads from the catalog's documents, and their relationships. (Internal: engines see only the port.)
 */
import type { KnowledgeCatalog, KnowledgeDocument, KnowledgeSection } from '../../types.js';
import type { FileTable, RelationTable } from '../internal/model.js';
import { documentLead } from './documentLead.js';
import type { SearchChunk, SearchCorpus } from './port.js';

const NO_RELATIONS: readonly never[] = Object.freeze([]);

/**
 * A document's chunks: its own text outside sections (its direct text parts joined by blank lines),
 * then each section's own text in pre-order, walking sections with an explicit stack. Chunks without a
 * non-whitespace character are left out.
 *
 * @param document - a compiled document.
 * @returns its chunks, a fresh array.
 */
export function documentChunks(document: KnowledgeDocument): SearchChunk[] {
  const chunks: SearchChunk[] = [];
  const own: string[] = [];
  const add = (sectionId: string | null): void => {
    const text = own.join('\n\n');
    if (/\S/.test(text)) chunks.push({ sectionId, text });
  };
  const sections: KnowledgeSection[] = [];
  for (const part of document.parts) {
    if (typeof part === 'string') own.push(part);
    else sections.push(part);
  }
  add(null);
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
    add(section.id);
    for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
  }
  return chunks;
}

/**
 * The search corpus of a catalog source.
 *
 * @param catalog - the compiled catalog (each page's `fileId` is a document ID in it).
 * @param table - the source's files; its pages are the corpus's pages.
 * @param relations - relationships by file ID.
 * @returns the corpus, frozen.
 */
export function searchCorpus(
  catalog: KnowledgeCatalog,
  table: FileTable,
  relations: RelationTable,
): SearchCorpus {
  return Object.freeze({
    revision: table.activeContentRevision,
    pages: table.pages,
    chunksOf: (fileId: string) => documentChunks(catalog.document(fileId)),
    leadOf: (fileId: string, maxChars: number) => documentLead(catalog.document(fileId), maxChars),
    relationsOf: (fileId: string) => relations.get(fileId) ?? NO_RELATIONS,
  });
}
