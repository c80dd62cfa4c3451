import type { KnowledgeCatalog } from '../../types.js';
import type { KnowledgeIssue } from '../../errors/codes.js';
import { isWellFormed } from '../../shared/codePoints.js';
import { guardInput, throwIfIssues } from '../../shared/guard.js';
import { buildFileTable, renderIndexMarkdown } from '../files/index.js';
import { buildRelations, type LinkCounts, readLinkRoot } from '../relations/index.js';
import { searchCorpus } from '../search/index.js';
import { DEFAULT_MAX_READ_CHARS, type CatalogSourceOptions } from './catalogSourceOptions.js';
import type { KnowledgeSource, KnowledgeWarmContext } from '../tools/knowledgeSource.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from '../tools/registry.js';
import { type CallScope, openScope, toToolError } from './callScope.js';
import { engineFailure } from './callEngine.js';
import { cursorSigner } from './cursorKey.js';
import { gateWarmUp, progressListener } from './warmGate.js';
import { toolMethods } from './toolMethods.js';
import { relatedItems } from '../tools/readRelated/run.js';
import { readSourceOptions } from './readSourceOptions.js';
import { computeSectionSizes } from './sectionSizes.js';
import type { SectionSize, SourceState } from './state.js';
import { isoTime } from './versionOf.js';
import { DEFAULT_VERSION_LABEL } from '../versions/label.js';

const API = 'createCatalogSource';

/**
 * Refuse document IDs no URL can carry: a lone surrogate cannot be percent-encoded
 * (`encodeURIComponent` throws `URIError`), yet a page's ID is its `fileId`, in its path, its graph
 * file's path and every HTTP route. Refused rather than encoded otherwise, as the folder loader does:
 * any replacement could collide with another ID and would not round-trip.
 */
function checkDocumentIds(catalog: KnowledgeCatalog): void {
  const issues: KnowledgeIssue[] = [];
  catalog.ids.forEach((id, i) => {
    if (isWellFormed(id)) return;
    issues.push({
      code: 'INVALID_INPUT',
      documentId: id,
      path: ['catalog', 'ids', i],
      message: `${API}: the document ID ${JSON.stringify(id)} holds a lone surrogate (an unpaired \\ud800–\\udfff code unit), which no URL or file path can carry. Give the document a valid Unicode ID.`,
    });
  });
  throwIfIssues(issues);
}

/**
 * Serve a compiled catalog to agents as a `KnowledgeSource`: every document is a page, with
 * `index.md` and `_graph/by-file/*.json` as navigation files, search over sections and file fields,
 * relationships from links and shared tags, and cursors bound to the revision.
 *
 * @param catalog - a catalog from `defineKnowledgeCatalog`.
 * @param options - page paths and metadata (`files`), `revision`, `id`, `actionBase`, the read limit,
 *   the version label every output names (`version`, default `current`) and when the content was
 *   published (`publishedAt`, default the time the source is created),
 *   the key that signs cursors (`cursorKey`, default a random key per process),
 *   what a site-root link's `/` stands for (`linkRoot`),
 *   and the search engine (`search`, default `createBm25fEngine()`, which takes the embedder, the
 *   reranker, `excerptChars` and the time limits).
 * @returns a source whose methods resolve to fresh JSON values and reject only with `KnowledgeToolError`.
 * @throws {KnowledgeError} `INVALID_INPUT` for invalid options (an engine option given here
 *   included, named with where it goes; an option whose getter or Proxy throws, named), invalid or colliding page paths, a
 *   document ID equal to a navigation file's ID or holding a lone surrogate, a `version` that is no
 *   label or a `publishedAt` that is no time; every problem in one
 *   error. Whatever the `search` factory throws.
 * @example
 * ```ts
 * const source = createCatalogSource(catalog, {
 *   files: { 'service-guide': { path: 'pages/guides/service.md', frontmatter: { tags: ['billing'] } } },
 * });
 * const found = await source.searchFiles({ query: 'When are renewal notices sent?' });
 * const page = await source.readFile({ fileId: found.items[0].fileId });
 * // Another engine, or the default one with an embedder:
 * createCatalogSource(catalog, { search: createBm25fEngine({ embedder }) });
 * ```
 */
export function createCatalogSource(
  catalog: KnowledgeCatalog,
  options?: CatalogSourceOptions,
): KnowledgeSource {
  return registryCatalogSource(KNOWLEDGE_TOOLS, catalog, options);
}

/**
 * `createCatalogSource` serving the tools of any registry (internal: the six tools' registry is the
 * default everywhere): one method per tool, each running the tool's body.
 *
 * @param registry - the tools to serve.
 * @param catalog - as `createCatalogSource`'s.
 * @param options - as `createCatalogSource`'s.
 * @returns the frozen source.
 */
export function registryCatalogSource(
  registry: KnowledgeToolRegistry,
  catalog: KnowledgeCatalog,
  options?: CatalogSourceOptions,
): KnowledgeSource {
  const createdAt = new Date().toISOString();
  const { options: opts, search } = readSourceOptions(catalog, options);
  checkDocumentIds(catalog);
  // `files` as a function, or its entries, are the caller's code and data: what they throw is theirs
  // to fix, so it is `INVALID_INPUT` too (the file table names the entry when it can).
  const table = guardInput(API, () => buildFileTable(catalog, opts));
  const relations = buildRelations(catalog, table, readLinkRoot(opts.linkRoot));
  // Searches while `warm()` runs are refused with `retryAfterSeconds` (warmGate.ts).
  const engine = gateWarmUp(search(searchCorpus(catalog, table, relations)));
  const navTexts = new Map<string, string>();
  const sizes = new Map<string, readonly SectionSize[]>();
  const defaults = { actionBase: opts.actionBase ?? '', knowledgeBaseId: opts.id ?? '' };

  const state: SourceState = {
    catalog,
    table,
    relations,
    engine,
    defaults,
    cursors: cursorSigner(opts.cursorKey),
    version: opts.version ?? DEFAULT_VERSION_LABEL,
    publishedAt: isoTime(opts.publishedAt) ?? createdAt,
    maxReadChars: opts.maxReadChars ?? DEFAULT_MAX_READ_CHARS,
    navText(fileId) {
      const cached = navTexts.get(fileId);
      if (cached !== undefined) return cached;
      const file = table.byId(fileId)!;
      let text: string;
      if (file.kind === 'graph') {
        // A graph file holds its page's whole `read_related` output, on one page.
        const scope = openScope('read_related', undefined, defaults);
        const { items } = relatedItems(state, scope, file.pageId!);
        text = `${JSON.stringify({ fileId: file.pageId, items, nextCursor: null }, null, 2)}\n`;
      } else text = renderIndexMarkdown(table);
      // Graph files are one per page and cheap to write again from the relations: only index.md is kept.
      if (file.kind === 'index') navTexts.set(fileId, text);
      return text;
    },
    sectionSizes(documentId) {
      const cached = sizes.get(documentId);
      if (cached !== undefined) return cached;
      const found = Object.freeze(computeSectionSizes(catalog, documentId));
      sizes.set(documentId, found);
      return found;
    },
  };

  /**
   * Run one method: open its scope, refuse an aborted call, and turn any failure into a
   * `KnowledgeToolError`. A synchronous body's result is resolved directly, without a second await.
   */
  const run = <T>(
    tool: string,
    context: unknown,
    body: (scope: CallScope) => T | Promise<T>,
  ): Promise<T> => {
    let scope: CallScope | undefined;
    const failed = (error: unknown) =>
      Promise.reject(toToolError(scope ?? openScope(tool, undefined, defaults), error));
    try {
      scope = openScope(tool, context, defaults);
      if (scope.signal?.aborted)
        throw scope.fail('TIMEOUT', `\`${tool}\` was aborted before it ran.`);
      const result = body(scope);
      return result instanceof Promise ? result.catch(failed) : Promise.resolve(result);
    } catch (error) {
      return failed(error);
    }
  };

  const source: KnowledgeSource = {
    ...toolMethods(
      (tool, _input, context, body) => run(tool.name, context, (scope) => body(state, scope)),
      registry,
    ),
    warm: (context?: KnowledgeWarmContext) =>
      run('search_files', context, (scope) =>
        engine.warm?.(scope.signal, progressListener(context)).catch((error: unknown) => {
          throw engineFailure(scope, error, 'Warming search');
        }),
      ),
  };
  const frozen = Object.freeze(source);
  RELATIONS.set(frozen, relations);
  return frozen;
}

/**
 * Each catalog source's relationships, for how their links resolved (the command line's start-up
 * line); read when asked, as the links are scanned on the first question.
 */
const RELATIONS = new WeakMap<KnowledgeSource, { readonly links: LinkCounts }>();

/**
 * How the links of a catalog source's pages resolved (`undefined` for another kind of source): what
 * `serve` and `mcp` report at start, so that a wrong `--link-root` shows.
 */
export function linkCountsOf(source: KnowledgeSource): LinkCounts | undefined {
  return RELATIONS.get(source)?.links;
}
