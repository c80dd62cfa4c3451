/**
 * Knowledge Kit: curated, versioned knowledge in plain Markdown, handed to models as exact, citable
 * snapshots. Parse anchored Markdown, compile a frozen catalog at startup, read snapshots per request.
 *
 * @example
 * ```ts
 * import { parseKnowledgeDocument, defineKnowledgeCatalog } from 'knowledge-kit';
 * const doc = parseKnowledgeDocument({ id: 'guide', revision: 'r1', text });
 * const catalog = defineKnowledgeCatalog([doc]);
 * const snapshot = catalog.read({ documentId: 'guide', selection: { mode: 'document' } });
 * ```
 *
 * @module
 */
export { Knowledge } from './knowledge.js';
export { defineKnowledgeCatalog } from './catalog/defineKnowledgeCatalog.js';
export { isKnowledgeError } from './errors/isKnowledgeError.js';
export { KnowledgeError } from './errors/KnowledgeError.js';
export { formatKnowledgeDocument } from './format/formatKnowledgeDocument.js';
export { parseKnowledgeDocument } from './parse/parseKnowledgeDocument.js';
export type { KnowledgeParseOptions } from './parse/parseKnowledgeDocument.js';
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
