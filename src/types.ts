/**
 * The public data types of Knowledge Kit: documents, sections, selections, requests and snapshots.
 *
 * @module
 */

/** A section: a stable `id` and its parts, in source order. */
export interface KnowledgeSection {
  /** Stable identity of the section, unique within its whole document. */
  readonly id: string;
  /** Body text and subsections, in source order. */
  readonly parts: readonly KnowledgePart[];
}

/** One part of a document or section: body text or a subsection. */
export type KnowledgePart = string | KnowledgeSection;

/** A document: what `parseKnowledgeDocument` returns and `defineKnowledgeCatalog` accepts. */
export interface KnowledgeDocument {
  /** Document ID, unique in a catalog. */
  readonly id: string;
  /** The content version the app computed (a hash, a database version, a release). */
  readonly revision: string;
  /** Optional locale, such as `zh-CN` or `en`. */
  readonly locale?: string;
  /** Body text and sections, in source order. */
  readonly parts: readonly KnowledgePart[];
}

/** The input of `parseKnowledgeDocument`. */
export interface KnowledgeParseInput {
  /** Document ID: a non-empty string. */
  readonly id: string;
  /** Content version: a non-empty string the app computed. */
  readonly revision: string;
  /** Anchored Markdown source text. */
  readonly text: string;
  /** Optional locale: a non-empty string. `undefined` counts as absent. */
  readonly locale?: string | undefined;
}

/** Which part of a document a read returns. */
export type KnowledgeSelection =
  | { readonly mode: 'document' }
  | { readonly mode: 'self'; readonly sectionIds: readonly string[] }
  | { readonly mode: 'subtree'; readonly sectionIds: readonly string[] };

/** The three read modes. */
export type KnowledgeSelectionMode = KnowledgeSelection['mode'];

/** A read request: a document, a selection, and an optional limit. */
export interface KnowledgeReadRequest {
  /** The document to read. */
  readonly documentId: string;
  /** What to read from it. */
  readonly selection: KnowledgeSelection;
  /** Largest allowed content, in Unicode code points after trimming; overrides the catalog default. */
  readonly maxChars?: number | undefined;
}

/** Exact, citable evidence read from a catalog. Deep-frozen. */
export interface KnowledgeSnapshot {
  /** Stable serialization of `{ documentId, revision, locale, selection }`: an identity, not a hash or credential. */
  readonly id: string;
  /** The document read. */
  readonly documentId: string;
  /** A normalized copy of the requested selection. */
  readonly selection: KnowledgeSelection;
  /** The document's revision. */
  readonly revision: string;
  /** The document's locale; absent when the document has none. */
  readonly locale?: string;
  /** The selected text, joined by blank lines and trimmed. */
  readonly content: string;
}

/** Options of `defineKnowledgeCatalog`. */
export interface KnowledgeCatalogOptions {
  /** Default limit for reads that give no `maxChars` of their own. */
  readonly maxChars?: number | undefined;
}

/** A compiled, deep-frozen, read-only catalog of documents. */
export interface KnowledgeCatalog {
  /** Document IDs in input order. */
  readonly ids: readonly string[];
  /**
   * Section IDs of a document, in source order (pre-order).
   *
   * @throws {KnowledgeError} `UNKNOWN_DOCUMENT`
   */
  sectionIds(documentId: string): readonly string[];
  /**
   * The compiled, deep-frozen document.
   *
   * @throws {KnowledgeError} `UNKNOWN_DOCUMENT`
   */
  document(documentId: string): KnowledgeDocument;
  /**
   * Check a request against the catalog, throwing what `read` would throw for it, short of reading
   * (so never `MAX_CHARS_EXCEEDED`). Use it at startup on every task → document → section reference.
   * Passing does not make client input trusted: parse and authorize it with your own schema.
   *
   * (It returns `void` rather than being a TypeScript assertion function: those cannot be called on a
   * catalog whose type is inferred, which is how every app declares it.)
   *
   * @throws {KnowledgeError} `INVALID_SELECTION`, `UNKNOWN_DOCUMENT`, `UNKNOWN_SECTION`, `DUPLICATE_SELECTION`
   */
  assertSelection(request: unknown): void;
  /**
   * Read a deep-frozen snapshot.
   *
   * @throws {KnowledgeError} what `assertSelection` throws, and `MAX_CHARS_EXCEEDED`
   */
  read(request: KnowledgeReadRequest): KnowledgeSnapshot;
}
