/**
 * Error codes and the issue shape.
 *
 * @module
 */

/** Every error code, in the order `docs/errors.md` lists them. */
export const KNOWLEDGE_ERROR_CODES = [
  'INVALID_INPUT',
  'MALFORMED_ANCHOR',
  'UNCLOSED_SECTION',
  'UNEXPECTED_CLOSE',
  'MISMATCHED_CLOSE',
  'DUPLICATE_SECTION_ID',
  'UNCLOSED_FENCE',
  'DUPLICATE_DOCUMENT_ID',
  'CYCLE',
  'INVALID_SELECTION',
  'UNKNOWN_DOCUMENT',
  'UNKNOWN_SECTION',
  'DUPLICATE_SELECTION',
  'MAX_CHARS_EXCEEDED',
  'INVALID_FRONT_MATTER',
  'INVALID_ENCODING',
  'REFUSED_FILE',
  'READ_FAILED',
  'WRITE_FAILED',
] as const;

/** A machine-readable error code. */
export type KnowledgeErrorCode = (typeof KNOWLEDGE_ERROR_CODES)[number];

/** A 1-based place in source text. Columns count UTF-16 code units. */
export interface KnowledgePosition {
  /** Line, from 1. LF, CRLF and a lone CR each end a line. */
  readonly line: number;
  /** Column, from 1, in UTF-16 code units. */
  readonly column: number;
}

/** One problem found in an input. */
export interface KnowledgeIssue {
  /** What went wrong. */
  readonly code: KnowledgeErrorCode;
  /** What, where and how to fix it, naming the API. */
  readonly message: string;
  /** Where in the input value, e.g. `[2, 'parts', 0, 'id']` or `['selection', 'sectionIds', 1]`. */
  readonly path?: readonly (string | number)[];
  /** The document concerned, where known. */
  readonly documentId?: string;
  /** The section concerned, where known. */
  readonly sectionId?: string;
  /** The file concerned, relative to the loaded folder (`/`-separated); set by `knowledge-kit/node`. */
  readonly file?: string;
  /** Line in the source text (1-based). */
  readonly line?: number;
  /** Column in the source text (1-based). */
  readonly column?: number;
  /** A second place that matters, such as the open anchor a close fails to match. */
  readonly related?: KnowledgePosition;
  /** Close matches for an unknown ID. */
  readonly suggestions?: readonly string[];
  /** The measured size, for `MAX_CHARS_EXCEEDED` (characters) and a file over `maxFileBytes` (bytes). */
  readonly actual?: number;
  /** The limit that was exceeded, for `MAX_CHARS_EXCEEDED` and a file over `maxFileBytes`. */
  readonly limit?: number;
}
