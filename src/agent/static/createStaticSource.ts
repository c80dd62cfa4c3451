import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import { checkOptions, func, positiveInteger, string } from '../../internal/checkOptions.js';
import { isPlainObject } from '../../internal/values.js';
import type { KnowledgeDocument } from '../../types.js';
import type { RelationRecord } from '../model.js';
import { searchTermStore } from '../search/termStoreEngine.js';
import type { SearchEngine } from '../search/port.js';
import { type CallScope, openScope, type ScopeDefaults, toToolError } from '../source/callScope.js';
import { cursorKeyProblem, cursorSigner } from '../source/cursorKey.js';
import { NotRead } from '../source/notRead.js';
import { toolMethods } from '../source/toolMethods.js';
import { readPlanOf } from '../source/planCall.js';
import type { ReadPlan } from '../source/readPlan.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from '../tools/registry.js';
import { searchFilesTool } from '../tools/searchFiles/definition.js';
import type { SourceState } from '../source/state.js';
import { type StoredPage, storedState, storedTable } from '../source/storedState.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import {
  readBundle,
  type BundleFetchOptions,
  type BundleReader,
  type StaticBundleRead,
} from './bundleReader.js';
import {
  BUNDLE_PATHS,
  type BundleFiles,
  type BundlePage,
  type BundlePageRecord,
  type SearchManifest,
} from './bundleFormat.js';
import { shardTermStore } from './shardTermStore.js';
import { documentFromRanges } from './sectionRanges.js';

const API = 'createStaticSource';
const DEFAULT_MAX_READ_CHARS = 20_000;
/** The excerpt size of the default engine (`createBm25fEngine`). */
const EXCERPT_CHARS = 240;

/** Options of `createStaticSource`: where the bundle is (`baseUrl` or `read`), and the source's own. */
export interface StaticSourceOptions extends BundleFetchOptions {
  /** The URL of the bundle's root (the folder holding `manifest.json`). */
  readonly baseUrl?: string | undefined;
  /** With `baseUrl`: the fetch to use (default the global `fetch`). */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * Instead of `baseUrl`: reads a bundle file's text by its bundle path (`_index/files.json`), `null`
   * when there is none. `knowledge-kit/node`'s `readBundleDirectory(dir)` reads a folder.
   */
  readonly read?: StaticBundleRead | undefined;
  /** The knowledge base ID (in cursors); default the bundle's. */
  readonly id?: string | undefined;
  /** Prefix of every read action URL; default `''`. */
  readonly actionBase?: string | undefined;
  /** Read limit of `read_file` parts; default 20,000. */
  readonly maxReadChars?: number | undefined;
  /** The key that signs cursors, as `createCatalogSource`'s. */
  readonly cursorKey?: string | Uint8Array | undefined;
}

const CHECKS = {
  baseUrl: string,
  fetch: func,
  read: func,
  id: string,
  actionBase: string,
  maxReadChars: positiveInteger,
  cursorKey: cursorKeyProblem,
  maxFileBytes: positiveInteger,
  fetchTimeoutMs: positiveInteger,
};

/** What `warm` runs as: a search that reads the search manifest only. */
const WARM = searchFilesTool as ToolDefinition;

/** An engine for calls that do not search: never called. */
const NO_ENGINE: SearchEngine = Object.freeze({
  search: () => Promise.reject(new Error('static source: no engine was built for this call')),
});

/** What one revision of the bundle holds, read once and kept while it is the bundle's revision. */
interface RevisionData {
  readonly key: string;
  readonly files: BundleFiles;
  readonly graphPages: ReadonlyMap<string, BundlePage>;
  readonly byId: ReadonlyMap<string, BundlePage>;
  readonly byPath: ReadonlyMap<string, BundlePage>;
}

/**
 * A `KnowledgeSource` over a static bundle (`knowledge-kit export`, `exportKnowledgeBundle`), read
 * with `fetch` from `baseUrl` or with a `read` function: the same outputs as `createCatalogSource`
 * over the knowledge that was exported (file IDs, paths, contents, section sizes, relationships,
 * cursors, errors), and a lexical search that ranks as the in-memory engine does, reading only the
 * manifest, the shards of the query's terms and the hits' pages. `semanticStatus` is `disabled`, as
 * without an embedder. Each call reads `manifest.json` first: a new revision is seen on the next call
 * and never mixed with the files kept of the old one. Imports no Node built-in.
 *
 * @param options - `baseUrl` (and `fetch`) or `read`; `id`, `actionBase`, `maxReadChars`, `cursorKey`.
 * @returns a frozen source; its methods reject only with `KnowledgeToolError` (`TRANSPORT_ERROR` when
 *   a bundle file cannot be read, `INTERNAL` when the bundle is not one this version reads).
 * @throws {KnowledgeError} `INVALID_INPUT` for bad options (neither or both of `baseUrl` and `read`).
 * @example
 * ```ts
 * const source = createStaticSource({ baseUrl: 'https://example.com/kb/' });
 * const found = await source.searchFiles({ query: 'When are renewal notices sent?' });
 * ```
 */
export function createStaticSource(options: StaticSourceOptions): KnowledgeSource {
  return registryStaticSource(KNOWLEDGE_TOOLS, options);
}

/**
 * `createStaticSource` serving the tools of any registry (internal: the six tools' registry is the
 * default everywhere): each call reads what its tool's read plan names.
 *
 * @param registry - the tools to serve.
 * @param options - as `createStaticSource`'s.
 * @returns the frozen source.
 */
export function registryStaticSource(
  registry: KnowledgeToolRegistry,
  options: StaticSourceOptions,
): KnowledgeSource {
  const issues: KnowledgeIssue[] = [];
  const opts = checkOptions(API, options, CHECKS, issues) as Partial<StaticSourceOptions>;
  if (isPlainObject(options) && (opts.baseUrl === undefined) === (opts.read === undefined))
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options'],
      message: `${API}: pass exactly one of \`baseUrl\` (the URL of the bundle's folder) and \`read\` (a function reading a bundle file's text by its path).`,
    });
  else if (options === undefined)
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options'],
      message: `${API}: pass \`{ baseUrl }\` (the URL of a bundle's folder) or \`{ read }\`.`,
    });
  if (opts.baseUrl !== undefined && !URL.canParse(opts.baseUrl))
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'baseUrl'],
      message: `${API}: \`baseUrl\` ${JSON.stringify(opts.baseUrl)} is not a URL; pass an absolute one such as \`https://example.com/kb/\`.`,
    });
  if (issues.length > 0) throw new KnowledgeError(issues);
  const bundle: BundleReader = readBundle(
    opts.read !== undefined
      ? { read: opts.read }
      : { baseUrl: opts.baseUrl!, fetch: opts.fetch ?? ((r: Request) => fetch(r)) },
    opts,
  );
  const maxReadChars = opts.maxReadChars ?? DEFAULT_MAX_READ_CHARS;
  const cursors = cursorSigner(opts.cursorKey);
  let kept: { readonly key: string; data: Promise<RevisionData> | undefined } | undefined;

  /** The files of the manifest's revision: `_index/files.json`, read once per revision. */
  const revisionData = (key: string, signal: AbortSignal | undefined): Promise<RevisionData> => {
    if (kept?.key !== key) kept = { key, data: undefined };
    const slot = kept;
    if (slot.data === undefined) {
      const data = (async (): Promise<RevisionData> => {
        const files = (await bundle.json(BUNDLE_PATHS.files, signal)) as BundleFiles;
        if (JSON.stringify(files.activeContentRevision) !== key)
          throw bundle.mixed(BUNDLE_PATHS.files);
        return {
          key,
          files,
          graphPages: new Map(files.pages.map((p) => [p.graphPath, p])),
          byId: new Map(files.pages.map((p) => [p.fileId, p])),
          byPath: new Map(files.pages.map((p) => [p.path, p])),
        };
      })();
      slot.data = data;
      data.catch(() => {
        if (slot.data === data) slot.data = undefined;
      });
    }
    return slot.data;
  };

  /** A page's document: its text, cut into its sections by their ranges. */
  const documentOf = async (
    page: BundlePage | BundlePageRecord,
    signal: AbortSignal | undefined,
  ): Promise<KnowledgeDocument> => {
    const text = await bundle.text(page.path, signal);
    const head = { id: page.fileId, revision: String(page.revision), locale: page.locale };
    if ('outline' in page) {
      const { outline } = page;
      return documentFromRanges(
        head,
        text,
        outline.map(([id, parent]) => ({
          id,
          parentId: parent === -1 ? null : outline[parent]![0],
        })),
        outline.map(([, , start, end]) => [start, end] as const),
      );
    }
    return documentFromRanges(head, text, page.sections, page.ranges);
  };

  /** A page's relationships, from its graph file (`read_related`'s shape). */
  const relationsOf = async (
    page: BundlePage,
    signal: AbortSignal | undefined,
  ): Promise<RelationRecord[]> => {
    const graph = (await bundle.json(page.graphPath, signal)) as {
      items: (RelationRecord & { path: string })[];
    };
    return graph.items.map((r) => ({
      fileId: r.fileId,
      relationType: r.relationType,
      direction: r.direction,
      weight: r.weight,
      reason: r.reason,
      sectionId: r.sectionId,
    }));
  };

  const recordOf = (p: BundlePage | BundlePageRecord): StoredPage['record'] => ({
    fileId: p.fileId,
    path: p.path,
    title: p.title,
    description: p.description,
    frontmatter: p.frontmatter,
    tags: [],
    revision: String(p.revision),
    locale: p.locale,
    status: 'current_available',
  });

  /** The state of a call that does not search: every record, and the documents and relations asked. */
  const pagesState = async (
    data: RevisionData,
    defaults: ScopeDefaults,
    documents: ReadonlyMap<string, KnowledgeDocument>,
    relations: ReadonlyMap<string, readonly RelationRecord[]>,
  ): Promise<SourceState> => {
    const pages: StoredPage[] = data.files.pages.map((p) => ({
      record: recordOf(p),
      document: documents.get(p.fileId),
      sectionSizes: p.sections,
      relations: relations.get(p.fileId),
    }));
    return storedState(
      pages,
      data.files.activeContentRevision,
      NO_ENGINE,
      defaults,
      maxReadChars,
      cursors,
    );
  };

  /** Read the relationships of `ids` (pages of the revision) into `into`. */
  const loadRelations = async (
    data: RevisionData,
    ids: Iterable<string>,
    into: Map<string, readonly RelationRecord[]>,
    signal: AbortSignal | undefined,
  ): Promise<void> => {
    const wanted = [...new Set(ids)].filter((id) => !into.has(id) && data.byId.has(id));
    const read = await Promise.all(wanted.map((id) => relationsOf(data.byId.get(id)!, signal)));
    wanted.forEach((id, i) => into.set(id, read[i]!));
  };

  /** Read the documents of `ids` (pages of the revision) into `into`. */
  const loadDocuments = async (
    data: RevisionData,
    ids: Iterable<string>,
    into: Map<string, KnowledgeDocument>,
    signal: AbortSignal | undefined,
  ): Promise<void> => {
    const wanted = [...new Set(ids)].filter((id) => !into.has(id) && data.byId.has(id));
    const read = await Promise.all(wanted.map((id) => documentOf(data.byId.get(id)!, signal)));
    wanted.forEach((id, i) => into.set(id, read[i]!));
  };

  /** The state of a call other than a search, with what it reads planned from its arguments. */
  const stateFor = async (
    plan: ReadPlan,
    data: RevisionData,
    defaults: ScopeDefaults,
    signal: AbortSignal | undefined,
    relations: Map<string, readonly RelationRecord[]>,
  ): Promise<SourceState> => {
    const documents = new Map<string, KnowledgeDocument>();
    const { file, walk } = plan;
    if (plan.everything) {
      await loadDocuments(data, data.byId.keys(), documents, signal);
      await loadRelations(data, data.byId.keys(), relations, signal);
    } else if (file !== undefined && plan.text) {
      const name = file.fileId ?? file.path;
      const byName =
        name === null
          ? undefined
          : file.fileId !== null
            ? data.byId.get(name)
            : data.byPath.get(name);
      // A graph file's text is its page's relationships.
      const graphOf = name === null ? undefined : data.graphPages.get(name);
      if (byName !== undefined) await loadDocuments(data, [byName.fileId], documents, signal);
      else if (graphOf !== undefined)
        await loadRelations(data, [graphOf.fileId], relations, signal);
    } else if (file !== undefined && plan.related) {
      if (file.fileId !== null) await loadRelations(data, [file.fileId], relations, signal);
    } else if (walk !== undefined && data.byId.has(walk.seed)) {
      // Walk as expandGraph does: each level's pages need their relationships while a level follows.
      const seen = new Set([walk.seed]);
      let frontier = [walk.seed];
      for (let level = 1; level <= walk.depth && frontier.length > 0; level++) {
        await loadRelations(data, frontier, relations, signal);
        if (level === walk.depth) break;
        const next: string[] = [];
        for (const from of frontier)
          for (const r of (relations.get(from) ?? []).slice(0, walk.fanout))
            if (!seen.has(r.fileId)) {
              seen.add(r.fileId);
              next.push(r.fileId);
            }
        frontier = next;
      }
    }
    return pagesState(data, defaults, documents, relations);
  };

  /** The state of a search: the manifest's shards, and the records of the hits it reads. */
  const searchState = async (
    key: string,
    revision: BundleFiles['activeContentRevision'],
    defaults: ScopeDefaults,
    signal: AbortSignal | undefined,
  ): Promise<SourceState> => {
    const manifest = (await bundle.cached(key, BUNDLE_PATHS.search, signal)) as SearchManifest;
    if (JSON.stringify(manifest.activeContentRevision) !== key)
      throw bundle.mixed(BUNDLE_PATHS.search);
    const store = shardTermStore(manifest, {
      shard: (name) => bundle.cached(key, `${BUNDLE_PATHS.searchDir}${name}`, signal),
      document: (record) => documentOf(record, signal),
    });
    const engine: SearchEngine = {
      search: (request) => searchTermStore(store, request, { excerptChars: EXCERPT_CHARS }),
    };
    let table: ReturnType<typeof storedTable> | undefined;
    let tableSize = -1;
    /** The table of the records read so far (the hits'). */
    const current = () => {
      if (table === undefined || tableSize !== store.records.size) {
        table = storedTable([...store.records.values()].map(recordOf), revision);
        tableSize = store.records.size;
      }
      return table;
    };
    const state = storedState([], revision, engine, defaults, maxReadChars, cursors);
    return {
      ...state,
      table: {
        ...state.table,
        activeContentRevision: revision,
        byId: (fileId) => current().byId(fileId),
        byPath: (path) => current().byPath(path),
      },
    };
  };

  /** Run one method: open its scope, read the manifest, build the call's state, answer. */
  const run = async <T>(
    tool: ToolDefinition,
    input: unknown,
    context: unknown,
    body: (state: SourceState, scope: CallScope) => T | Promise<T>,
  ): Promise<T> => {
    const fallback: ScopeDefaults = {
      actionBase: opts.actionBase ?? '',
      knowledgeBaseId: opts.id ?? '',
    };
    let scope: CallScope | undefined;
    try {
      scope = openScope(tool.name, context, fallback);
      if (scope.signal?.aborted)
        throw scope.fail('TIMEOUT', `\`${tool.name}\` was aborted before it ran.`);
      const signal = scope.signal;
      const manifest = await bundle.manifest(signal);
      const defaults: ScopeDefaults = {
        actionBase: fallback.actionBase,
        knowledgeBaseId: opts.id ?? manifest.knowledgeBaseId,
      };
      scope = openScope(tool.name, context, defaults);
      const key = JSON.stringify(manifest.activeContentRevision);
      const plan = readPlanOf(tool, input);
      if (plan.search) {
        const state = await searchState(key, manifest.activeContentRevision, defaults, signal);
        return await body(state, scope);
      }
      const data = await revisionData(key, signal);
      const relations = new Map<string, readonly RelationRecord[]>();
      for (let attempt = 0; ; attempt++) {
        const state = await stateFor(plan, data, defaults, signal, relations);
        try {
          return await body(state, scope);
        } catch (error) {
          // It needed relationships it was not planned to read: read them all, once.
          if (!(error instanceof NotRead) || attempt > 0) throw error;
          await loadRelations(data, data.byId.keys(), relations, signal);
        }
      }
    } catch (error) {
      throw toToolError(scope ?? openScope(tool.name, undefined, fallback), error);
    }
  };

  const source: KnowledgeSource = {
    ...toolMethods(run, registry),
    // Nothing to build: the index is the bundle's.
    warm: (context) => run(WARM, undefined, context, () => undefined),
  };
  return Object.freeze(source);
}
