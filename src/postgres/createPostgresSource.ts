import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  positiveInteger,
  string,
  timeoutMs,
  withMethod,
  type OptionCheck,
} from '../shared/checkOptions.js';
import { isPlainObject } from '../shared/values.js';
import {
  createStoredSource,
  cursorKeyProblem,
  KNOWLEDGE_TOOLS,
  type KnowledgeToolRegistry,
  type StoreCall,
} from '../agent/internals.js';
import type { KnowledgeSource } from '../agent/index.js';
import { knowledgeBaseProblem } from './knowledgeBaseId.js';
import { readPage } from './readPage.js';
import { readRevision } from './readRevision.js';
import { readNavFile, readPages, readTreeWindow } from './readDerived.js';
import { schemaOf } from './schema.js';
import { checkDatabase } from './session.js';
import { openSearch } from './termStore.js';
import type { KnowledgeDatabase, PostgresSourceOptions } from './types.js';

const API = 'createPostgresSource';

const CHECKS: Readonly<Record<keyof PostgresSourceOptions, OptionCheck>> = {
  knowledgeBase: () => undefined,
  id: string,
  actionBase: string,
  maxReadChars: positiveInteger,
  cursorKey: cursorKeyProblem,
  search: func,
  schema: string,
  embedder: withMethod('embed'),
  semanticTimeoutMs: timeoutMs,
};

/**
 * A `KnowledgeSource` over one knowledge base of the store: the same outputs as `createCatalogSource`
 * over the catalog and files that were published (same file IDs, paths, contents, snapshot IDs,
 * section sizes, relationships, cursors and error codes), with `activeContentRevision` the published
 * revision. Creating it reads nothing. Each call reads the active revision and what it needs of it in
 * one statement (one snapshot: a call never mixes revisions) and answers with the agent layer's own
 * code: a call about one page reads that page's row (and its related pages' records) only;
 * `list_tree`, `index.md` and `expand_graph` read what they return; a miss reads every page's record.
 * A publish in between makes the next call see the new revision and older cursors stale.
 *
 * Search: without `search`, `search_files` runs on the revision's stored search index
 * (`searchTermStore`: the in-memory engine's ranking, reading the query's terms' rows and the hits'
 * pages only), fusing the stored chunk vectors' nearest pages when given an `embedder` (pgvector;
 * the revision must have been published with the same model). With `search` (an engine of the app's,
 * e.g. with a reranker), or on a revision stored
 * without search rows, that engine (default `createBm25fEngine()`) is built over the active
 * revision's pages on the first search of that revision and kept until another revision is active.
 *
 * @param db - anything with `query(text, params)`: a `pg` Pool or Client, PGlite.
 * @param options - `knowledgeBase`, and `id`, `actionBase`, `maxReadChars`, `search`, `schema`,
 *   `embedder`, `semanticTimeoutMs`, `cursorKey` (as `createCatalogSource`'s: give replicas, and a catalog source serving the same
 *   knowledge, the same key so that each accepts the others' cursors).
 * @returns a frozen source; its methods reject only with `KnowledgeToolError` (`NOT_FOUND` when the
 *   knowledge base is not in the store, `INTERNAL` when the database fails).
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad `db` or options.
 * @example
 * ```ts
 * const source = createPostgresSource(pool, { knowledgeBase: 'handbook' });
 * const found = await source.searchFiles({ query: 'When are renewal notices sent?' });
 * ```
 */
export function createPostgresSource(
  db: KnowledgeDatabase,
  options: PostgresSourceOptions,
): KnowledgeSource {
  return registryPostgresSource(KNOWLEDGE_TOOLS, db, options);
}

/**
 * `createPostgresSource` serving the tools of any registry (internal: the six tools' registry is the
 * default everywhere): each call reads what its tool's read plan names.
 *
 * @param registry - the tools to serve.
 * @param db - as `createPostgresSource`'s.
 * @param options - as `createPostgresSource`'s.
 * @returns the frozen source.
 */
export function registryPostgresSource(
  registry: KnowledgeToolRegistry,
  db: KnowledgeDatabase,
  options: PostgresSourceOptions,
): KnowledgeSource {
  const database = checkDatabase(API, db);
  const issues: KnowledgeIssue[] = [];
  const opts = checkOptions(API, options, CHECKS, issues) as Partial<PostgresSourceOptions>;
  if (options === undefined)
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options'],
      message: `${API}: pass \`{ knowledgeBase }\`, the ID of a published knowledge base.`,
    });
  else if (isPlainObject(options)) {
    const problem = knowledgeBaseProblem(API, opts.knowledgeBase, ['options', 'knowledgeBase']);
    if (problem) issues.push(problem);
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  const s = schemaOf(API, opts.schema);
  const knowledgeBase = opts.knowledgeBase!;
  // The store's reads, each one statement: SQL in `readPage.ts`, `readRevision.ts`,
  // `readDerived.ts` and `termStore.ts`.
  const call: StoreCall<number> = {
    revision: (want) => readRevision(database, s, knowledgeBase, want),
    pages: (serial, fileIds, relations) =>
      readPages(database, s, knowledgeBase, serial, fileIds, relations),
    page: (want) => readPage(database, s, knowledgeBase, want),
    listing: (serial, path, from, to) =>
      readTreeWindow(database, s, knowledgeBase, serial, path, from, to),
    navFile: (name) => readNavFile(database, s, knowledgeBase, name),
    search: () => openSearch(database, s, knowledgeBase),
  };
  return createStoredSource(
    { open: () => Promise.resolve(call) },
    {
      id: opts.id ?? knowledgeBase,
      actionBase: opts.actionBase,
      maxReadChars: opts.maxReadChars,
      cursorKey: opts.cursorKey,
      search: opts.search,
      embedder: opts.embedder,
      semanticTimeoutMs: opts.semanticTimeoutMs,
      notFound: `The knowledge base ${JSON.stringify(knowledgeBase)} is not in the store. Publish it first (\`knowledge-kit publish <folder> --database <url> --kb ${knowledgeBase}\`), or pick one of \`listKnowledgeBases\`.`,
      registry,
    },
  );
}
