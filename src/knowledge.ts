/**
 * Everything in the `Knowledge` namespace: the same functions and types as the named exports.
 *
 * @module
 */
export { defineKnowledgeCatalog } from './catalog/defineKnowledgeCatalog.js';
export { isKnowledgeError } from './errors/isKnowledgeError.js';
export { KnowledgeError } from './errors/KnowledgeError.js';
export { formatKnowledgeDocument } from './format/formatKnowledgeDocument.js';
export { parseKnowledgeDocument } from './parse/parseKnowledgeDocument.js';
export type { KnowledgeErrorCode, KnowledgeIssue, KnowledgePosition } from './errors/codes.js';
export type {
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
