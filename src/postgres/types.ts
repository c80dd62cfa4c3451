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
  /**
   * The version to publish into (a label: 1 to 64 characters of `A–Z a–z 0–9 . _ -`, such as `3.x`),
   * created when the knowledge base does not have it; the other versions keep their active
   * revisions. Default: the knowledge base's default version (`current` for a new knowledge base).
   * The first version of a knowledge base is its default.
   */
  readonly version?: string;
  /**
   * Make this version the default (the one a reader that names no version reads), in the same
   * transaction: the version published into, or another one the knowledge base has. Default: the
   * default stays.
   */
  readonly defaultVersion?: string;
}

/** What `publishKnowledge` did. */
export interface PublishedKnowledge {
  readonly knowledgeBase: string;
  /** The version published into. */
  readonly version: string;
  /** The knowledge base's default version after the publish. */
  readonly defaultVersion: string;
  /** The version's active revision now. */
  readonly activeContentRevision: ActiveContentRevision;
  /**
   * The version's active revision before the publish; `null` when the version is new. Equal to
   * `activeContentRevision` when nothing changed (the same content again); different with `created`
   * `false` when an older kept revision was made active again.
   */
  readonly previousContentRevision: ActiveContentRevision | null;
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
  /** The active revision of its default version. */
  readonly activeContentRevision: ActiveContentRevision;
  /** Pages of the active revision. */
  readonly pages: number;
  /** When the active revision was published, as an ISO 8601 string. */
  readonly publishedAt: string;
}

/** One version of a knowledge base, as `listKnowledgeVersions` lists it. */
export interface StoredKnowledgeVersion {
  /** Its label, such as `3.x` (`current` for a knowledge base published without versions). */
  readonly version: string;
  /** Whether it is the default version (exactly one is). */
  readonly default: boolean;
  /** Its active revision. */
  readonly activeContentRevision: ActiveContentRevision;
  /** When that revision was published, as an ISO 8601 string. */
  readonly publishedAt: string;
}

/** Which knowledge base `listKnowledgeVersions` lists. */
export interface ListKnowledgeVersionsOptions extends KnowledgeStoreOptions {
  /** The knowledge base's ID. */
  readonly knowledgeBase: string;
}

/** The options of `setDefaultKnowledgeVersion`. */
export interface SetDefaultKnowledgeVersionOptions extends KnowledgeStoreOptions {
  /** The knowledge base's ID. */
  readonly knowledgeBase: string;
  /** The version to make the default: one the knowledge base has. */
  readonly version: string;
}

/** The options of `unpublishKnowledgeVersion`. */
export interface UnpublishKnowledgeVersionOptions extends KnowledgeStoreOptions {
  /** The knowledge base's ID. */
  readonly knowledgeBase: string;
  /** The version to remove (never the knowledge base's last one). */
  readonly version: string;
  /**
   * The version that becomes the default: required when `version` is the default, allowed otherwise
   * (another version the knowledge base has).
   */
  readonly defaultVersion?: string;
  /** How many revisions are kept besides those active in a version (default 2), as `publishKnowledge`'s. */
  readonly keep?: number;
}

/** What `unpublishKnowledgeVersion` did. */
export interface UnpublishedKnowledgeVersion {
  readonly knowledgeBase: string;
  /** The version removed. */
  readonly version: string;
  /** The knowledge base's default version now. */
  readonly defaultVersion: string;
  /** The revisions removed with it (those no version has active any more, beyond `keep`). */
  readonly removed: readonly ActiveContentRevision[];
}

/** The options of `createPostgresSource`. */
export interface PostgresSourceOptions
  extends
    KnowledgeStoreOptions,
    Pick<CatalogSourceOptions, 'actionBase' | 'maxReadChars' | 'search' | 'cursorKey'> {
  /** The knowledge base to read. */
  readonly knowledgeBase: string;
  /**
   * The version to serve (a label). Default: the knowledge base's default version, looked up on
   * every call, so a change of the default is seen by the next call. A version the knowledge base
   * does not have makes every call fail with `VERSION_NOT_FOUND`, listing the versions it has.
   */
  readonly version?: string;
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
