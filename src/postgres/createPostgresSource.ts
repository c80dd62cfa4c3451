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
  versionLabelProblem,
  versionNotFound,
  type KnowledgeToolRegistry,
  type StoreCall,
  type VersionListed,
} from '../agent/internals.js';
import { isKnowledgeToolError, KnowledgeToolError, type KnowledgeSource } from '../agent/index.js';
import { knowledgeBaseProblem } from './knowledgeBaseId.js';
import { readPage } from './readPage.js';
import { readRevision } from './readRevision.js';
import { readNavFile, readPages, readTreeWindow } from './readDerived.js';
import { schemaOf } from './schema.js';
import { checkDatabase } from './session.js';
import { openSearch } from './termStore.js';
import type { KnowledgeDatabase, PostgresSourceOptions } from './types.js';
import { readVersions, versionLabel } from './versions.js';

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
  version: versionLabel,
};

/** A read found the knowledge base but not the version served (its versions attached). */
class VersionMissing extends Error {
  override readonly name = 'VersionMissing';
  constructor(readonly versions: readonly VersionListed[]) {
    super('the knowledge base has no such version');
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
 * Versions: the source serves one version of the knowledge base, `version` (each version has its own
 * active revision), or without it the default version, looked up on each call (a change of the
 * default is seen by the next call) and named by its label in every output. Without `version`, a call
 * naming a version (`{ version: '2.x' }`) is answered by that version (its `nextCursor` goes on with
 * the same `version`; compose `createVersionedSource` for cursors and read actions that carry it). Reads return the revision's `publishedAt` (when the store
 * published it). A `version` the knowledge base does not have fails every call with
 * `VERSION_NOT_FOUND`, whose message lists the versions it has: never another version's answer.
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
 * @param options - `knowledgeBase`, and `version`, `id`, `actionBase`, `maxReadChars`, `search`, `schema`,
 *   `embedder`, `semanticTimeoutMs`, `cursorKey` (as `createCatalogSource`'s: give replicas, and a catalog source serving the same
 *   knowledge, the same key so that each accepts the others' cursors).
 * @returns a frozen source; its methods reject only with `KnowledgeToolError` (`NOT_FOUND` when the
 *   knowledge base is not in the store, `VERSION_NOT_FOUND` when it has no version `version`,
 *   `INTERNAL` when the database fails).
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad `db` or options.
 * @example
 * ```ts
 * const source = createPostgresSource(pool, { knowledgeBase: 'handbook' });
 * const found = await source.searchFiles({ query: 'When are renewal notices sent?' });
 * const older = createPostgresSource(pool, { knowledgeBase: 'handbook', version: '2.x' });
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
  const version = opts.version;
  /**
   * A read's answer; a read that found nothing of a version served: the knowledge base's versions
   * are read, and when it has any (it is in the store without that version) the call is refused.
   */
  const found = async <T>(read: Promise<T>): Promise<T> => {
    const answer = await read;
    if (answer !== undefined || version === undefined) return answer;
    const versions = await readVersions(database, s, knowledgeBase);
    if (versions.length > 0) throw new VersionMissing(versions);
    return answer;
  };
  // The store's reads, each one statement: SQL in `readPage.ts`, `readRevision.ts`,
  // `readDerived.ts` and `termStore.ts`.
  const call: StoreCall<number> = {
    revision: (want) => found(readRevision(database, s, knowledgeBase, want, version)),
    pages: (serial, fileIds, relations) =>
      found(readPages(database, s, knowledgeBase, serial, fileIds, relations, version)),
    page: (want) => found(readPage(database, s, knowledgeBase, want, version)),
    listing: (serial, path, from, to) =>
      found(readTreeWindow(database, s, knowledgeBase, serial, path, from, to, version)),
    navFile: (name) => found(readNavFile(database, s, knowledgeBase, name, version)),
    search: () => found(openSearch(database, s, knowledgeBase, version)),
  };
  const source = createStoredSource(
    { open: () => Promise.resolve(call) },
    {
      id: opts.id ?? knowledgeBase,
      actionBase: opts.actionBase,
      maxReadChars: opts.maxReadChars,
      cursorKey: opts.cursorKey,
      search: opts.search,
      embedder: opts.embedder,
      semanticTimeoutMs: opts.semanticTimeoutMs,
      // Outputs name the version served: `version`, or the default version's label, which each read
      // returns in its own statement (`labelColumn`).
      version,
      notFound: `The knowledge base ${JSON.stringify(knowledgeBase)} is not in the store. Publish it first (\`knowledge-kit publish <folder> --database <url> --kb ${knowledgeBase}${version === undefined ? '' : ` --version ${version}`}\`), or pick one of \`listKnowledgeBases\`.`,
      registry,
    },
  );
  if (version !== undefined) return refusingMissingVersion(source, registry, version);
  return routingNamedVersions(source, (label) =>
    registryPostgresSource(registry, db, { ...options, version: label }),
  );
}

/** How many sources of named versions a default-version source keeps (the rest are made per call). */
const NAMED_VERSIONS_KEPT = 16;

/**
 * `source` (of the default version) with each call that names a version (a label) sent to the
 * source of that version, made on first use: a call never gets the default version's answer for
 * another label, and a label the knowledge base lacks is refused listing the versions it has.
 */
function routingNamedVersions(
  source: KnowledgeSource,
  sourceOf: (label: string) => KnowledgeSource,
): KnowledgeSource {
  const kept = new Map<string, KnowledgeSource>();
  const named = (label: string): KnowledgeSource => {
    const found = kept.get(label);
    if (found !== undefined) return found;
    const made = sourceOf(label);
    if (kept.size < NAMED_VERSIONS_KEPT) kept.set(label, made);
    return made;
  };
  const methods: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(source)) {
    methods[key] =
      typeof method !== 'function' || key === 'warm'
        ? method
        : (input: unknown, ...rest: unknown[]): Promise<unknown> => {
            const label = isPlainObject(input) ? input['version'] : undefined;
            // A label that is not one (or `null`) is the default source's to answer or refuse.
            const target =
              typeof label === 'string' && versionLabelProblem(label) === undefined
                ? named(label)
                : source;
            return (target[key as keyof KnowledgeSource] as (...a: unknown[]) => Promise<unknown>)(
              input,
              ...rest,
            );
          };
  }
  return Object.freeze(methods) as unknown as KnowledgeSource;
}

/**
 * `source` with each method's refusal of a missing version (`VersionMissing` below the source,
 * `INTERNAL` above it) turned into `VERSION_NOT_FOUND` naming the method's tool.
 */
function refusingMissingVersion(
  source: KnowledgeSource,
  registry: KnowledgeToolRegistry,
  version: string,
): KnowledgeSource {
  const methods: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(source)) {
    if (typeof method !== 'function') {
      methods[key] = method;
      continue;
    }
    const tool = registry.find((definition) => definition.method === key)?.name ?? key;
    methods[key] = async (...args: unknown[]): Promise<unknown> => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        if (isKnowledgeToolError(error) && error.cause instanceof VersionMissing) {
          const refusal = versionNotFound(tool, version, error.cause.versions);
          throw new KnowledgeToolError('VERSION_NOT_FOUND', refusal.message, {
            requestId: error.requestId,
            details: refusal.details,
          });
        }
        throw error;
      }
    };
  }
  return Object.freeze(methods) as unknown as KnowledgeSource;
}
