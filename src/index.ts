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
export * as Knowledge from './knowledge.js';
export {
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  isKnowledgeError,
  KnowledgeError,
  parseKnowledgeDocument,
} from './knowledge.js';
export type {
  KnowledgeCatalog,
  KnowledgeCatalogOptions,
  KnowledgeDocument,
  KnowledgeErrorCode,
  KnowledgeIssue,
  KnowledgeParseInput,
  KnowledgePart,
  KnowledgePosition,
  KnowledgeReadRequest,
  KnowledgeSection,
  KnowledgeSelection,
  KnowledgeSelectionMode,
  KnowledgeSnapshot,
} from './knowledge.js';
