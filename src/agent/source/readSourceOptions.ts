/**
 * Checks the options of `createCatalogSource`: unknown keys and invalid values are `INVALID_INPUT`,
 * all problems in one `KnowledgeError`, each issue with its `path`. (`files` is checked with the file
 * table, where paths are known.)
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import {
  checkOptions,
  positiveInteger,
  string,
  timeoutMs,
  withMethod,
  type OptionCheck,
} from '../../internal/checkOptions.js';
import { isPlainObject } from '../../internal/values.js';
import type { CatalogSourceOptions } from '../types.js';

const API = 'createCatalogSource';

const CHECKS: Readonly<Record<keyof CatalogSourceOptions, OptionCheck>> = {
  id: string,
  revision: (v) =>
    (typeof v === 'string' && v.length > 0) || Number.isSafeInteger(v)
      ? undefined
      : 'a non-empty string or a safe integer',
  files: (v) =>
    isPlainObject(v) || typeof v === 'function'
      ? undefined
      : 'a record from document ID to file options, or a function',
  actionBase: string,
  maxReadChars: positiveInteger,
  excerptChars: (v) =>
    Number.isSafeInteger(v) && (v as number) >= 16 ? undefined : 'an integer of at least 16',
  embedder: withMethod('embed'),
  semanticTimeoutMs: timeoutMs,
  reranker: withMethod('rerank'),
  rerankTopK: positiveInteger,
  rerankTimeoutMs: timeoutMs,
  searchTimeoutMs: timeoutMs,
};

/** `options`, checked; throws `KnowledgeError` `INVALID_INPUT` listing every problem. */
export function readSourceOptions(catalog: unknown, options: unknown): CatalogSourceOptions {
  const issues: KnowledgeIssue[] = [];
  const c = catalog as Record<string, unknown> | null;
  if (
    typeof c !== 'object' ||
    c === null ||
    typeof c['read'] !== 'function' ||
    typeof c['document'] !== 'function' ||
    !Array.isArray(c['ids'])
  ) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['catalog'],
      message: `${API}: the first argument must be a catalog from \`defineKnowledgeCatalog\`.`,
    });
  }
  const checked = checkOptions(API, options, CHECKS, issues);
  if (issues.length > 0) throw new KnowledgeError(issues);
  return checked as CatalogSourceOptions;
}
