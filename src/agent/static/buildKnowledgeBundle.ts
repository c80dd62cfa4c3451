/**
 * A static bundle of any `KnowledgeSource`, as file texts by path (`docs/static.md`): read through the
 * source's own methods (`list_tree`, `get_file`, `read_file`, `read_related`), the documents rebuilt
 * from `read_file`'s document-mode text and checked against the source, and the search index built
 * from the corpus the in-memory engine would see over them. Writes nothing: `exportKnowledgeBundle`
 * (`knowledge-kit/node`) writes the files.
 */
import { defineKnowledgeCatalog } from '../../catalog/defineKnowledgeCatalog.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import { graphFilePath } from '../../shared/pagePath.js';
import type { KnowledgeDocument } from '../../types.js';
import type { PageRecord, RelationRecord } from '../model.js';
import { searchCorpus } from '../search/catalogCorpus.js';
import { buildTermRows } from '../search/memoryTermStore.js';
import { computeSectionSizes } from '../source/sectionSizes.js';
import { isoTime } from '../source/versionOf.js';
import { storedTable } from '../source/storedState.js';
import type { ActiveContentRevision } from '../types.js';
import type { GetFileOutput } from '../tools/getFile/types.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { ListTreeOutput, TreeFileItem } from '../tools/listTree/types.js';
import type { ReadFileOutput } from '../tools/readFile/types.js';
import type { ReadRelatedOutput } from '../tools/readRelated/types.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_PATHS,
  BUNDLE_VERSION,
  bundleJson,
  pageTextDigest,
  type BundleFiles,
  type BundleManifest,
  type BundlePage,
  type BundlePageRecord,
  type PageRelation,
} from './bundleFormat.js';
import { llmsFullText, llmsText } from './llmsText.js';
import { searchShardFiles } from './searchShards.js';
import { documentFromRanges, findSectionRanges, type SectionRange } from './sectionRanges.js';

const API = 'exportKnowledgeBundle';
/** Source calls in flight at once. */
const CONCURRENCY = 16;

/** Options of a bundle. */
export interface KnowledgeBundleOptions {
  /** The knowledge base's title (`llms.txt`'s H1); default its ID, else `Knowledge base`. */
  readonly title?: string | undefined;
  /** The knowledge base's ID in `manifest.json` (the static source's default `id`); default `''`. */
  readonly id?: string | undefined;
  /** The absolute URL the bundle will be served at, for `llms.txt`'s links (relative without it). */
  readonly baseUrl?: string | undefined;
  /** Stops the export between calls. */
  readonly signal?: AbortSignal | undefined;
}

/** An earlier export's revision and publish time (its manifest's). */
export interface EarlierExport {
  readonly activeContentRevision: ActiveContentRevision;
  readonly publishedAt: string;
}

/** A bundle: every file's text by its path, and its manifest. */
export interface KnowledgeBundle {
  /** File texts by bundle path (`/`-separated, relative to the bundle's root), in path order. */
  readonly files: ReadonlyMap<string, string>;
  readonly manifest: BundleManifest;
}

/** Run `task` on every item, `CONCURRENCY` at a time, results in item order. */
async function pool<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

const fail = (message: string): never => {
  throw new KnowledgeError([
    { code: 'INVALID_INPUT', path: ['source'], message: `${API}: ${message}` },
  ]);
};

/** Every file of the source's tree, and its revision (one revision throughout, or a failure). */
async function walkTree(
  source: KnowledgeSource,
  signal: AbortSignal | undefined,
): Promise<{
  files: TreeFileItem[];
  revision: ActiveContentRevision;
  publishedAt: string | undefined;
}> {
  const files: TreeFileItem[] = [];
  let revision: ActiveContentRevision | undefined;
  let publishedAt: string | undefined;
  const stack = [''];
  while (stack.length > 0) {
    const parentPath = stack.pop()!;
    let cursor: string | null = null;
    do {
      const page: ListTreeOutput = await source.listTree(
        cursor === null ? { parentPath, limit: 200 } : { cursor },
        { signal },
      );
      if (revision === undefined) {
        revision = page.activeContentRevision;
        // A source of an earlier release (a remote one) may not say when it published.
        publishedAt = isoTime((page as { publishedAt?: unknown }).publishedAt);
      } else if (page.activeContentRevision !== revision)
        fail('the source changed revision during the export. Export again.');
      for (const item of page.items)
        if (item.entryType === 'directory') stack.push(item.path);
        else files.push(item);
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return { files, revision: revision!, publishedAt };
}

/** A file's whole text (or its sections'), read in parts when the source cuts it. */
async function readWhole(
  source: KnowledgeSource,
  fileId: string,
  signal: AbortSignal | undefined,
  selection:
    { readonly sectionIds: readonly string[]; readonly mode: 'self' | 'subtree' } | {} = {},
): Promise<ReadFileOutput['file'] & { readonly text: string }> {
  let part: ReadFileOutput = await source.readFile({ fileId, ...selection }, { signal });
  const file = part.file;
  const parts = [part.content];
  while (part.nextCursor !== null) {
    part = await source.readFile({ cursor: part.nextCursor }, { signal });
    parts.push(part.content);
  }
  return { ...file, text: parts.join('') };
}

/** Every relationship of a page, page by page. */
async function readAllRelated(
  source: KnowledgeSource,
  fileId: string,
  signal: AbortSignal | undefined,
): Promise<RelationRecord[]> {
  const out: RelationRecord[] = [];
  let cursor: string | null = null;
  do {
    const page: ReadRelatedOutput = await source.readRelated(
      cursor === null ? { fileId, limit: 50 } : { cursor },
      { signal },
    );
    for (const item of page.items)
      out.push({
        fileId: item.fileId,
        relationType: item.relationType,
        direction: item.direction,
        weight: item.weight,
        reason: item.reason,
        sectionId: item.sectionId,
      });
    cursor = page.nextCursor;
  } while (cursor !== null);
  return out;
}

/** A page as the source serves it. */
interface ReadPage {
  readonly info: GetFileOutput;
  readonly text: string;
  readonly ranges: readonly SectionRange[];
  readonly document: KnowledgeDocument;
  readonly relations: RelationRecord[];
}

/**
 * A page's document from its text and its sections' reads, checked: every read of the rebuilt page
 * (whole, each section's own text and subtree) and its section sizes are the source's.
 */
async function rebuild(
  source: KnowledgeSource,
  info: GetFileOutput,
  text: string,
  signal: AbortSignal | undefined,
): Promise<{ document: KnowledgeDocument; ranges: readonly SectionRange[] }> {
  const reads = async (mode: 'self' | 'subtree') =>
    pool(info.sections, async (s) => {
      const read = await readWhole(source, info.fileId, signal, { sectionIds: [s.id], mode });
      return read.text;
    });
  const subtree = await reads('subtree');
  const self = await reads('self');
  const broken = (): never =>
    fail(
      `the sections of \`${info.path}\` do not fit its text (a section's text is not where its reads put it). Report this with the page.`,
    );
  const ranges = findSectionRanges(text, info.sections, subtree, self) ?? broken();
  const document = documentFromRanges(
    { id: info.fileId, revision: String(info.revision), locale: info.locale },
    text,
    info.sections,
    ranges,
  );
  const catalog = defineKnowledgeCatalog([document]);
  const read = (selection: Parameters<typeof catalog.read>[0]['selection']) =>
    catalog.read({ documentId: info.fileId, selection, maxChars: Number.MAX_SAFE_INTEGER }).content;
  if (
    read({ mode: 'document' }) !== text ||
    JSON.stringify(computeSectionSizes(catalog, info.fileId)) !== JSON.stringify(info.sections) ||
    info.sections.some(
      (s, i) =>
        read({ mode: 'subtree', sectionIds: [s.id] }) !== subtree[i] ||
        read({ mode: 'self', sectionIds: [s.id] }) !== self[i],
    )
  )
    broken();
  return { document, ranges };
}

/**
 * Build the bundle of a source.
 *
 * @param source - any `KnowledgeSource` (a catalog source, a PostgreSQL source, an HTTP client).
 * @param options - the title, ID, base URL and signal.
 * @param earlier - the export already in place, if any: its publish time is kept when the source
 *   serves the same revision (exporting unchanged knowledge again writes the same bytes); otherwise
 *   the manifest's `publishedAt` is the source's (none when the source names none).
 * @returns the files and the manifest.
 * @throws {KnowledgeError} `INVALID_INPUT` when a file is not `current_available` (a bundle holds only
 *   current files), when the source changes revision during the export, or when a page's text does
 *   not parse back into the same page. What the source's methods reject with.
 */
export async function buildKnowledgeBundle(
  source: KnowledgeSource,
  options: KnowledgeBundleOptions = {},
  earlier?: EarlierExport,
): Promise<KnowledgeBundle> {
  const signal = options.signal;
  const { files, revision, publishedAt: sourcePublishedAt } = await walkTree(source, signal);
  // A bundle of the revision already exported keeps its publish time (an export writes the same bytes).
  const publishedAt =
    earlier !== undefined && earlier.activeContentRevision === revision
      ? earlier.publishedAt
      : sourcePublishedAt;
  const notCurrent = files.filter((f) => f.generatedOutputStatus !== 'current_available');
  if (notCurrent.length > 0)
    fail(
      `${notCurrent.map((f) => `\`${f.path}\` is ${f.generatedOutputStatus}`).join(', ')}; a bundle holds only files served as they are. Fix them (\`knowledge-kit check\` names the problems) and export again.`,
    );
  const pageItems = files.filter((f) => f.fileKind === 'page');
  const navItems = files.filter((f) => f.fileKind !== 'page');

  const pages: ReadPage[] = await pool(pageItems, async (item) => {
    const info = await source.getFile({ fileId: item.fileId }, { signal });
    const read = await readWhole(source, item.fileId, signal);
    const relations = await readAllRelated(source, item.fileId, signal);
    if (info.activeContentRevision !== revision || read.activeContentRevision !== revision)
      fail('the source changed revision during the export. Export again.');
    const { document, ranges } = await rebuild(source, info, read.text, signal);
    return { info, text: read.text, ranges, document, relations };
  });
  const navTexts = await pool(navItems, async (item) => ({
    path: item.path,
    text: (await readWhole(source, item.fileId, signal)).text,
  }));

  // The corpus the in-memory engine would see: the same file table (page order), documents and
  // relationships.
  const records: Omit<PageRecord, 'kind'>[] = pages.map(({ info }) => ({
    fileId: info.fileId,
    path: info.path,
    title: info.title,
    description: info.description,
    frontmatter: info.frontmatter,
    tags: [],
    revision: String(info.revision),
    locale: info.locale,
    status: 'current_available',
  }));
  const table = storedTable(records, revision);
  const byId = new Map(pages.map((p) => [p.info.fileId, p]));
  const catalog = defineKnowledgeCatalog(pages.map((p) => p.document));
  const relations = new Map<string, readonly RelationRecord[]>(
    pages.map((p) => [p.info.fileId, p.relations]),
  );
  const corpus = searchCorpus(catalog, table, relations);
  const rows = await buildTermRows(corpus, signal);

  const pageNumber = new Map(table.pages.map((p, i) => [p.fileId, i]));
  const ordered = table.pages.map((p) => byId.get(p.fileId)!);
  const graphPathOf = new Map(
    navItems.flatMap((f) => (f.fileKind === 'graph' ? [[f.path, f.path]] : [])),
  );
  const digests = await pool(ordered, (p) => pageTextDigest(p.text));
  const bundlePages: BundlePage[] = ordered.map(({ info, ranges }, i) => {
    const graphPath = graphFilePath(info.fileId);
    if (!graphPathOf.has(graphPath))
      fail(`the source lists no relationships file \`${graphPath}\` for \`${info.path}\`.`);
    return {
      fileId: info.fileId,
      path: info.path,
      title: info.title,
      description: info.description,
      frontmatter: info.frontmatter,
      revision: info.revision,
      locale: info.locale,
      graphPath,
      sections: info.sections,
      ranges,
      textSha256: digests[i]!,
    };
  });
  const pageRecords: BundlePageRecord[] = bundlePages.map(
    ({ graphPath: _g, sections, ranges, ...record }) => {
      const index = new Map(sections.map((section, i) => [section.id, i]));
      return {
        ...record,
        outline: sections.map(
          (section, i) =>
            [
              section.id,
              section.parentId === null ? -1 : index.get(section.parentId)!,
              ranges[i]![0],
              ranges[i]![1],
            ] as const,
        ),
      };
    },
  );
  const related: PageRelation[][] = ordered.map((p) =>
    p.relations.map((r) => [r.fileId, pageNumber.get(r.fileId) ?? -1, r.weight] as const),
  );
  const search = searchShardFiles(rows, pageRecords, related, revision);

  const out = new Map<string, string>();
  for (const p of ordered) out.set(p.info.path, p.text);
  for (const nav of navTexts) out.set(nav.path, nav.text);
  const filesJson: BundleFiles = {
    format: 'knowledge-kit-files',
    version: BUNDLE_VERSION,
    activeContentRevision: revision,
    pages: bundlePages,
  };
  out.set(BUNDLE_PATHS.files, bundleJson(filesJson));
  out.set(BUNDLE_PATHS.search, bundleJson(search.manifest));
  for (const [name, text] of search.shards) out.set(`${BUNDLE_PATHS.searchDir}${name}`, text);
  const relationCount = ordered.reduce((n, p) => n + p.relations.length, 0);
  out.set(
    BUNDLE_PATHS.graph,
    bundleJson({
      format: 'knowledge-kit-graph',
      version: BUNDLE_VERSION,
      activeContentRevision: revision,
      relations: relationCount,
      pages: bundlePages.map((p, i) => ({
        fileId: p.fileId,
        path: p.path,
        title: p.title,
        graphPath: p.graphPath,
        related: related[i]!.length,
      })),
    }),
  );
  const title = options.title ?? (options.id || 'Knowledge base');
  const texts = new Map(ordered.map((p) => [p.info.fileId, p.text]));
  const llms = { title, revision, pages: bundlePages, texts, baseUrl: options.baseUrl };
  out.set(BUNDLE_PATHS.llms, llmsText(llms));
  out.set(BUNDLE_PATHS.llmsFull, llmsFullText(llms));
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    knowledgeBaseId: options.id ?? '',
    title,
    activeContentRevision: revision,
    ...(publishedAt === undefined ? {} : { publishedAt }),
    counts: {
      pages: bundlePages.length,
      relations: relationCount,
      terms: rows.rows.length,
      ...search.counts,
    },
    entries: {
      llms: BUNDLE_PATHS.llms,
      llmsFull: BUNDLE_PATHS.llmsFull,
      index: BUNDLE_PATHS.index,
      files: BUNDLE_PATHS.files,
      search: BUNDLE_PATHS.search,
      graph: BUNDLE_PATHS.graph,
    },
  };
  out.set(BUNDLE_PATHS.manifest, bundleJson(manifest));
  const sorted = new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { files: sorted, manifest };
}
