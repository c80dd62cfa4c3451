/**
 * Search over a term store: the BM25F index kept as rows (`termRows.ts`) in a store that reads them
 * by key (PostgreSQL tables, a static bundle's shards, a test's memory). A search reads the
 * dictionary entries of its tokens and heads, plans the query with `planQuery`, reads the postings of
 * the planned terms and pairs, ranks with `lexicalSearch` on a partial index of those rows, and then
 * reads the documents of the page of hits it returns: its cost follows its terms' postings and the
 * hits shown, not the size of the knowledge base. Its stages are the in-memory engine's own, run by
 * the one ranking pipeline (`rankingPipeline.ts`), so its ranking is the in-memory engine's.
 */
import { chunkHeadings } from './chunkHeadings.js';
import type { SearchChunkHeading } from './port.js';
import type { KnowledgeDocument } from '../../types.js';
import type { KnowledgeEmbedder } from '../types.js';
import type { Candidate } from './candidate.js';
import { documentChunks } from './catalogCorpus.js';
import { documentLead } from './documentLead.js';
import { isMdxPath } from '../../markdown/pageText.js';
import { headingKeysOf, indexTokens } from './indexTokens.js';
import { type LexicalFile, lexicalSearch } from './lexicalSearch.js';
import { abortError } from './limits.js';
import { offsetRange } from './offsetPaging.js';
import { PairRecorder, type PartialIndex, partialIndex } from './partialIndex.js';
import type { SemanticOutcome } from './pipelineStages.js';
import { isFuzzyToken, MIN_PREFIX_CHARS, planQuery, QUERY_WEIGHTS } from './planQuery.js';
import type { SearchAnswer, SearchRequest } from './port.js';
import {
  candidatesBetween,
  type PipelineParts,
  rankedCount,
  rankedFiles,
  type RelationGraph,
  runRankingPipeline,
} from './rankingPipeline.js';
import { SEMANTIC_CANDIDATES, type SemanticFile } from './semantic.js';
import { hasFilter, pageScope, type PageScope, type ScopeFields } from './scopeStage.js';
import { TERM_ROWS_FORMAT, type TermEntry, type TermRow, type TermStats } from './termRows.js';

/** A relationship as a term store gives it: its target's file ID and page number, and its weight. */
export interface TermStoreRelation {
  readonly fileId: string;
  /** The target's page number, or `-1` when it is not a page of the corpus. */
  readonly page: number;
  readonly weight: number;
}

/**
 * A page a term store found semantically: its most similar chunk and up to three most similar
 * section chunks, as chunk places (`TermRow.content`'s: the chunk's index among its page's chunks,
 * times 2, plus 1 for a section's).
 */
export interface TermStoreSemanticPage {
  readonly page: number;
  /** Cosine similarity of its best chunk, above 0. */
  readonly similarity: number;
  readonly bestPlace: number;
  /** Best first. */
  readonly sectionPlaces: readonly number[];
}

/**
 * Which terms listed under one head (`TermEntry.head`) a query may reach: those `planQuery` may expand
 * a query word to. A store may return more (every term under the head); never fewer.
 */
export interface TermHead {
  readonly head: string;
  /** Every term under it (a one-character CJK query term reaches every bigram it starts). */
  readonly all: boolean;
  /** Terms starting with one of these (the query's last word, for prefix matching). */
  readonly prefixes: readonly string[];
  /** Terms of these lengths in UTF-16 code units (one edit from a query word of 5+ Latin letters). */
  readonly lengths: readonly number[];
}

/**
 * Whether a term listed under `head.head` is one `head` asks for.
 *
 * @param head - what the query asks of the head.
 * @param key - the term.
 */
export function headWants(head: TermHead, key: string): boolean {
  return (
    head.all ||
    head.lengths.includes(key.length) ||
    head.prefixes.some((prefix) => key.startsWith(prefix))
  );
}

/** A page a term store returns for the hits shown: its file ID and its compiled document. */
export interface TermStorePage {
  readonly fileId: string;
  /** The page's path: its extension says which dialects its text has (`.mdx`: MDX). */
  readonly path: string;
  readonly document: KnowledgeDocument;
}

/**
 * What a term store answers (every method may read from the network or a database). Page numbers are
 * the ones its rows use.
 */
export interface TermStore {
  /** The corpus statistics of the revision searched. */
  stats(): Promise<TermStats>;
  /**
   * The dictionary entries of `keys` (exact tokens; absent keys are left out) and of the terms listed
   * under one of `heads` (`TermEntry.head`), postings not needed.
   */
  dictionary(keys: readonly string[], heads: readonly TermHead[]): Promise<readonly TermEntry[]>;
  /** The rows of `keys` (terms and pairs), with their postings; absent keys are left out. */
  rows(keys: readonly string[]): Promise<readonly TermRow[]>;
  /** The pages numbered `pages`, in that order. */
  pages(pages: readonly number[]): Promise<readonly TermStorePage[]>;
  /**
   * What the search filters read (path, tags, locale) of every page, by page number: asked only by a
   * search with filters (`pathPrefix`, `tags`, `locale`).
   */
  scopeFields(): Promise<readonly ScopeFields[]>;
  /**
   * The relationships of the pages numbered `pages` (strongest first, as `SearchCorpus.relationsOf`
   * lists them), by page number. Only graph mode asks.
   */
  relations(pages: readonly number[]): Promise<ReadonlyMap<number, readonly TermStoreRelation[]>>;
  /**
   * The `limit` pages whose best chunk is most similar to `query` (a query vector as the embedder
   * returned it; cosine similarity), most similar first, ties by page number; only pages above 0.
   * Optional: a store without chunk vectors leaves it out, or answers `undefined` for a revision
   * published without them, and the semantic stage is then unavailable.
   */
  nearest?(
    query: readonly number[],
    limit: number,
    signal: AbortSignal,
  ): Promise<readonly TermStoreSemanticPage[] | undefined>;
}

/** Settings of a term-store search. */
export interface TermStoreSettings {
  /** Largest `sourceExcerpt`, in code points. */
  readonly excerptChars: number;
  /**
   * Embeds the query for the store's `nearest` (the model the store's chunk vectors were made with).
   * Without it there is no semantic stage (`disabled`).
   */
  readonly embedder?: KnowledgeEmbedder | undefined;
  /** How long the semantic stage may take before the lexical ranking stands. Default 2,000 ms. */
  readonly semanticTimeoutMs?: number | undefined;
}

/** Stop a search its caller aborted, between two reads. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortError(signal, 'The search');
}

/**
 * A query's tokens, and what they may expand to under their heads, as `planQuery` expands them: a
 * one-character CJK term to every bigram it starts; the last word (of 2+ code units) to the words it
 * starts; a word of 5+ Latin letters to the words one edit away (of its length ± 1).
 */
function queryKeys(query: string): { keys: string[]; heads: TermHead[] } {
  const keys = new Set<string>();
  const words: string[] = [];
  const heads = new Map<string, { all: boolean; prefixes: Set<string>; lengths: Set<number> }>();
  const headOf = (head: string) => {
    let h = heads.get(head);
    if (h === undefined)
      heads.set(head, (h = { all: false, prefixes: new Set(), lengths: new Set() }));
    return h;
  };
  // The non-compound tokens, in order: the heading keys' words.
  const plain: { token: string; cjk: boolean }[] = [];
  indexTokens(query, (token, cjk, compound) => {
    keys.add(token);
    if (compound) return;
    plain.push({ token, cjk });
    if (cjk) {
      const one = token.length === (token.codePointAt(0)! > 0xffff ? 2 : 1);
      if (one && QUERY_WEIGHTS.cjkPrefix > 0) headOf(token).all = true;
      return;
    }
    words.push(token);
    if (token.length >= 2 && QUERY_WEIGHTS.fuzzy > 0 && isFuzzyToken(token)) {
      const h = headOf(token.slice(0, 2));
      for (const n of [token.length - 1, token.length, token.length + 1]) h.lengths.add(n);
    }
  });
  for (const { key } of headingKeysOf(plain)) keys.add(key);
  const last = words[words.length - 1];
  if (last !== undefined && last.length >= MIN_PREFIX_CHARS && QUERY_WEIGHTS.prefix > 0)
    headOf(last.slice(0, 2)).prefixes.add(last);
  return {
    keys: [...keys],
    heads: [...heads].map(([head, h]) => ({
      head,
      all: h.all,
      prefixes: [...h.prefixes],
      lengths: [...h.lengths],
    })),
  };
}

/** The semantic look-up: embed the query, ask the store for its nearest pages. */
async function nearestPages(
  store: TermStore,
  query: string,
  embedder: KnowledgeEmbedder,
  signal: AbortSignal,
): Promise<readonly TermStoreSemanticPage[]> {
  if (store.nearest === undefined) throw new Error('this store keeps no chunk vectors');
  const answer = await embedder.embed([query], { signal });
  const vector = Array.isArray(answer) && answer.length === 1 ? answer[0] : undefined;
  if (vector === undefined || typeof vector.length !== 'number' || vector.length === 0)
    throw new Error('the embedder must return one vector for the query');
  const pages = await store.nearest(Array.from(vector), SEMANTIC_CANDIDATES, signal);
  if (pages === undefined) throw new Error('this revision was stored without chunk vectors');
  return pages;
}

/** The semantic stage's time limit when the settings give none. */
const DEFAULT_SEMANTIC_TIMEOUT_MS = 2000;

/**
 * Rank a query on a term store and return one page of hits, paged by offset as the in-memory engine
 * pages (its continuation is the decimal offset of the next hit). With an `embedder` and a store that
 * keeps chunk vectors (`nearest`), the store's most similar pages are fused with the lexical ranking
 * by reciprocal rank fusion, as the in-memory engine fuses its own; without one the semantic stage is
 * `disabled`. No reranker (`RERANKER_DISABLED`).
 *
 * @param store - the term store.
 * @param request - the search request.
 * @param settings - the excerpt size.
 * @returns the page of hits.
 * @throws what the store throws; an `Error` when its rows are of another format.
 */
export async function searchTermStore(
  store: TermStore,
  request: SearchRequest,
  settings: TermStoreSettings,
): Promise<SearchAnswer> {
  throwIfAborted(request.signal);
  const stats = await store.stats();
  if (stats.format !== TERM_ROWS_FORMAT)
    throw new Error(
      `the search index is in format ${String(stats.format)}, and this version reads format ${TERM_ROWS_FORMAT}: publish or export the knowledge base again with this version`,
    );
  const { embedder } = settings;
  // The filters, on the store's page numbers: the candidates' local numbers map to them.
  let scope: PageScope | undefined;
  if (hasFilter(request.filter)) {
    const fields = await store.scopeFields();
    if (fields.length !== stats.pageCount)
      throw new Error(
        `the store gave the fields of ${fields.length} pages, and its search index has ${stats.pageCount}: the index and the pages are of different revisions`,
      );
    scope = pageScope(fields, request.filter);
    throwIfAborted(request.signal);
  }
  // Set by the lexical stage: the partial index of the rows read, and its pages' numbers in the store.
  let partial: PartialIndex | undefined;
  let pageNumbers: number[] = [];
  const fileIds = new Map<number, string>();
  const parts: PipelineParts<readonly TermStoreSemanticPage[]> = {
    semantic:
      embedder === undefined
        ? undefined
        : (signal) => nearestPages(store, request.query, embedder, signal),
    semanticTimeoutMs: settings.semanticTimeoutMs ?? DEFAULT_SEMANTIC_TIMEOUT_MS,
    async lexical(semantic) {
      const read = await readLexical(store, stats, request, semantic);
      ({ partial } = read);
      pageNumbers = [...read.partial.pageNumbers];
      return read;
    },
    reranking: undefined,
    graph: (ranked) => readGraph(store, request, ranked, pageNumbers, fileIds),
    scope: scope === undefined ? undefined : (page) => scope.keeps(pageNumbers[page]!),
  };
  const { list, semanticStatus, rerankerStatus } = await runRankingPipeline(
    request,
    parts,
    request.signal ?? new AbortController().signal,
  );

  // The page of hits asked for, then the documents of its pages only.
  const { from, to, next } = offsetRange(rankedCount(list), request.limit, request.continuation);
  const candidates = candidatesBetween(list, from, to);
  throwIfAborted(request.signal);
  const read = await store.pages(candidates.map((c) => pageNumbers[c.page]!));
  const documents = new Map<number, KnowledgeDocument>();
  const mdxPages = new Set<number>();
  candidates.forEach((c, i) => {
    const page = read[i];
    if (page === undefined)
      throw new Error(`the store returned no page numbered ${pageNumbers[c.page]}`);
    fileIds.set(pageNumbers[c.page]!, page.fileId);
    documents.set(c.page, page.document);
    if (isMdxPath(page.path)) mdxPages.add(c.page);
  });
  fillShownChunks(partial!, documents, mdxPages, pageNumbers);
  const hits = rankedFiles(candidates, {
    chunks: partial!.chunks,
    fileIdOf: (page: number) => fileIds.get(pageNumbers[page]!)!,
    excerptChars: settings.excerptChars,
    leadOf: (page: number) =>
      documentLead(documents.get(page)!, settings.excerptChars, mdxPages.has(page)),
    headingsOf: chunkHeadingsOf(partial!, documents, mdxPages),
  });
  for (const hit of hits) {
    // Read the lazy fields now: the documents are not kept.
    void hit.sectionIds;
    void hit.sourceExcerpt;
    void hit.heading;
  }
  return Object.freeze({
    hits: Object.freeze(hits),
    continuation: next,
    semanticStatus,
    rerankerStatus,
    ...(scope?.emptiedBy == null ? {} : { emptiedBy: scope.emptiedBy }),
  });
}

/**
 * The lexical stage on a term store: the dictionary entries of the query's tokens and heads, a first
 * plan on them alone (which terms and pairs the query searches for), the rows of those, then the
 * ranking on a partial index of the rows read. The semantic pages' chunks are numbered with the
 * lexical ones, so the semantic stage is awaited before the partial index is made.
 */
async function readLexical(
  store: TermStore,
  stats: TermStats,
  request: SearchRequest,
  semantic: Promise<SemanticOutcome<readonly TermStoreSemanticPage[]>> | undefined,
): Promise<{
  partial: PartialIndex;
  lexical: readonly LexicalFile[];
  semantic: SemanticFile[] | undefined;
}> {
  const { keys, heads } = queryKeys(request.query);
  const entries = [...(await store.dictionary(keys, heads))];
  const dry = partialIndex(stats, entries, new Map());
  const recorder = new PairRecorder();
  const dryPlan = planQuery(request.query, { ...dry.index, pairs: recorder });
  const wanted = new Set<string>();
  for (const term of dryPlan.terms) if (!term.pair) wanted.add(dry.index.termList[term.id]!);
  for (const key of recorder.keys(dry.index.termList)) wanted.add(key);
  throwIfAborted(request.signal);
  const rows = new Map<string, TermRow>();
  for (const row of await store.rows([...wanted])) {
    rows.set(row.key, row);
    if (row.pair) entries.push(row);
  }
  const nearest = semantic === undefined ? undefined : (await semantic).found;
  const extra: [number, number][] = [];
  for (const p of nearest ?? [])
    for (const place of [p.bestPlace, ...p.sectionPlaces]) extra.push([p.page, place]);
  // The real plan and ranking, on the rows read.
  const partial = partialIndex(stats, entries, rows, extra);
  const lexical = lexicalSearch(
    partial.index,
    partial.chunks,
    request.query,
    request.mode === 'file',
  );
  return {
    partial,
    lexical: lexical.files,
    semantic: nearest?.map((p): SemanticFile => ({
      page: partial.pageOf(p.page)!,
      similarity: p.similarity,
      bestChunk: partial.chunkOf(p.page, p.bestPlace >> 1)!,
      sectionChunks: p.sectionPlaces.map((place) => partial.chunkOf(p.page, place >> 1)!),
    })),
  };
}

/**
 * The relationships graph mode follows, read from the store hop by hop from the top candidates.
 * Candidates name local pages (`pageNumbers` maps them to the store's); pages the rows did not hold
 * are added to `pageNumbers`, and the file IDs read to `fileIds`.
 */
async function readGraph(
  store: TermStore,
  request: SearchRequest,
  ranked: readonly Candidate[],
  pageNumbers: number[],
  fileIds: Map<number, string>,
): Promise<RelationGraph> {
  const localOf = new Map<number, number>(pageNumbers.map((p, i) => [p, i]));
  const local = (page: number): number => {
    let l = localOf.get(page);
    if (l === undefined) {
      l = pageNumbers.length;
      pageNumbers.push(page);
      localOf.set(page, l);
    }
    return l;
  };
  const relations = new Map<number, readonly TermStoreRelation[]>();
  let frontier = ranked.slice(0, request.graphFanout).map((c) => pageNumbers[c.page]!);
  for (let hop = 0; hop < request.graphDepth && frontier.length > 0; hop++) {
    const read = await store.relations(frontier.filter((p) => !relations.has(p)));
    const next = new Set<number>();
    for (const page of frontier) {
      const list = read.get(page) ?? relations.get(page) ?? [];
      relations.set(page, list);
      for (let r = 0; r < list.length && r < request.graphFanout; r++) {
        const target = list[r]!;
        if (target.page === -1) continue;
        fileIds.set(target.page, target.fileId);
        if (!relations.has(target.page)) next.add(target.page);
      }
    }
    frontier = [...next];
  }
  const pageOf = new Map<string, number>();
  for (const [page, fileId] of fileIds) pageOf.set(fileId, local(page));
  // addRelatedPages asks by file ID: the seeds' IDs are known once their pages are read, so name pages
  // by a stand-in ID (their page number) here and by their real ID once read.
  const fileIdOf = (page: number): string =>
    fileIds.get(pageNumbers[page]!) ?? `#${pageNumbers[page]}`;
  for (const c of ranked) pageOf.set(fileIdOf(c.page), c.page);
  return {
    relationsOf: (fileId) => {
      const page = pageOf.get(fileId);
      return page === undefined ? [] : (relations.get(pageNumbers[page]!) ?? []);
    },
    fileIdOf,
    pageOf,
  };
}

/**
 * A shown chunk's headings, from its page's document (each page's computed once), on the chunks as
 * the index read them (an `.mdx` page's as MDX).
 */
function chunkHeadingsOf(
  partial: PartialIndex,
  documents: ReadonlyMap<number, KnowledgeDocument>,
  mdxPages: ReadonlySet<number>,
): (chunk: number) => readonly SearchChunkHeading[] {
  const byPage = new Map<number, readonly (readonly SearchChunkHeading[])[]>();
  return (chunk) => {
    const page = partial.chunks.pageOf[chunk]!;
    let lists = byPage.get(page);
    if (lists === undefined) {
      const document = documents.get(page);
      byPage.set(
        page,
        (lists =
          document === undefined
            ? []
            : chunkHeadings(document, documentChunks(document, mdxPages.has(page)))),
      );
    }
    return lists[partial.chunkPlaces[chunk]!] ?? [];
  };
}

/** Give the chunks of the pages shown their section IDs and texts, from the pages' documents. */
function fillShownChunks(
  partial: PartialIndex,
  documents: ReadonlyMap<number, KnowledgeDocument>,
  mdxPages: ReadonlySet<number>,
  pageNumbers: readonly number[],
): void {
  const placesOf = new Map<number, number[]>();
  for (let chunk = 0; chunk < partial.chunks.count; chunk++) {
    const page = partial.chunks.pageOf[chunk]!;
    if (!documents.has(page)) continue;
    let list = placesOf.get(page);
    if (list === undefined) placesOf.set(page, (list = []));
    list.push(chunk);
  }
  for (const [page, list] of placesOf) {
    const all = documentChunks(documents.get(page)!, mdxPages.has(page));
    for (const chunk of list) {
      const place = all[partial.chunkPlaces[chunk]!];
      if (place === undefined)
        throw new Error(
          `the search index names chunk ${partial.chunkPlaces[chunk]} of page ${pageNumbers[page]}, which its document lacks: the index and the pages are of different revisions`,
        );
      partial.fillChunk(chunk, place.sectionId, place.text);
    }
  }
}
