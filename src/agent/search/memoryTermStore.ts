/**
 * The term rows of a whole corpus, and a `TermStore` over rows held in memory: what an export or a
 * publish writes, and the reference a stored term store is checked against.
 */
import type { KnowledgeDocument } from '../../types.js';
import { buildChunksSliced, type ChunkTable } from './buildChunks.js';
import { createPacer } from './pace.js';
import type { SearchCorpus } from './port.js';
import { rankSemantic, type VectorStore } from './semantic.js';
import { buildBm25fIndex } from './bm25fIndex.js';
import { chunkPlace, termRowsOf, type TermEntry, type TermRow, type TermRows } from './termRows.js';
import {
  headWants,
  type TermStore,
  type TermStoreRelation,
  type TermStoreSemanticPage,
} from './termStoreEngine.js';

/** Chunk vectors for `memoryTermStore`'s `nearest`: the vectors and the chunk table they follow. */
export interface MemoryVectors {
  readonly vectors: VectorStore;
  readonly chunks: ChunkTable;
}

/**
 * Index a corpus and lay its index out as rows (`termRowsOf`), in slices that yield to the event loop.
 *
 * @param corpus - the corpus (its pages in the order their page numbers follow).
 * @param signal - stops the build between slices.
 * @returns the statistics and the rows.
 * @throws what `corpus.chunksOf` throws, or the signal's reason.
 */
export async function buildTermRows(corpus: SearchCorpus, signal?: AbortSignal): Promise<TermRows> {
  const chunks = await buildChunksSliced(corpus, createPacer(signal));
  const index = await buildBm25fIndex(chunks, corpus.pages, signal);
  return termRowsOf(index, chunks);
}

/**
 * A term store over rows in memory.
 *
 * @param rows - the rows (`buildTermRows`).
 * @param corpus - the corpus they were built from (its pages by number, their relationships).
 * @param documentOf - a page's compiled document by file ID.
 * @param semantic - chunk vectors, for `nearest` (left out without them).
 * @returns the store.
 */
export function memoryTermStore(
  rows: TermRows,
  corpus: SearchCorpus,
  documentOf: (fileId: string) => KnowledgeDocument,
  semantic?: MemoryVectors,
): TermStore {
  const byKey = new Map<string, TermRow>(rows.rows.map((r) => [r.key, r]));
  const byHead = new Map<string, TermEntry[]>();
  for (const row of rows.rows) {
    if (row.head === null) continue;
    let list = byHead.get(row.head);
    if (list === undefined) byHead.set(row.head, (list = []));
    list.push(row);
  }
  const pageOf = new Map(corpus.pages.map((p, i) => [p.fileId, i]));
  const pick = (keys: readonly string[]): TermRow[] =>
    keys.flatMap((k) => {
      const row = byKey.get(k);
      return row === undefined ? [] : [row];
    });
  const nearest =
    semantic === undefined
      ? undefined
      : (query: readonly number[], limit: number): Promise<TermStoreSemanticPage[]> => {
          const { vectors, chunks } = semantic;
          return Promise.resolve(
            rankSemantic(vectors, chunks, query)
              .slice(0, limit)
              .map((f) => ({
                page: f.page,
                similarity: f.similarity,
                bestPlace: chunkPlace(chunks, f.bestChunk),
                sectionPlaces: f.sectionChunks.map((c) => chunkPlace(chunks, c)),
              })),
          );
        };
  return {
    ...(nearest === undefined ? {} : { nearest }),
    stats: () => Promise.resolve(rows.stats),
    dictionary: (keys, heads) =>
      Promise.resolve([
        ...pick(keys),
        ...heads.flatMap((h) => (byHead.get(h.head) ?? []).filter((e) => headWants(h, e.key))),
      ]),
    rows: (keys) => Promise.resolve(pick(keys)),
    scopeFields: () => Promise.resolve(corpus.pages),
    pages: (pages) =>
      Promise.resolve(
        pages.map((p) => {
          const { fileId, path } = corpus.pages[p]!;
          return { fileId, path, document: documentOf(fileId) };
        }),
      ),
    relations: (pages) =>
      Promise.resolve(
        new Map(
          pages.map((p): [number, TermStoreRelation[]] => [
            p,
            corpus.relationsOf(corpus.pages[p]!.fileId).map((r) => ({
              fileId: r.fileId,
              page: pageOf.get(r.fileId) ?? -1,
              weight: r.weight,
            })),
          ]),
        ),
      ),
  };
}
