/**
 * The reader port: what a store of published knowledge (a database, a static bundle, an object
 * store) implements so that `createStoredSource` serves the tools over it. A store only reads and
 * returns records, page texts, relationships and search rows of one revision; the source plans each
 * call from its tool's `reads`, builds the call's state (`storedState`), keeps cursors, gates warm-up,
 * ranks searches (`searchTermStore`) and maps errors. Tools compute everything else from what the
 * store returns (headings from page text, filters from file records), so a new tool input needs
 * nothing in any store.
 *
 * A reader answers per call: `open` begins one call (a bundle reads its manifest there; a database
 * needs nothing), and the call's reads come from what `open` returned. Each read is of one revision:
 * the current one (`pin` `null`), or the one an earlier read of the same call returned (`pin`), so a
 * call never mixes revisions. Only `revision` and `pages` are required; every other read is an
 * optional shortcut that makes a call cost what it returns, and the source falls back to `revision`
 * without it.
 *
 * @module
 */
import type { DirectoryRecord, FileRecord } from '../model.js';
import type { TermStore } from '../search/termStoreEngine.js';
import type { ActiveContentRevision } from '../types.js';
import type { StoredPage } from './storedState.js';

/** A page's stored record (the file table is built from these). */
export type StoredRecord = StoredPage['record'];

/** Which revision a read was of. `Pin` is the store's own handle of it (a serial, a digest). */
export interface StoreRevision<Pin> {
  /** The store's handle of the revision, passed back to pin later reads of the same call. */
  readonly pin: Pin;
  /** The revision as outputs name it (`activeContentRevision`). */
  readonly revision: ActiveContentRevision;
  /** When the store published this revision (ISO 8601); default the time the source was created. */
  readonly publishedAt?: string | undefined;
  /**
   * The label of the version this revision is of, when the store knows it (a store serving a
   * knowledge base's default version names it, read in the same statement); default the source's
   * `version` option. A call naming another label is `VERSION_NOT_FOUND`.
   */
  readonly version?: string | undefined;
}

/** Pages of one revision as a read returned them. */
export interface StoreRead<Pin> extends StoreRevision<Pin> {
  /** Each page's record, with its document, section sizes and relationships when they were asked. */
  readonly pages: readonly StoredPage[];
}

/**
 * What `revision` reads besides every page's record. A store may return more than asked (a
 * document, section sizes or relationships of any page); never less.
 */
export interface RevisionWant {
  /** The page (by file ID or path) whose section sizes, and with `document` document, are read. */
  readonly fileId: string | null;
  readonly path: string | null;
  readonly document: boolean;
  /** The page whose relationships are read. */
  readonly relationsOf: string | null;
  /** Every page's relationships. */
  readonly allRelations: boolean;
  /** Every page's document and relationships (a call of a tool without `reads`, an in-memory index). */
  readonly everything: boolean;
}

/** What `page` reads: one page by exactly one of its file ID and path. */
export interface PageWant {
  readonly fileId: string | null;
  readonly path: string | null;
  /** Its document. Its section sizes are always read. */
  readonly document: boolean;
  /** Its relationships, and the records of the pages they name. */
  readonly related: boolean;
}

/** One window of a directory's children, with the directory's counts. */
export interface StoreListing<Pin> extends StoreRevision<Pin> {
  /** How many directories and files the directory holds (directories list first). */
  readonly directoryCount: number;
  readonly fileCount: number;
  /**
   * The children at positions `from`, `from + 1`, … (fewer at the end): a page as its stored record
   * (`{ page }`), a directory or navigation file as its record.
   */
  readonly entries: readonly (DirectoryRecord | FileRecord | { readonly page: StoredRecord })[];
}

/** A navigation file (`index.md`) as stored: its record and text. */
export interface StoreNavFile<Pin> extends StoreRevision<Pin> {
  readonly file: FileRecord;
  readonly content: string;
}

/** A revision's search index, opened for one search. */
export interface StoreSearch<Pin> extends StoreRevision<Pin> {
  /** Its rows (`buildTermRows`' layout); a read of a revision removed meanwhile throws `RevisionGone`. */
  readonly store: TermStore;
  /** The records of the pages `store.pages` returned so far (the hits shown). */
  hits(): readonly StoredRecord[];
}

/** A read of a revision the call pinned, which the store no longer holds. */
export const GONE = 'gone';
/** A read of something the revision does not hold (the source then reads the whole revision). */
export const MISSING = 'missing';

/**
 * One call's reads. `undefined` from any read means the knowledge base is not in the store (the call
 * answers `NOT_FOUND`).
 */
export interface StoreCall<Pin> {
  /** The knowledge base ID the store names (a bundle's manifest), when it names one. */
  readonly knowledgeBaseId?: string | undefined;
  /** The current revision: every page's record and what `want` asks for. Required. */
  revision(want: RevisionWant): Promise<StoreRead<Pin> | undefined>;
  /**
   * The records (and, with `relations`, the relationships) of the pages `fileIds` of revision `pin`
   * (`null`: the current one; no IDs: the revision alone). Pages not in the revision are left out.
   * Required: the walks of `expand_graph` read level by level through it.
   */
  pages(
    pin: Pin | null,
    fileIds: readonly string[],
    relations: boolean,
  ): Promise<StoreRead<Pin> | typeof GONE | undefined>;
  /** Optional: the current revision's page `want` names (first) and, with `related`, the pages it relates to. */
  page?(want: PageWant): Promise<StoreRead<Pin> | typeof MISSING | undefined>;
  /** Optional: the children of directory `path` at positions `[from, to)` of revision `pin`. */
  listing?(
    pin: Pin | null,
    path: string,
    from: number,
    to: number,
  ): Promise<StoreListing<Pin> | typeof MISSING | typeof GONE | undefined>;
  /** Optional: the current revision's navigation file `name` (`index.md`) and its text. */
  navFile?(name: string): Promise<StoreNavFile<Pin> | typeof MISSING | undefined>;
  /**
   * Optional: the current revision's search index; `undefined` when that revision has none (or the
   * knowledge base is not in the store): it is then searched in memory, built from `revision`.
   */
  search?(): Promise<StoreSearch<Pin> | undefined>;
}

/**
 * A store of published knowledge, as `createStoredSource` reads it. Implement `open`, returning the
 * call's reads; see this module's documentation and `docs/architecture.md` ("A new knowledge source").
 */
export interface StoreReader<Pin> {
  /** Begin one call: read what every call needs first (a manifest), or nothing. */
  open(signal: AbortSignal | undefined): Promise<StoreCall<Pin>>;
}

/** A read of a revision that was removed while the call ran (the source starts the call again). */
export class RevisionGone extends Error {
  override readonly name = 'RevisionGone';
}
