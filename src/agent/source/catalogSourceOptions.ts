/**
 * The options of `createCatalogSource`.
 *
 * @module
 */
import type { SearchEngineFactory } from '../search/port.js';
import type {
  KnowledgeFileOptions,
  KnowledgeFileStatusOptions,
  KnowledgeLinkRoot,
} from '../types.js';

/**
 * `read_file`'s part size in code points when a source is given no `maxReadChars`: catalog and stored
 * sources alike.
 */
export const DEFAULT_MAX_READ_CHARS = 20_000;

/** Options of `createCatalogSource`. */
export interface CatalogSourceOptions {
  /** The knowledge base's ID, which cursors are bound to when the call's context names none. */
  readonly id?: string | undefined;
  /** `activeContentRevision`; default a digest of every document and file record. */
  readonly revision?: string | number | undefined;
  /** Page paths, titles, descriptions and front matter, by document ID. */
  readonly files?:
    | { readonly [documentId: string]: KnowledgeFileOptions }
    | ((documentId: string) => KnowledgeFileOptions | undefined)
    | undefined;
  /** Prefix of `readActions` values when the call's context gives none. Default `''`. */
  readonly actionBase?: string | undefined;
  /** Largest `read_file` content, in code points. Default 20,000. */
  readonly maxReadChars?: number | undefined;
  /**
   * The secret that signs cursors (HMAC-SHA256), at least 16 bytes: give replicas behind one URL the
   * same key so each accepts the others' cursors. Default: a random key per process, which every
   * source in it shares. Keep it secret: who knows it can forge cursors (though only for what the
   * caller may read anyway).
   */
  readonly cursorKey?: string | Uint8Array | undefined;
  /**
   * What a site-root link's `/` stands for, as docs sites write links (`/learn/state`,
   * `/guide/essentials/list.html`, `/api/#ref`). Default `''`: the root of page paths.
   * See `KnowledgeLinkRoot`; `loadKnowledgeDirectory` gives the value for a folder.
   */
  readonly linkRoot?: KnowledgeLinkRoot | undefined;
  /**
   * Per-file availability (`state`, `generatedOutputStatus` of `list_tree` and `get_file`): documents
   * served from a previous version, and files that cannot be served. Default: every document current.
   * `loadKnowledgeFiles` (`knowledge-kit/node`) gives it for a folder.
   */
  readonly fileStatus?: KnowledgeFileStatusOptions | undefined;
  /**
   * The label of the source's one version, which every output names (`version`) and a call may pass
   * as `version` (any other label is `VERSION_NOT_FOUND`): 1 to 64 characters of `A–Z a–z 0–9 . _ -`,
   * such as `3.x`. Default `current`.
   */
  readonly version?: string | undefined;
  /**
   * When this content was published, which every output carries (`publishedAt`, ISO 8601): a `Date`
   * or a date string. Default the time the source is created (a folder source: when it was loaded).
   */
  readonly publishedAt?: string | Date | undefined;
  /**
   * The search engine behind `search_files`, as a factory the source calls once with its corpus.
   * Default `createBm25fEngine()`; the embedder, the reranker, `excerptChars` and the time limits
   * are options of the engine: `search: createBm25fEngine({ embedder })`.
   */
  readonly search?: SearchEngineFactory | undefined;
}
