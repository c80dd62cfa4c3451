/**
 * The state of a `search_files` call over the stored search index (schema version 3): the active
 * revision and its statistics read first, then `searchTermStore` over that revision's rows (its
 * terms' postings, then the hits' pages), and a file table of the hits' records only. Nothing else of
 * the revision is read: anything else the call touches throws `NotRead`.
 */
import {
  BM25F_DEFAULTS,
  notRead,
  searchTermStore,
  type FileTable,
  type SourceState,
  type StoredPage,
  storedTable,
} from '../agent/internals.js';
import type { SearchEngine, SearchRequest } from '../agent/index.js';
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import type { NarrowContext } from './narrowState.js';
import { readSearchHead, RevisionGone, sqlTermStore } from './termStore.js';

/** One search call's state, and whether its revision went away while it ran. */
export interface SearchCall {
  readonly state: SourceState;
  /** Whether a read found the call's revision removed (the call should start again). */
  gone(): boolean;
}

/**
 * The state of one `search_files` call (or `warm`) on the active revision.
 *
 * @param context - where the source reads, and its settings.
 * @returns the state, or `undefined` when the knowledge base is not in the store or its active
 *   revision has no search rows (the caller answers from the whole revision, as before version 3).
 */
export async function searchState(context: NarrowContext): Promise<SearchCall | undefined> {
  const head = await readSearchHead(context.db, context.s, context.knowledgeBase);
  if (head === undefined || head.stats === null) return undefined;
  let hits: FileTable | undefined;
  let gone = false;
  const store = sqlTermStore(
    context.db,
    context.s,
    context.knowledgeBase,
    { ...head, stats: head.stats },
    (records: readonly StoredPage['record'][]) => {
      hits = storedTable(records, head.revision);
    },
  );
  const engine: SearchEngine = Object.freeze({
    search: async (request: SearchRequest) => {
      try {
        return await searchTermStore(store, request, {
          excerptChars: BM25F_DEFAULTS.excerptChars,
          embedder: context.embedder,
          semanticTimeoutMs: context.semanticTimeoutMs,
        });
      } catch (error) {
        if (error instanceof RevisionGone) gone = true;
        throw error;
      }
    },
  });
  const table: FileTable = {
    activeContentRevision: head.revision,
    get pages() {
      return notRead('the page list');
    },
    get files() {
      return notRead('the file list');
    },
    byId: (fileId) =>
      hits?.byId(fileId) ?? notRead(`the file ${JSON.stringify(fileId)} (not a hit shown)`),
    byPath: (path) => notRead(`the file ${JSON.stringify(path)}`),
    directory: (path) => notRead(`the directory ${JSON.stringify(path)}`),
    children: (path) => notRead(`the directory ${JSON.stringify(path)}`),
    closestIds: () => notRead('the file IDs'),
    closestPaths: () => notRead('the file paths'),
  };
  const state: SourceState = {
    catalog: defineKnowledgeCatalog([]),
    table,
    relations: { get: (fileId) => notRead(`the relationships of ${JSON.stringify(fileId)}`) },
    engine,
    defaults: context.defaults,
    maxReadChars: context.maxReadChars,
    cursors: context.cursors,
    navText: (fileId) => notRead(`the text of ${JSON.stringify(fileId)}`),
    sectionSizes: (documentId) => notRead(`the section sizes of ${JSON.stringify(documentId)}`),
  };
  return { state, gone: () => gone };
}
