/**
 * The public types of `knowledge-kit/postgres`: the database it talks to, and the options and results
 * of its functions.
 *
 * @module
 */
import type { KnowledgeCatalog } from '../types.js';
import type {
  ActiveContentRevision,
  CatalogSourceOptions,
  KnowledgeEmbedder,
  KnowledgeEmbeddingCache,
} from '../agent/index.js';

/** One result of `query`: the rows, each a record from column name to value. */
export interface KnowledgeQueryResult {
  readonly rows: readonly Record<string, unknown>[];
}

/**
 * Anything with `query(text, params)`: `pg`'s `Client` and `Pool`, PGlite, or a wrapper of either.
 * Parameters are positional (`$1`, `$2`, …), strings or numbers.
 *
 * A transaction (publishing, migrating) needs its statements on one session: on a `pg.Pool` (anything
 * with `connect()` resolving to a client with `release()`) one client is checked out for it; PGlite and
 * a `pg.Client` are one session already.
 */
export interface KnowledgeDatabase {
  query(text: string, params?: readonly unknown[]): Promise<KnowledgeQueryResult>;
}

/** Where the store lives: its schema (default `knowledge_kit`). */
export interface KnowledgeStoreOptions {
  /** A lowercase SQL identifier (`[a-z_][a-z0-9_]*`, at most 63 characters); default `knowledge_kit`. */
  readonly schema?: string;
}

/** What `migrateKnowledgeStore` did. */
export interface KnowledgeStoreMigration {
  /** The schema's version before the call (`0` when the schema was new). */
  readonly from: number;
  /** The schema's version now. */
  readonly to: number;
}

/** What to publish with `publishKnowledge`. */
export interface PublishKnowledgeOptions extends KnowledgeStoreOptions {
  /** The knowledge base's ID: 1 to 200 characters, no control characters. */
  readonly knowledgeBase: string;
  /** The catalog to publish. */
  readonly catalog: KnowledgeCatalog;
  /** Page paths and metadata, as `createCatalogSource`'s `files`. */
  readonly files?: CatalogSourceOptions['files'];
  /**
   * The revision to publish as (`activeContentRevision` of every source reading it). Default: the
   * digest `createCatalogSource` computes for the same catalog and files, so the same content is the
   * same revision.
   */
  readonly revision?: ActiveContentRevision;
  /** The knowledge base's display title (default: unchanged, or its ID for a new one). */
  readonly title?: string;
  /** How many revisions are kept, the active one included (default 2, at least 1). */
  readonly keep?: number;
  /**
   * What a site-root link's `/` stands for, as `createCatalogSource`'s `linkRoot`: the relationships
   * stored with each page resolve `/learn/state`-style links through it. Not part of the content's
   * digest: republishing the same content with another `linkRoot` is a no-op unless a new `revision`
   * is given.
   */
  readonly linkRoot?: CatalogSourceOptions['linkRoot'];
  /**
   * Embeds every chunk of a new revision, whose vectors are stored in pgvector (the `vector`
   * extension, created when missing; refused with the fix when the database cannot have it), so that
   * `createPostgresSource` given the same model's `embedder` serves hybrid search. Without it, the
   * revision is searched lexically.
   */
  readonly embedder?: KnowledgeEmbedder;
  /** Keeps chunk vectors between publishes by text digest, as the in-memory engine's option. */
  readonly embeddingCache?: KnowledgeEmbeddingCache;
}

/** What `publishKnowledge` did. */
export interface PublishedKnowledge {
  readonly knowledgeBase: string;
  /** The revision now active. */
  readonly activeContentRevision: ActiveContentRevision;
  /** `false` when that revision was already published (nothing was written but the activation). */
  readonly created: boolean;
  /** How many pages the revision has. */
  readonly pages: number;
  /** The revisions removed by this publish (beyond `keep`). */
  readonly removed: readonly ActiveContentRevision[];
}

/** One knowledge base of the store. */
export interface StoredKnowledgeBase {
  readonly id: string;
  readonly title: string;
  /** The active revision. */
  readonly activeContentRevision: ActiveContentRevision;
  /** Pages of the active revision. */
  readonly pages: number;
  /** When the active revision was published, as an ISO 8601 string. */
  readonly publishedAt: string;
}

/** The options of `createPostgresSource`. */
export interface PostgresSourceOptions
  extends
    KnowledgeStoreOptions,
    Pick<CatalogSourceOptions, 'actionBase' | 'maxReadChars' | 'search' | 'cursorKey'> {
  /** The knowledge base to read. */
  readonly knowledgeBase: string;
  /** The source's knowledge base ID in its outputs and errors (default: `knowledgeBase`). */
  readonly id?: string;
  /**
   * Embeds each query, for hybrid search over the chunk vectors `publishKnowledge` stored with the
   * same model (pgvector): their most similar pages are fused with the lexical ranking. A revision
   * published without vectors answers `semanticStatus` unavailable. Without it, `disabled`.
   */
  readonly embedder?: KnowledgeEmbedder;
  /** How long a search's semantic stage may take before the lexical ranking stands. Default 2,000 ms. */
  readonly semanticTimeoutMs?: number;
}
