/**
 * The one source over a store of published knowledge: every call is planned from its tool's `reads`,
 * read through the store's reader port (`storeReader.ts`), answered by the tool's own body over the
 * state `storedState` builds, and its failures mapped to tool errors. The PostgreSQL store and static
 * bundles are readers of this source; a SQLite or object-store reader would be another.
 *
 * @module
 */
import { DEFAULT_MAX_READ_CHARS } from './catalogSourceOptions.js';
import { defineKnowledgeCatalog } from '../../catalog/defineKnowledgeCatalog.js';
import type { RelationRecord } from '../model.js';
import { searchCorpus } from '../search/catalogCorpus.js';
import { BM25F_DEFAULTS, createBm25fEngine } from '../search/createBm25fEngine.js';
import type { SearchEngine, SearchEngineFactory, SearchRequest } from '../search/port.js';
import { searchTermStore } from '../search/termStoreEngine.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import type { KnowledgeSource, KnowledgeWarmContext } from '../tools/knowledgeSource.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from '../tools/registry.js';
import { searchFilesTool } from '../tools/searchFiles/definition.js';
import type { KnowledgeEmbedder } from '../types.js';
import { type CallScope, openScope, type ScopeDefaults, toToolError } from './callScope.js';
import { cursorSigner } from './cursorKey.js';
import { NotRead } from './notRead.js';
import { readPlanOf } from './planCall.js';
import type { ReadPlan } from './readPlan.js';
import type { SourceState } from './state.js';
import { toolMethods } from './toolMethods.js';
import { storedState, storedTable } from './storedState.js';
import {
  listingState,
  NO_ENGINE,
  navFileState,
  pageWantOf,
  RECORDS_ONLY,
  revisionWantOf,
  searchState,
  type StoredContext,
  walkState,
} from './storedReads.js';
import { MISSING, RevisionGone, type StoreCall, type StoreReader } from './storeReader.js';
import { gateWarmUp, progressListener } from './warmGate.js';
import { versionOptionProblem } from './versionOf.js';
import { DEFAULT_VERSION_LABEL } from '../versions/label.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';

/** How many times a search starts again when its revision was removed while it ran. */
const SEARCH_ATTEMPTS = 3;

/** What `warm` runs as: a search, which opens (or builds) the revision's index. */
const WARM = searchFilesTool as ToolDefinition;

/** Options of `createStoredSource` (checked by the store's own factory). */
export interface StoredSourceOptions {
  /** The knowledge base ID of outputs and cursors; default the call's `knowledgeBaseId`, else `''`. */
  readonly id?: string | undefined;
  /** Prefix of every read action URL; default `''`. */
  readonly actionBase?: string | undefined;
  /** Read limit of `read_file` parts; default 20,000. */
  readonly maxReadChars?: number | undefined;
  /** The key that signs cursors, as `createCatalogSource`'s. */
  readonly cursorKey?: string | Uint8Array | undefined;
  /**
   * An engine of the app's: searches then run in memory over the revision (built on its first search,
   * kept while it is current), never on the store's index. Default: the store's index, and
   * `createBm25fEngine()` in memory for a revision without one.
   */
  readonly search?: SearchEngineFactory | undefined;
  /** Embeds queries for the store index's `nearest` (hybrid search). */
  readonly embedder?: KnowledgeEmbedder | undefined;
  /** The semantic stage's time limit. */
  readonly semanticTimeoutMs?: number | undefined;
  /** The message of `NOT_FOUND` when the knowledge base is not in the store (say how to publish it). */
  readonly notFound: string;
  /**
   * The label of the source's one version, which every output names (a call naming another label is
   * `VERSION_NOT_FOUND`): 1 to 64 characters of `A–Z a–z 0–9 . _ -`. Default `current`. Each revision's
   * `publishedAt` is the store's (`StoreRevision.publishedAt`), else the time the source was created.
   */
  readonly version?: string | undefined;
  /** The tools to serve; default the six. */
  readonly registry?: KnowledgeToolRegistry | undefined;
}

/**
 * A `KnowledgeSource` over a store: the same outputs as `createCatalogSource` over the knowledge that
 * was published (file IDs, paths, contents, snapshot IDs, section sizes, relationships, cursors, error
 * codes). Each call opens the store (`reader.open`) and reads what its tool's plan names: one page's
 * row for a call about one page, a listing window, a navigation file, a walk level by level, a search
 * over the stored index (the in-memory engine's ranking, `searchTermStore`), and every page's record
 * when the store has no shortcut or the shortcut's state was touched beyond what it read (`NotRead`).
 *
 * @param reader - the store's reader port.
 * @param options - the source's settings and the store's `NOT_FOUND` message.
 * @returns a frozen source; its methods reject only with `KnowledgeToolError`.
 * @throws {KnowledgeError} `INVALID_INPUT` for a `version` that is not a version label.
 * @example
 * ```ts
 * const source = createStoredSource(myReader, { notFound: 'Publish the knowledge base first.' });
 * ```
 */
export function createStoredSource<Pin>(
  reader: StoreReader<Pin>,
  options: StoredSourceOptions,
): KnowledgeSource {
  const createdAt = new Date().toISOString();
  const versionProblem =
    options.version === undefined ? undefined : versionOptionProblem(options.version);
  if (versionProblem !== undefined)
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['options', 'version'],
        message: `createStoredSource: \`options.version\` must be ${versionProblem}.`,
      },
    ]);
  const version = options.version ?? DEFAULT_VERSION_LABEL;
  const base: ScopeDefaults = {
    actionBase: options.actionBase ?? '',
    knowledgeBaseId: options.id ?? '',
  };
  const maxReadChars = options.maxReadChars ?? DEFAULT_MAX_READ_CHARS;
  const cursors = cursorSigner(options.cursorKey);
  const stored = options.search === undefined;
  const factory = options.search ?? createBm25fEngine();
  const settings = {
    excerptChars: BM25F_DEFAULTS.excerptChars,
    embedder: options.embedder,
    semanticTimeoutMs: options.semanticTimeoutMs,
  };
  let engineOf: { readonly pin: Pin; readonly engine: Promise<SearchEngine> } | undefined;

  /** The in-memory engine of revision `pin` (of the latest revision searched), built on first use. */
  const engineFor = (call: StoreCall<Pin>, pin: Pin): Promise<SearchEngine> => {
    if (engineOf !== undefined && engineOf.pin === pin) return engineOf.engine;
    const engine = (async () => {
      const read = await call.revision({ ...RECORDS_ONLY, everything: true });
      if (read === undefined || read.pin !== pin)
        throw new Error('stored source: the revision changed while its search index was built');
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
    engineOf = { pin, engine };
    engine.catch(() => {
      if (engineOf?.engine === engine) engineOf = undefined;
    });
    return engine;
  };

  /** Answer from the store's search index, or `undefined` to answer from the revision. */
  const fromIndex = async <T>(
    context: StoredContext,
    call: StoreCall<Pin>,
    scope: CallScope,
    body: (state: SourceState, scope: CallScope) => T | Promise<T>,
  ): Promise<{ readonly answer: T } | undefined> => {
    if (call.search === undefined) return undefined;
    // Start again if the revision went away meanwhile (more publishes than a store keeps).
    for (let attempt = 0; attempt < SEARCH_ATTEMPTS; attempt++) {
      const search = await call.search();
      if (search === undefined) return undefined;
      let gone = false;
      const engine: SearchEngine = Object.freeze({
        search: async (request: SearchRequest) => {
          try {
            return await searchTermStore(search.store, request, settings);
          } catch (error) {
            if (error instanceof RevisionGone) gone = true;
            throw error;
          }
        },
      });
      try {
        return { answer: await body(searchState(context, search, engine), scope) };
      } catch (error) {
        if (error instanceof NotRead) return undefined;
        if (!gone) throw error;
      }
    }
    return undefined;
  };

  /** The state of a call that reads only what it returns, or `undefined` when that does not apply. */
  const narrowState = (
    context: StoredContext,
    call: StoreCall<Pin>,
    scope: CallScope,
    plan: ReadPlan,
    input: unknown,
  ): Promise<SourceState | undefined> | undefined => {
    if (plan.listing) return listingState(context, call, scope, input);
    if (plan.walk !== undefined) return walkState(context, call, plan.walk);
    if (plan.file !== undefined && !plan.related) return navFileState(context, call, plan.file);
    return undefined;
  };

  /** The state of one call from the current revision: its one page, else every record. */
  const revisionState = async (
    context: StoredContext,
    call: StoreCall<Pin>,
    scope: CallScope,
    plan: ReadPlan,
  ): Promise<SourceState> => {
    const one = pageWantOf(plan);
    const page = one === undefined || call.page === undefined ? MISSING : await call.page(one);
    // A miss (no such page, or a call not about one page) reads every record of the revision: the
    // answer (NOT_FOUND with the closest IDs, a directory, index.md) needs them.
    const read = page === MISSING ? await call.revision(revisionWantOf(plan)) : page;
    if (read === undefined) throw scope.fail('NOT_FOUND', options.notFound);
    const engine = plan.search ? await engineFor(call, read.pin) : NO_ENGINE;
    return storedState(read.pages, read, engine, context);
  };

  /** Run one method: open its scope and the store, read what the call needs, answer. */
  const run = async <T>(
    tool: ToolDefinition,
    input: unknown,
    context: unknown,
    body: (state: SourceState, scope: CallScope) => T | Promise<T>,
  ): Promise<T> => {
    let scope: CallScope | undefined;
    try {
      scope = openScope(tool.name, context, base);
      if (scope.signal?.aborted)
        throw scope.fail('TIMEOUT', `\`${tool.name}\` was aborted before it ran.`);
      const call = await reader.open(scope.signal);
      let defaults = base;
      if (options.id === undefined && call.knowledgeBaseId !== undefined) {
        defaults = { ...base, knowledgeBaseId: call.knowledgeBaseId };
        scope = openScope(tool.name, context, defaults);
      }
      const stored$: StoredContext = { defaults, maxReadChars, cursors, version, createdAt };
      const plan = readPlanOf(tool, input);
      if (plan.search && stored) {
        const found = await fromIndex(stored$, call, scope, body);
        if (found !== undefined) return found.answer;
      }
      const narrowed = await narrowState(stored$, call, scope, plan, input);
      if (narrowed !== undefined) {
        try {
          return await body(narrowed, scope);
        } catch (error) {
          if (!(error instanceof NotRead)) throw error;
          // It needed more than it read: answer from the revision below.
        }
      }
      const state = await revisionState(stored$, call, scope, plan);
      try {
        return await body(state, scope);
      } catch (error) {
        if (!(error instanceof NotRead)) throw error;
        // A plan that promised less than its call touched: every page's text and relationships.
        const whole: ReadPlan = plan.search
          ? { everything: true, search: true }
          : { everything: true };
        return await body(await revisionState(stored$, call, scope, whole), scope);
      }
    } catch (error) {
      throw toToolError(scope ?? openScope(tool.name, undefined, base), error);
    }
  };

  const source: KnowledgeSource = {
    ...toolMethods(run, options.registry ?? KNOWLEDGE_TOOLS),
    warm: (context?: KnowledgeWarmContext) =>
      run(WARM, undefined, context, (state, scope) =>
        state.engine.warm?.(scope.signal, progressListener(context)),
      ),
  };
  return Object.freeze(source);
}
