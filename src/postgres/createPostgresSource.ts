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
  peekCursorParams,
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
  type KnowledgeToolName,
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

/** An engine for calls that do not search: never called. */
const NO_ENGINE: SearchEngine = Object.freeze({
  search: () => Promise.reject(new Error('postgres source: no engine was built for this call')),
});

/**
 * The one page a call is about, when it is about one page named by exactly one of `fileId` and `path`
 * (`get_file`, `read_file`, `read_related`); otherwise `undefined` (the whole revision's records are read).
 */
function pageDemandOf(tool: KnowledgeToolName, input: unknown): PageDemand | undefined {
  if (!isPlainObject(input)) return undefined;
  const fileId = typeof input['fileId'] === 'string' ? input['fileId'] : null;
  const path = typeof input['path'] === 'string' ? input['path'] : null;
  if ((fileId === null) === (path === null) || (tool !== 'read_file' && path !== null))
    return undefined;
  switch (tool) {
    case 'get_file':
      // A graph file's record comes with its page's (the file table of that page has it).
      return { fileId: graphPage(fileId) ?? fileId, path: null, document: false, related: false };
    case 'read_related':
      return { fileId, path: null, document: false, related: true };
    case 'read_file': {
      const graph = graphPage(fileId ?? path);
      return graph === null
        ? { fileId, path, document: true, related: false }
        : { fileId: graph, path: null, document: false, related: true };
    }
    default:
      return undefined;
  }
}

/**
 * The input as far as planning the read goes: a cursor given alone carries the call's parameters (its
 * page), which fill those not given. Unverified here; the call checks the cursor.
 */
function plannedInput(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  const params = peekCursorParams(input['cursor']);
  if (params === undefined) return input;
  const filled: Record<string, unknown> = { ...input };
  for (const [name, value] of Object.entries(params))
    if (filled[name] === undefined || filled[name] === null) filled[name] = value;
  return filled;
}

/** What a call of `tool` with `input` reads besides the page records. */
function demandOf(tool: KnowledgeToolName, input: unknown): Demand {
  const args = (isPlainObject(input) ? input : {}) as Record<string, unknown>;
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  switch (tool) {
    case 'get_file':
      return { ...RECORDS_ONLY, fileId: str(args['fileId']) };
    case 'read_file':
      return {
        ...RECORDS_ONLY,
        fileId: str(args['fileId']),
        path: str(args['path']),
        document: true,
        relationsOf: graphPage(args['fileId']) ?? graphPage(args['path']),
      };
    case 'read_related':
      return { ...RECORDS_ONLY, relationsOf: str(args['fileId']) };
    case 'expand_graph':
      return { ...RECORDS_ONLY, allRelations: true };
    default:
      return RECORDS_ONLY;
  }
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
   * The state of a call that reads only what it returns (`list_tree`, `index.md`, `expand_graph`), or
   * `undefined` for the others and when that read does not apply.
   */
  const narrowStateFor = (
    scope: CallScope,
    tool: KnowledgeToolName,
    input: unknown,
  ): Promise<SourceState | undefined> | undefined => {
    switch (tool) {
      case 'list_tree':
        return listTreeState(narrow, scope, input);
      case 'read_file':
      case 'get_file':
        return navFileState(narrow, input);
      case 'expand_graph':
        return expandGraphState(narrow, input);
      default:
        return undefined;
    }
  };

  /** The state of one call: the active revision, read now. */
  const stateFor = async (
    scope: CallScope,
    tool: KnowledgeToolName,
    input: unknown,
  ): Promise<SourceState> => {
    const planned = plannedInput(input);
    const one = pageDemandOf(tool, planned);
    const page = one === undefined ? 'missing' : await readPage(database, s, knowledgeBase, one);
    // A miss (no such page, or a call not about one page) reads the whole revision's records: the
    // answer (NOT_FOUND with the closest IDs, a directory, index.md) needs them.
    const read =
      page === 'missing'
        ? await readRevision(database, s, knowledgeBase, demandOf(tool, planned))
        : page;
    if (read === undefined)
      throw scope.fail(
        'NOT_FOUND',
        `The knowledge base ${JSON.stringify(knowledgeBase)} is not in the store. Publish it first (\`knowledge-kit publish <folder> --database <url> --kb ${knowledgeBase}\`), or pick one of \`listKnowledgeBases\`.`,
      );
    const engine = tool === 'search_files' ? await engineFor(read.serial) : NO_ENGINE;
    return storedState(read.pages, read.revision, engine, defaults, maxReadChars, cursors);
  };

  /** Run one method: open its scope, refuse an aborted call, read, answer; every failure a tool error. */
  const run = async <T>(
    tool: KnowledgeToolName,
    input: unknown,
    context: unknown,
    body: (state: SourceState, scope: CallScope) => T | Promise<T>,
  ): Promise<T> => {
    let scope: CallScope | undefined;
    try {
      scope = openScope(tool, context, defaults);
      if (scope.signal?.aborted)
        throw scope.fail('TIMEOUT', `\`${tool}\` was aborted before it ran.`);
      if (tool === 'search_files' && stored) {
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
      const narrowed = await narrowStateFor(scope, tool, input);
      if (narrowed !== undefined) {
        try {
          return await body(narrowed, scope);
        } catch (error) {
          if (!(error instanceof NotRead)) throw error;
          // It needed more than it read: answer from the whole revision below.
        }
      }
      const state = await stateFor(scope, tool, input);
      return await body(state, scope);
    } catch (error) {
      throw toToolError(scope ?? openScope(tool, undefined, defaults), error);
    }
  };

  const source: KnowledgeSource = {
    ...toolMethods(run),
    warm: (context?: KnowledgeWarmContext) =>
      run('search_files', undefined, context, (state, scope) =>
        state.engine.warm?.(scope.signal, progressListener(context)),
      ),
  };
  return Object.freeze(source);
}
