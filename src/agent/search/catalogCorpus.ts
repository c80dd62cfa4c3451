/**
 * The corpus a catalog source gives its search engine (`SearchCorpus`): its pages, their chunks and
 * leads from the catalog's documents, and their relationships. (Internal: engines see only the port.)
 */
import { chunkHeadings } from './chunkHeadings.js';
import type { KnowledgeCatalog, KnowledgeDocument, KnowledgeSection } from '../../types.js';
import { isMdxPath, pageText, readsAsMdx } from '../../markdown/pageText.js';
import { documentLead } from './documentLead.js';
import type {
  SearchChunk,
  SearchChunkHeading,
  SearchCorpus,
  SearchCorpusPage,
  SearchRelation,
} from './port.js';
import type { ActiveContentRevision } from '../types.js';

/** What the corpus reads of a source's file table (structurally, so search does not depend on the source's model). */
export interface CorpusTable {
  readonly activeContentRevision: ActiveContentRevision;
  readonly pages: readonly SearchCorpusPage[];
}

/** What the corpus reads of a source's relationships. */
export interface CorpusRelations {
  get(fileId: string): readonly SearchRelation[] | undefined;
}

const NO_RELATIONS: readonly never[] = Object.freeze([]);

/**
 * A document's chunks: its own text outside sections (its direct text parts joined by blank lines),
 * then each section's own text in pre-order, walking sections with an explicit stack. Each chunk's
 * text is the page's text (`pageText`: without heading-ID syntax, container and admonition markers,
 * and in MDX pages ESM, JSX and MDX comments), so search and excerpts never show that markup.
 * Chunks without a non-whitespace character are left out.
 *
 * @param document - a compiled document.
 * @param mdxPath - whether the page's path ends in `.mdx` (see `readsAsMdx`).
 * @returns its chunks, a fresh array.
 */
export function documentChunks(document: KnowledgeDocument, mdxPath = false): SearchChunk[] {
  const mdx = readsAsMdx(mdxPath, firstText(document));
  const chunks: SearchChunk[] = [];
  const own: string[] = [];
  const add = (sectionId: string | null): void => {
    const text = pageText(own.join('\n\n'), mdx);
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

/** A document's first text part (where an MDX page's ESM is), or `''`. */
export function firstText(document: KnowledgeDocument): string {
  const first = document.parts[0];
  return typeof first === 'string' ? first : '';
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
  table: CorpusTable,
  relations: CorpusRelations,
): SearchCorpus {
  const mdx = new Set<string>();
  for (const page of table.pages) if (isMdxPath(page.path)) mdx.add(page.fileId);
  // A frozen catalog: a page's headings never change, so they are computed once (at most
  // `HEADINGS_KEPT` pages kept, the oldest dropped first).
  const headings = new Map<string, readonly (readonly SearchChunkHeading[])[]>();
  return Object.freeze({
    revision: table.activeContentRevision,
    pages: table.pages,
    chunksOf: (fileId: string) => documentChunks(catalog.document(fileId), mdx.has(fileId)),
    leadOf: (fileId: string, maxChars: number) =>
      documentLead(catalog.document(fileId), maxChars, mdx.has(fileId)),
    relationsOf: (fileId: string) => relations.get(fileId) ?? NO_RELATIONS,
    headingsOf: (fileId: string) => {
      let found = headings.get(fileId);
      if (found === undefined) {
        const document = catalog.document(fileId);
        found = chunkHeadings(document, documentChunks(document, mdx.has(fileId)));
        // The oldest page out first: a bounded cache, as large as a few pages of results need.
        if (headings.size >= HEADINGS_KEPT) headings.delete(headings.keys().next().value!);
        headings.set(fileId, found);
      }
      return found;
    },
  });
}

/**
 * Pages whose chunk headings a corpus keeps once computed (`headingsOf`): a hit's excerpt needs its
 * page's headings, whose scan was most of a search's time (the page's whole text parsed per hit).
 */
export const HEADINGS_KEPT = 1024;
