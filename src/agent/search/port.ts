/**
 * The search port: what a search engine behind `search_files` is given and what it answers. The
 * BM25F engine (`createBm25fEngine`) is the default; any other engine (a database, a static
 * bundle, a remote service) plugs in through `createCatalogSource(catalog, { search })` by implementing
 * `SearchEngine` and passing `runSearchEngineContract` (test/contracts/searchEngine.contract.ts).
 *
 * The source owns everything that is not ranking: checking the arguments, the file fields of each item,
 * `readActions`, `searchStatus`, messages, and its cursor (bound to the knowledge base, revision, every
 * parameter and the optional stages that ran). The engine owns ranking and its own position in the
 * ranking: it answers one page of at most `limit` hits and an opaque `continuation` for the next page,
 * which the source carries inside its cursor and hands back unchanged.
 *
 * @module
 */
import type {
  ActiveContentRevision,
  EvidenceType,
  JsonObject,
  MatchedField,
  RelationDirection,
  RelationType,
  RerankerSafeCode,
  SearchMode,
  SemanticSafeCode,
  StageStatus,
} from '../types.js';

/** One page of the corpus as an engine sees it: its file fields (what `mode: "file"` searches). */
export interface SearchCorpusPage {
  /** The page's file ID (its document ID): what a hit names. */
  readonly fileId: string;
  /** The page's path, such as `pages/guides/billing.md`. */
  readonly path: string;
  /** The page's title (`files` option, else its first heading, else its ID). */
  readonly title: string;
  /** The page's description (`files` option, else its first paragraph), or `null`. */
  readonly description: string | null;
  /** `frontmatter.tags`, or `[]`. */
  readonly tags: readonly string[];
  /** The page's front matter (`files` option), `{}` when none. */
  readonly frontmatter: JsonObject;
  /** The document's locale, or `null`. */
  readonly locale: string | null;
}

/** One searchable text of a page: a section's own text, or the page's text outside sections. */
export interface SearchChunk {
  /** The section's ID, or `null` for the page's own text outside every section. */
  readonly sectionId: string | null;
  /** The section's own text (its direct text parts joined by blank lines, as a `self` read returns them). */
  readonly text: string;
}

/** One relationship of a page, seen from that page (what graph mode follows). */
export interface SearchRelation {
  /** The page at the other end. */
  readonly fileId: string;
  readonly relationType: RelationType;
  readonly direction: RelationDirection;
  /** In `(0, 1]`; stronger relationships first in `SearchCorpus.relationsOf`. */
  readonly weight: number;
  /** Why they are related, for people (`read_related`'s `reason`). */
  readonly reason: string;
  /** The section of the page at the other end that a link names (its fragment), or `null`. */
  readonly sectionId: string | null;
}

/**
 * What a source gives an engine factory: its pages and, on demand, their texts and relationships. The
 * texts are computed when asked for (an engine that keeps its own index asks once, when it builds it).
 */
export interface SearchCorpus {
  /** The source's `activeContentRevision`: an engine that persists an index can key it by this. */
  readonly revision: ActiveContentRevision;
  /** Every page (navigation files are never candidates), in path order (code-point order). */
  readonly pages: readonly SearchCorpusPage[];
  /**
   * A page's chunks: its text outside sections first, then its sections in source order (pre-order);
   * chunks without a non-whitespace character are left out. A fresh array on each call.
   *
   * @param fileId - a page's `fileId`.
   * @throws {KnowledgeError} `UNKNOWN_DOCUMENT` for a file ID that is not a page.
   */
  chunksOf(fileId: string): readonly SearchChunk[];
  /**
   * The start of a page's text in source order, whitespace collapsed, at most `maxChars` code points
   * with a final `…` when cut: the excerpt of a hit found without a content match.
   *
   * @param fileId - a page's `fileId`.
   * @param maxChars - the largest excerpt, in code points.
   * @throws {KnowledgeError} `UNKNOWN_DOCUMENT` for a file ID that is not a page.
   */
  leadOf(fileId: string, maxChars: number): string;
  /**
   * A page's relationships, strongest first (weight, then type, then path), `[]` for a file ID that is
   * not a page.
   */
  relationsOf(fileId: string): readonly SearchRelation[];
  /**
   * Optional: for each of a page's chunks (in `chunksOf` order), the headings whose ranges meet it,
   * in the chunk's own code units. The default engines name a hit's heading from it and cut its
   * excerpt from that heading's range; without it, hits name no heading.
   *
   * @param fileId - a page's `fileId`.
   */
  headingsOf?(fileId: string): readonly (readonly SearchChunkHeading[])[];
}

/** The name of one search filter. */
export type SearchFilterName = 'pathPrefix' | 'tags' | 'locale';

/**
 * The filters of a search, checked: each `null` when not given. A page is a candidate only when it
 * passes every filter given; the ranking's statistics stay those of every page, so a page kept has the
 * score it has without filters.
 */
export interface SearchFilter {
  /** Pages whose `path` starts with one of these (such as `pages/guide/`), or `null`. */
  readonly pathPrefix: readonly string[] | null;
  /** Pages whose `tags` hold every one of these, or `null`. */
  readonly tags: readonly string[] | null;
  /** Pages whose locale is this, or `null`. */
  readonly locale: string | null;
}

/**
 * One `search_files` call as the engine receives it, checked and with defaults applied. Every field but
 * `continuation` and `signal` is bound into the source's cursor, so a continuation always comes back
 * with the same query, mode, graph settings, rerank flag, limit and filters it was issued for.
 */
export interface SearchRequest {
  /** Trimmed, 1 to 2,000 code points. */
  readonly query: string;
  readonly mode: SearchMode;
  /** Graph mode's hops, 1 to 3. */
  readonly graphDepth: number;
  /** Graph mode's seeds and relationships followed per page, 1 to 50. */
  readonly graphFanout: number;
  /** Whether the caller asked for reranking. */
  readonly rerank: boolean;
  /** Most hits to answer, 1 to 50. */
  readonly limit: number;
  /**
   * The filters: an engine answers only pages that pass them (the source refuses a hit that does
   * not), ranked as without them. `undefined` (or every filter `null`) for none.
   */
  readonly filter?: SearchFilter | undefined;
  /**
   * `undefined` for the first page, else the `continuation` this engine answered for the page before
   * (an offset, a keyset, a shard position: the engine's own format). A continuation the engine did
   * not issue, or one past the end, is answered with no hits (the source then refuses the cursor as
   * `INVALID_CURSOR`).
   */
  readonly continuation: string | undefined;
  /** The caller's signal: on abort, reject (the source turns it into `TIMEOUT`). */
  readonly signal: AbortSignal | undefined;
}

/** One ranked page. */
export interface SearchHit {
  /** A `fileId` of `SearchCorpus.pages`; at most once in the whole ranking. */
  readonly fileId: string;
  /** Positive and finite; hits come in descending score (comparable within one ranking only). */
  readonly score: number;
  /** Where the query's words were found, in the order `title`, `path`, `description`, `tags`, `content`. */
  readonly matchedFields: readonly MatchedField[];
  /** Why the page was returned, in the order `content`, `metadata`, `semantic`, `graph`; never empty. */
  readonly evidenceTypes: readonly EvidenceType[];
  /**
   * The page's own words (never generated text), whitespace collapsed, `…` at a cut end: around the
   * match in its best chunk, else the page's lead (`SearchCorpus.leadOf`); `''` for a page without text.
   */
  readonly sourceExcerpt: string;
  /** Up to three of the page's sections that matched best, best first (IDs of its chunks). */
  readonly sectionIds: readonly string[];
  /**
   * The innermost heading whose range holds the match the excerpt shows (`null` before the page's
   * first heading, or for a hit without a content match). Optional: an engine that cannot tell
   * leaves it out, and the source answers `null`.
   */
  readonly heading?: SearchHitHeading | null;
}

/** A heading as one chunk sees it (`SearchCorpus.headingsOf`). */
export interface SearchChunkHeading {
  /** The heading's ID, as `get_file` lists it. */
  readonly id: string;
  readonly text: string;
  /** Where its range starts in the chunk's text (0 when it starts in a chunk before). */
  readonly from: number;
  /** Where it ends in the chunk's text (the text's length when it goes on after the chunk). */
  readonly to: number;
}

/** The heading of a hit: its ID (for `read_file { heading }`) and text. */
export interface SearchHitHeading {
  readonly id: string;
  readonly text: string;
}

/** One page of a ranking. */
export interface SearchAnswer {
  /** At most `limit` hits, best first, continuing the ranking where `continuation` left it. */
  readonly hits: readonly SearchHit[];
  /**
   * The position after these hits, or `null` when no hit follows them (never a continuation to an
   * empty page).
   */
  readonly continuation: string | null;
  /** Whether semantic ranking ran for this ranking (`shared/spec/agent.md`). */
  readonly semanticStatus: StageStatus<SemanticSafeCode>;
  /** Whether reranking ran for this ranking. */
  readonly rerankerStatus: StageStatus<RerankerSafeCode>;
  /**
   * When the request's filters keep no page at all: the filter that keeps none on its own, or
   * `together` when each keeps some page and none passes them all. Optional: the source then says
   * only that nothing in the filters' scope matched.
   */
  readonly emptiedBy?: SearchFilterName | 'together' | undefined;
}

/**
 * How far an engine's `warm()` has come, in the engine's own units (the BM25F engine counts the
 * pages and chunks it has indexed): `done` of `total`, `0 <= done <= total`. The source turns it into
 * the progress `serve` prints and the `retryAfterSeconds` of a search refused meanwhile.
 */
export interface SearchWarmProgress {
  readonly done: number;
  readonly total: number;
}

/**
 * A search engine: ranks the pages of one corpus for a query, one page of hits at a time. The same
 * request answers the same hits while the corpus is the same (paging relies on it: pages of one ranking
 * concatenate to the ranking, with no repeat and no gap); optional stages that can fail (semantic,
 * rerank) say so in the statuses, and the source refuses a cursor whose ranking ran differently.
 */
export interface SearchEngine {
  /**
   * Build what the first search would (indexes, vectors, connections), so that it costs nothing later;
   * idempotent, shared by concurrent callers. Optional: a source without it resolves `warm()` at once.
   * Long work should run in slices that yield to the event loop (the BM25F engine yields every
   * ~20 ms), so that the process keeps answering other calls meanwhile. While a source's `warm()` runs,
   * a search waits for it at most a second, then the source answers `SEARCH_UNAVAILABLE` with
   * `retryAfterSeconds` without calling `search`.
   *
   * @param signal - stops waiting (the work may go on for the next caller).
   * @param onProgress - called now and then while the work goes on (never after it settles).
   * @throws {KnowledgeToolError} `SEARCH_UNAVAILABLE` when the engine cannot be made ready.
   */
  warm?(signal?: AbortSignal, onProgress?: (progress: SearchWarmProgress) => void): Promise<void>;
  /**
   * One page of the ranking for `request`.
   *
   * @param request - the checked call, with `limit` and the engine's `continuation`.
   * @returns the page's hits, the next continuation and the stage statuses.
   * @throws {KnowledgeToolError} `SEARCH_UNAVAILABLE` or `SEARCH_TIMEOUT` (anything else thrown is
   *   reported by the source as `SEARCH_UNAVAILABLE`, or `TIMEOUT` when the caller aborted).
   */
  search(request: SearchRequest): Promise<SearchAnswer>;
}

/**
 * Builds the engine of one source, given the source's corpus: `createCatalogSource` calls it once, when
 * the source is created, so the engine should defer costly work to `warm()` or its first search.
 *
 * @example
 * ```ts
 * const source = createCatalogSource(catalog, { search: createBm25fEngine({ embedder }) });
 * ```
 */
export type SearchEngineFactory = (corpus: SearchCorpus) => SearchEngine;
