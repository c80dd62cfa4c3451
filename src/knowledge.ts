/**
 * The `Knowledge` namespace: the core's functions and types under one name, the same as the named
 * exports (`Knowledge.parseKnowledgeDocument`, `Knowledge.KnowledgeSnapshot`).
 *
 * It is a frozen object of the functions merged with a namespace of the types, written out here
 * rather than re-exported with `export * as`: bundled declarations of a re-exported module declared
 * the type-only names as values, which every strict app (`skipLibCheck: false`) rejected. The types
 * go through module-level aliases (declared, not import renames, which the declaration bundler folds
 * back) so that no name inside the namespace refers to itself.
 *
 * @module
 */
import { defineKnowledgeCatalog } from './catalog/defineKnowledgeCatalog.js';
import type { KnowledgeErrorCode, KnowledgeIssue, KnowledgePosition } from './errors/codes.js';
import { isKnowledgeError } from './errors/isKnowledgeError.js';
import { KnowledgeError } from './errors/KnowledgeError.js';
import { formatKnowledgeDocument } from './format/formatKnowledgeDocument.js';
import {
  parseKnowledgeDocument,
  type KnowledgeParseOptions,
} from './parse/parseKnowledgeDocument.js';
import type {
  KnowledgeCatalog,
  KnowledgeCatalogOptions,
  KnowledgeDocument,
  KnowledgeParseInput,
  KnowledgePart,
  KnowledgeReadRequest,
  KnowledgeSection,
  KnowledgeSelection,
  KnowledgeSelectionMode,
  KnowledgeSnapshot,
} from './types.js';

type ErrorCodeType = KnowledgeErrorCode;
type IssueType = KnowledgeIssue;
type PositionType = KnowledgePosition;
type CatalogType = KnowledgeCatalog;
type CatalogOptionsType = KnowledgeCatalogOptions;
type DocumentType = KnowledgeDocument;
type ParseInputType = KnowledgeParseInput;
type ParseOptionsType = KnowledgeParseOptions;
type PartType = KnowledgePart;
type ReadRequestType = KnowledgeReadRequest;
type SectionType = KnowledgeSection;
type SelectionType = KnowledgeSelection;
type SelectionModeType = KnowledgeSelectionMode;
type SnapshotType = KnowledgeSnapshot;
type ErrorType = KnowledgeError;

/**
 * The core's functions and types under one name, the same as the named exports.
 *
 * @example
 * ```ts
 * import { Knowledge } from 'knowledge-kit';
 * const doc = Knowledge.parseKnowledgeDocument({ id: 'guide', revision: 'r1', text: 'Hello.' });
 * const catalog: Knowledge.KnowledgeCatalog = Knowledge.defineKnowledgeCatalog([doc]);
 * ```
 */
export const Knowledge = Object.freeze({
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  isKnowledgeError,
  KnowledgeError,
  parseKnowledgeDocument,
});

/** The core's types under the `Knowledge` name (see the named exports for each). */
export declare namespace Knowledge {
  /** See the named export `KnowledgeCatalog`. */
  type KnowledgeCatalog = CatalogType;
  /** See the named export `KnowledgeCatalogOptions`. */
  type KnowledgeCatalogOptions = CatalogOptionsType;
  /** See the named export `KnowledgeDocument`. */
  type KnowledgeDocument = DocumentType;
  /** See the named export `KnowledgeError`. */
  type KnowledgeError = ErrorType;
  /** See the named export `KnowledgeErrorCode`. */
  type KnowledgeErrorCode = ErrorCodeType;
  /** See the named export `KnowledgeIssue`. */
  type KnowledgeIssue = IssueType;
  /** See the named export `KnowledgeParseInput`. */
  type KnowledgeParseInput = ParseInputType;
  /** See the named export `KnowledgeParseOptions`. */
  type KnowledgeParseOptions = ParseOptionsType;
  /** See the named export `KnowledgePart`. */
  type KnowledgePart = PartType;
  /** See the named export `KnowledgePosition`. */
  type KnowledgePosition = PositionType;
  /** See the named export `KnowledgeReadRequest`. */
  type KnowledgeReadRequest = ReadRequestType;
  /** See the named export `KnowledgeSection`. */
  type KnowledgeSection = SectionType;
  /** See the named export `KnowledgeSelection`. */
  type KnowledgeSelection = SelectionType;
  /** See the named export `KnowledgeSelectionMode`. */
  type KnowledgeSelectionMode = SelectionModeType;
  /** See the named export `KnowledgeSnapshot`. */
  type KnowledgeSnapshot = SnapshotType;
}
