import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import { checkOptions, func, positiveInteger, string } from '../../shared/checkOptions.js';
import { isPlainObject } from '../../shared/values.js';
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import type { KnowledgeDocument } from '../../types.js';
import { renderIndexMarkdown } from '../files/renderIndexMarkdown.js';
import type { FileTable, RelationRecord } from '../model.js';
import { cursorKeyProblem } from '../source/cursorKey.js';
import { isoTime, versionOptionProblem } from '../source/versionOf.js';
import { createStoredSource } from '../source/createStoredSource.js';
import { type StoredPage, storedTable } from '../source/storedState.js';
import { GONE, MISSING, type StoreCall, type StoreReader } from '../source/storeReader.js';
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from '../tools/registry.js';
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
import { pageTextProblem, type PageShape } from './pageTextProblem.js';
import { withBundleVersions } from './versionedBundle.js';
import { versionBundleDir } from './versionsFile.js';

const API = 'createStaticSource';

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
  /**
   * The label of the bundle's version, which every output names (a call naming another label is
   * `VERSION_NOT_FOUND`), as `createCatalogSource`'s. Default `current`.
   */
  readonly version?: string | undefined;
}

const CHECKS = {
  baseUrl: string,
  fetch: func,
  read: func,
  id: string,
  actionBase: string,
  maxReadChars: positiveInteger,
  cursorKey: cursorKeyProblem,
  version: versionOptionProblem,
  maxFileBytes: positiveInteger,
  fetchTimeoutMs: positiveInteger,
};

/**
 * What one revision of the bundle holds, read once (`_index/files.json`) and indexed once, kept while
 * it is the bundle's revision: a call costs what it touches, not the size of the file list.
 */
interface RevisionData {
  readonly key: string;
  readonly files: BundleFiles;
  readonly byId: ReadonlyMap<string, BundlePage>;
  readonly byPath: ReadonlyMap<string, BundlePage>;
  /** Every page's record, in the file list's order. */
  readonly records: readonly StoredPage['record'][];
  /** The revision's file table (listings, `index.md`), built on first use. */
  table(): FileTable;
  /** `index.md`'s text, rendered on first use. */
  indexText(): string;
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
 * Over an export with versions (`knowledge-kit export --version …`: `versions.json` and one bundle per
 * `versions/<label>/`), it answers as `createVersionedSource` over one static source per version
 * (`version` argument, root listing of the versions, `VERSION_NOT_FOUND`, cursors bound to their
 * version). It reads nothing at creation: the first call that finds no `manifest.json` at the root
 * reads `versions.json`; a plain bundle never reads it. It has no `versionLabels`; the root
 * `list_tree` lists the versions.
 *
 * @param options - `baseUrl` (and `fetch`) or `read`; `id`, `actionBase`, `maxReadChars`, `cursorKey`,
 *   `version` (the label outputs name, default `current`). Outputs' `publishedAt` is the manifest's (when
 *   the exported source published it), or for a bundle of an earlier release the source's creation time.
 * @returns a frozen source; its methods reject only with `KnowledgeToolError` (`TRANSPORT_ERROR` when
 *   a bundle file cannot be read, `INTERNAL` when the bundle is not one this version reads or a file
 *   is not what the export wrote: a page whose text does not match its `textSha256` or whose section
 *   ranges do not fit it, a shard off its digest; nothing of such a page is served).
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
  const plain = plainStaticSource(registry, opts, bundle);
  return withBundleVersions(plain, bundle, (label) =>
    plainStaticSource(registry, opts, versionBundle(opts, label)),
  );
}

/**
 * The reader of version `label`'s bundle of a versioned export: `versions/<label>/` under the root.
 *
 * @param opts - the checked options (`read`, or `baseUrl` and `fetch`).
 * @param label - a label of `versions.json` (checked: not `.` or `..`).
 * @returns the reader.
 */
function versionBundle(opts: Partial<StaticSourceOptions>, label: string): BundleReader {
  const dir = versionBundleDir(label);
  const read = opts.read;
  if (read !== undefined)
    return readBundle({ read: (path, signal) => read(dir + path, signal) }, opts);
  const base = opts.baseUrl!.endsWith('/') ? opts.baseUrl! : `${opts.baseUrl!}/`;
  return readBundle(
    { baseUrl: new URL(dir, base).href, fetch: opts.fetch ?? ((r: Request) => fetch(r)) },
    opts,
  );
}

/**
 * The static source over one bundle (a plain export, or one version of a versioned export).
 *
 * @param registry - the tools to serve.
 * @param opts - the checked options.
 * @param bundle - the bundle's reader.
 * @returns the frozen source.
 */
function plainStaticSource(
  registry: KnowledgeToolRegistry,
  opts: Partial<StaticSourceOptions>,
  bundle: BundleReader,
): KnowledgeSource {
  const reader = bundleStoreReader(bundle);
  return createStoredSource(reader, {
    id: opts.id,
    actionBase: opts.actionBase,
    maxReadChars: opts.maxReadChars,
    cursorKey: opts.cursorKey,
    version: opts.version,
    notFound: 'The bundle has no knowledge base.',
    registry,
  });
}

/**
 * Characters of page text whose documents a static source keeps per revision (a page read again is
 * not read, digested and cut again); past it only the page read last is kept.
 */
const KEPT_PAGE_CHARS = 32 * 1024 * 1024;

/** A page's stored record, from the bundle's. */
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

/** What `pageTextProblem` checks of a page: its digest, its sections' parents and ranges. */
const shapeOf = (page: BundlePage | BundlePageRecord): PageShape => {
  if ('outline' in page)
    return {
      textSha256: page.textSha256,
      parents: page.outline.map(([, parent]) => parent),
      ranges: page.outline.map(([, , start, end]) => [start, end]),
    };
  const index = new Map(page.sections.map((section, i) => [section.id, i]));
  return {
    textSha256: page.textSha256,
    parents: page.sections.map((s) => (s.parentId === null ? -1 : (index.get(s.parentId) ?? NaN))),
    ranges: page.ranges,
  };
};

/**
 * A bundle as a store (the reader port of `createStoredSource`): each call reads `manifest.json`
 * (its revision and knowledge base ID), then what the call needs: `_index/files.json` once per
 * revision, a page's text, a page's graph file, the search index's shards.
 *
 * @param bundle - the bundle's files.
 * @returns the reader.
 */
function bundleStoreReader(bundle: BundleReader): StoreReader<string> {
  let kept: { readonly key: string; data: Promise<RevisionData> | undefined } | undefined;

  /** The files of the manifest's revision: `_index/files.json`, read and indexed once per revision. */
  const revisionData = (key: string, signal: AbortSignal | undefined): Promise<RevisionData> => {
    if (kept?.key !== key) kept = { key, data: undefined };
    const slot = kept;
    if (slot.data === undefined) {
      const data = (async (): Promise<RevisionData> => {
        const files = (await bundle.json(BUNDLE_PATHS.files, signal)) as BundleFiles;
        if (!isPlainObject(files) || !Array.isArray(files.pages))
          throw bundle.broken(BUNDLE_PATHS.files, 'is not a list of pages (`{ pages: [...] }`)');
        if (JSON.stringify(files.activeContentRevision) !== key)
          throw bundle.mixed(BUNDLE_PATHS.files);
        const records = files.pages.map(recordOf);
        let table: FileTable | undefined;
        let indexText: string | undefined;
        const tableOf = () => (table ??= storedTable(records, files.activeContentRevision));
        return {
          key,
          files,
          byId: new Map(files.pages.map((p) => [p.fileId, p])),
          byPath: new Map(files.pages.map((p) => [p.path, p])),
          records,
          table: tableOf,
          indexText: () => (indexText ??= renderIndexMarkdown(tableOf())),
        };
      })();
      slot.data = data;
      // A files.json that is not what the export wrote stays refused for this revision (read and
      // parsed once, not on every call); a failure to read it is tried again on the next call.
      data.catch((error: unknown) => {
        const broken = error instanceof KnowledgeToolError && error.code === 'INTERNAL';
        if (!broken && slot.data === data) slot.data = undefined;
      });
    }
    return slot.data;
  };

  /** A page's document: its text, checked, cut into its sections by their ranges. */
  const readDocument = async (
    page: BundlePage | BundlePageRecord,
    signal: AbortSignal | undefined,
  ): Promise<{ document: KnowledgeDocument; chars: number }> => {
    const text = await bundle.text(page.path, signal);
    const head = { id: page.fileId, revision: String(page.revision), locale: page.locale };
    const problem = await pageTextProblem(text, shapeOf(page));
    if (problem !== undefined) throw bundle.broken(page.path, problem);
    if ('outline' in page) {
      const { outline } = page;
      const document = documentFromRanges(
        head,
        text,
        outline.map(([id, parent]) => ({
          id,
          parentId: parent === -1 ? null : outline[parent]![0],
        })),
        outline.map(([, , start, end]) => [start, end] as const),
      );
      return { document, chars: text.length };
    }
    return {
      document: documentFromRanges(head, text, page.sections, page.ranges),
      chars: text.length,
    };
  };

  let pagesKept:
    | {
        readonly key: string;
        readonly map: Map<string, { readonly document: Promise<KnowledgeDocument>; chars: number }>;
        chars: number;
      }
    | undefined;

  /**
   * A page's document of revision `key`, kept while `key` is the bundle's revision, the least
   * recently used dropped past `KEPT_PAGE_CHARS` characters of text: a page read again is not read,
   * digested and cut again. The page read last is kept whatever its size (at most `maxFileBytes`), so
   * an agent reading one large page part by part pays for it once.
   */
  const documentOf = (
    key: string,
    page: BundlePage | BundlePageRecord,
    signal: AbortSignal | undefined,
  ): Promise<KnowledgeDocument> => {
    if (pagesKept?.key !== key) pagesKept = { key, map: new Map(), chars: 0 };
    const kept = pagesKept;
    // The files list and the page shards each describe the page: kept apart, each checked.
    const id = `${'outline' in page ? 'shard' : 'files'}\n${page.path}`;
    const hit = kept.map.get(id);
    if (hit !== undefined) {
      kept.map.delete(id);
      kept.map.set(id, hit);
      return hit.document;
    }
    const read = readDocument(page, signal);
    const entry = { document: read.then((r) => r.document), chars: 0 };
    kept.map.set(id, entry);
    read.then(
      ({ chars }) => {
        if (kept.map.get(id) !== entry) return;
        entry.chars = chars;
        kept.chars += chars;
        for (const [path, old] of kept.map) {
          if (kept.chars <= KEPT_PAGE_CHARS || kept.map.size === 1) break;
          kept.map.delete(path);
          kept.chars -= old.chars;
        }
      },
      () => {
        if (kept.map.get(id) === entry) kept.map.delete(id);
      },
    );
    return entry.document;
  };

  /** A page's relationships, from its graph file (`read_related`'s shape). */
  const relationsOf = async (
    key: string,
    page: BundlePage,
    signal: AbortSignal | undefined,
  ): Promise<RelationRecord[]> => {
    const graph = (await bundle.cached(key, page.graphPath, signal)) as {
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

  /** The rows of `pages`, with the documents and relationships of the pages `document`/`related` say. */
  const rowsOf = (
    key: string,
    pages: readonly BundlePage[],
    document: (p: BundlePage) => boolean,
    related: (p: BundlePage) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<StoredPage[]> =>
    Promise.all(
      pages.map(async (p) => ({
        record: recordOf(p),
        document: document(p) ? await documentOf(key, p, signal) : undefined,
        sectionSizes: p.sections,
        relations: related(p) ? await relationsOf(key, p, signal) : undefined,
      })),
    );

  const callOf = (
    key: string,
    knowledgeBaseId: string,
    published: { readonly publishedAt?: string },
    signal: AbortSignal | undefined,
  ): StoreCall<string> => ({
    knowledgeBaseId,
    async revision(want) {
      const data = await revisionData(key, signal);
      const target =
        want.fileId !== null
          ? data.byId.get(want.fileId)
          : want.path !== null
            ? data.byPath.get(want.path)
            : undefined;
      const pages = await rowsOf(
        key,
        data.files.pages,
        (p) => want.everything || (want.document && p === target),
        (p) => want.everything || want.allRelations || p.fileId === want.relationsOf,
        signal,
      );
      return { pin: key, revision: data.files.activeContentRevision, ...published, pages };
    },
    async pages(pin, fileIds, relations) {
      if (pin !== null && pin !== key) return GONE;
      const data = await revisionData(key, signal);
      const found = fileIds.flatMap((id) => data.byId.get(id) ?? []);
      const pages = await rowsOf(
        key,
        found,
        () => false,
        () => relations,
        signal,
      );
      return { pin: key, revision: data.files.activeContentRevision, ...published, pages };
    },
    async page(want) {
      const data = await revisionData(key, signal);
      const target =
        want.fileId !== null ? data.byId.get(want.fileId) : data.byPath.get(want.path ?? '');
      if (target === undefined) return MISSING;
      const [row] = await rowsOf(
        key,
        [target],
        () => want.document,
        () => want.related,
        signal,
      );
      const named = new Set((row!.relations ?? []).map((r) => r.fileId));
      named.delete(target.fileId);
      const related = [...named].flatMap((id) => data.byId.get(id) ?? []);
      const pages = [
        row!,
        ...related.map((p) => ({
          record: recordOf(p),
          document: undefined,
          sectionSizes: undefined,
          relations: undefined,
        })),
      ];
      return { pin: key, revision: data.files.activeContentRevision, ...published, pages };
    },
    async listing(pin, path, from, to) {
      if (pin !== null && pin !== key) return GONE;
      const data = await revisionData(key, signal);
      const children = data.table().children(path);
      if (children === undefined) return MISSING;
      const { directories, files } = children;
      return {
        pin: key,
        revision: data.files.activeContentRevision,
        ...published,
        directoryCount: directories.length,
        fileCount: files.length,
        entries: [
          ...directories.slice(Math.min(from, directories.length), to),
          ...files.slice(
            Math.max(0, from - directories.length),
            Math.max(0, to - directories.length),
          ),
        ],
      };
    },
    async navFile(name) {
      const data = await revisionData(key, signal);
      const file = data.table().byId(name);
      if (file === undefined || file.kind !== 'index') return MISSING;
      return {
        pin: key,
        revision: data.files.activeContentRevision,
        ...published,
        file,
        content: data.indexText(),
      };
    },
    async search() {
      const manifest = (await bundle.cached(key, BUNDLE_PATHS.search, signal)) as SearchManifest;
      if (JSON.stringify(manifest.activeContentRevision) !== key)
        throw bundle.mixed(BUNDLE_PATHS.search);
      const store = shardTermStore(manifest, {
        shard: (name) => bundle.cached(key, `${BUNDLE_PATHS.searchDir}${name}`, signal),
        document: (record) => documentOf(key, record, signal),
      });
      return {
        pin: key,
        revision: manifest.activeContentRevision,
        ...published,
        store,
        hits: () => [...store.records.values()].map(recordOf),
      };
    },
  });

  return {
    async open(signal) {
      const manifest = await bundle.manifest(signal);
      const key = JSON.stringify(manifest.activeContentRevision);
      // An older bundle names no publish time: its outputs say when the source was created.
      const publishedAt = isoTime(manifest.publishedAt);
      return callOf(
        key,
        manifest.knowledgeBaseId,
        publishedAt === undefined ? {} : { publishedAt },
        signal,
      );
    },
  };
}
