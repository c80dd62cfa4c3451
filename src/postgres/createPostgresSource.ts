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
} from '../internal/checkOptions.js';
import { isPlainObject } from '../internal/values.js';
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import {
  gateWarmUp,
  progressListener,
  searchCorpus,
  type RelationRecord,
  type CallScope,
  openScope,
  toToolError,
  cursorKeyProblem,
  cursorSigner,
  KNOWLEDGE_TOOLS,
  type KnowledgeToolRegistry,
  readPlanOf,
  type ReadPlan,
  type ToolDefinition,
  toolMethods,
  type SourceState,
  NotRead,
  storedState,
  storedTable,
} from '../agent/internals.js';
import {
  createBm25fEngine,
  type SearchEngine,
  type KnowledgeWarmContext,
  type KnowledgeSource,
} from '../agent/index.js';
import { knowledgeBaseProblem } from './knowledgeBaseId.js';
import { type PageDemand, readPage } from './readPage.js';
import { type Demand, graphPage, readRevision, RECORDS_ONLY } from './readRevision.js';
import {
  expandGraphState,
  listTreeState,
  type NarrowContext,
  navFileState,
} from './narrowState.js';
import { schemaOf } from './schema.js';
import { searchState } from './searchState.js';
import { checkDatabase } from './session.js';
import type { KnowledgeDatabase, PostgresSourceOptions } from './types.js';

const API = 'createPostgresSource';
const DEFAULT_MAX_READ_CHARS = 20_000;
/** How many times a search starts again when its revision was removed while it ran. */
const SEARCH_ATTEMPTS = 3;

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

/** What `warm` runs as: a search, which builds (or opens) the revision's engine. */
const WARM = KNOWLEDGE_TOOLS.find((tool) => tool.name === 'search_files')! as ToolDefinition;

/** An engine for calls that do not search: never called. */
const NO_ENGINE: SearchEngine = Object.freeze({
  search: () => Promise.reject(new Error('postgres source: no engine was built for this call')),
});

/**
 * The one page a call reads, when its plan names one file by exactly one of `fileId` and `path` and
 * reads no more than that file (its text, its relationships); otherwise `undefined` (the whole
 * revision's records are read). A navigation file's reads are its page's: a graph file's record comes
 * with its page's, its text is that page's relationships.
 */
function pageDemandOf(plan: ReadPlan): PageDemand | undefined {
  const { file } = plan;
  if (file === undefined || (file.fileId === null) === (file.path === null)) return undefined;
  const graph = graphPage(file.fileId ?? file.path);
  if (plan.text)
    return graph === null
      ? { fileId: file.fileId, path: file.path, document: true, related: false }
      : { fileId: graph, path: null, document: false, related: true };
  if (plan.related) return { fileId: file.fileId, path: file.path, document: false, related: true };
  return graph === null
    ? { fileId: file.fileId, path: file.path, document: false, related: false }
    : { fileId: graph, path: null, document: false, related: false };
}

/** What a call planned as `plan` reads of the whole revision besides the page records. */
function demandOf(plan: ReadPlan): Demand {
  const { file } = plan;
  if (plan.everything) return { ...RECORDS_ONLY, everything: true };
  if (plan.walk !== undefined) return { ...RECORDS_ONLY, allRelations: true };
  if (file === undefined) return RECORDS_ONLY;
  if (plan.text)
    return {
      ...RECORDS_ONLY,
      fileId: file.fileId,
      path: file.path,
      document: true,
      relationsOf: graphPage(file.fileId) ?? graphPage(file.path),
    };
  if (plan.related) return { ...RECORDS_ONLY, relationsOf: file.fileId };
  return { ...RECORDS_ONLY, fileId: file.fileId, path: file.path };
}

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
  // Without a `search` engine of the app's, search runs on the stored index (schema version 3); the
  // default engine, in memory, answers for a revision stored without one.
  const stored = opts.search === undefined;
  const factory = opts.search ?? createBm25fEngine();
  const defaults = { actionBase: opts.actionBase ?? '', knowledgeBaseId: opts.id ?? knowledgeBase };
  const maxReadChars = opts.maxReadChars ?? DEFAULT_MAX_READ_CHARS;
  const cursors = cursorSigner(opts.cursorKey);
  let engineOf: { readonly serial: number; readonly engine: Promise<SearchEngine> } | undefined;

  /** The engine of revision `serial` (of the latest revision searched), built on first use. */
  const engineFor = (serial: number): Promise<SearchEngine> => {
    if (engineOf?.serial === serial) return engineOf.engine;
    const engine = (async () => {
      const read = await readRevision(database, s, knowledgeBase, {
        ...RECORDS_ONLY,
        everything: true,
      });
      if (read === undefined || read.serial !== serial)
        throw new Error('postgres source: the revision changed while its search index was built');
      const table = storedTable(
        read.pages.map((p) => p.record),
        read.revision,
      );
      const catalog = defineKnowledgeCatalog(read.pages.map((p) => p.document!));
      const relations = new Map<string, readonly RelationRecord[]>(
        read.pages.map((p) => [p.record.fileId, p.relations ?? []]),
      );
      // Searches during a warm-up wait at most a second, then are refused with retryAfterSeconds.
      return gateWarmUp(factory(searchCorpus(catalog, table, relations)));
    })();
    engineOf = { serial, engine };
    engine.catch(() => {
      if (engineOf?.engine === engine) engineOf = undefined;
    });
    return engine;
  };

  const narrow: NarrowContext = {
    db: database,
    s,
    knowledgeBase,
    defaults,
    maxReadChars,
    engine: NO_ENGINE,
    cursors,
    embedder: opts.embedder,
    semanticTimeoutMs: opts.semanticTimeoutMs,
  };

  /**
   * The state of a call that reads only what it returns (a `list_tree` window, `index.md`, an
   * `expand_graph` walk), or `undefined` for the others and when that read does not apply.
   */
  const narrowStateFor = (
    scope: CallScope,
    plan: ReadPlan,
    input: unknown,
  ): Promise<SourceState | undefined> | undefined => {
    if (plan.listing) return listTreeState(narrow, scope, input);
    if (plan.walk !== undefined) return expandGraphState(narrow, plan.walk);
    if (plan.file !== undefined && !plan.related) return navFileState(narrow, plan.file);
    return undefined;
  };

  /** The state of one call: the active revision, read now. */
  const stateFor = async (scope: CallScope, plan: ReadPlan): Promise<SourceState> => {
    const one = pageDemandOf(plan);
    const page = one === undefined ? 'missing' : await readPage(database, s, knowledgeBase, one);
    // A miss (no such page, or a call not about one page) reads the whole revision's records: the
    // answer (NOT_FOUND with the closest IDs, a directory, index.md) needs them.
    const read =
      page === 'missing' ? await readRevision(database, s, knowledgeBase, demandOf(plan)) : page;
    if (read === undefined)
      throw scope.fail(
        'NOT_FOUND',
        `The knowledge base ${JSON.stringify(knowledgeBase)} is not in the store. Publish it first (\`knowledge-kit publish <folder> --database <url> --kb ${knowledgeBase}\`), or pick one of \`listKnowledgeBases\`.`,
      );
    const engine = plan.search ? await engineFor(read.serial) : NO_ENGINE;
    return storedState(read.pages, read.revision, engine, defaults, maxReadChars, cursors);
  };

  /** Run one method: open its scope, refuse an aborted call, read, answer; every failure a tool error. */
  const run = async <T>(
    tool: ToolDefinition,
    input: unknown,
    context: unknown,
    body: (state: SourceState, scope: CallScope) => T | Promise<T>,
  ): Promise<T> => {
    let scope: CallScope | undefined;
    try {
      scope = openScope(tool.name, context, defaults);
      if (scope.signal?.aborted)
        throw scope.fail('TIMEOUT', `\`${tool.name}\` was aborted before it ran.`);
      const plan = readPlanOf(tool, input);
      if (plan.search && stored) {
        // The stored index: start again if the revision went away meanwhile (more than `keep`
        // publishes during one search); a revision without search rows is searched in memory below.
        for (let attempt = 0; attempt < SEARCH_ATTEMPTS; attempt++) {
          const call = await searchState(narrow);
          if (call === undefined) break;
          try {
            return await body(call.state, scope);
          } catch (error) {
            if (error instanceof NotRead) break;
            if (!call.gone()) throw error;
          }
        }
      }
      const narrowed = await narrowStateFor(scope, plan, input);
      if (narrowed !== undefined) {
        try {
          return await body(narrowed, scope);
        } catch (error) {
          if (!(error instanceof NotRead)) throw error;
          // It needed more than it read: answer from the whole revision below.
        }
      }
      const state = await stateFor(scope, plan);
      return await body(state, scope);
    } catch (error) {
      throw toToolError(scope ?? openScope(tool.name, undefined, defaults), error);
    }
  };

  const source: KnowledgeSource = {
    ...toolMethods(run, registry),
    warm: (context?: KnowledgeWarmContext) =>
      run(WARM, undefined, context, (state, scope) =>
        state.engine.warm?.(scope.signal, progressListener(context)),
      ),
  };
  return Object.freeze(source);
}
