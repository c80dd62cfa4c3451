/**
 * Checks the options of `createCatalogSource`: unknown keys and invalid values are `INVALID_INPUT`,
 * all problems in one `KnowledgeError`, each issue with its `path`. (`files` is checked with the file
 * table, where paths are known.)
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import type { CatalogSourceOptions } from '../types.js';
import { isPlainObject } from '../../internal/values.js';

const API = 'createCatalogSource';

type Check = (value: unknown) => string | undefined;

const positiveInteger: Check = (v) => (Number.isSafeInteger(v) && (v as number) > 0 ? undefined : 'a positive safe integer');
const string: Check = (v) => (typeof v === 'string' ? undefined : 'a string');
const withMethod =
  (name: string): Check =>
  (v) =>
    typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[name] === 'function' ? undefined : `an object with a \`${name}\` method`;

const CHECKS: Readonly<Record<keyof CatalogSourceOptions, Check>> = {
  id: string,
  revision: (v) =>
    (typeof v === 'string' && v.length > 0) || Number.isSafeInteger(v) ? undefined : 'a non-empty string or a safe integer',
  files: (v) => (isPlainObject(v) || typeof v === 'function' ? undefined : 'a record from document ID to file options, or a function'),
  actionBase: string,
  maxReadChars: positiveInteger,
  excerptChars: (v) => (Number.isSafeInteger(v) && (v as number) >= 16 ? undefined : 'an integer of at least 16'),
  embedder: withMethod('embed'),
  semanticTimeoutMs: positiveInteger,
  reranker: withMethod('rerank'),
  rerankTopK: positiveInteger,
  rerankTimeoutMs: positiveInteger,
  searchTimeoutMs: positiveInteger,
};

/** `options`, checked; throws `KnowledgeError` `INVALID_INPUT` listing every problem. */
export function readSourceOptions(catalog: unknown, options: unknown): CatalogSourceOptions {
  const issues: KnowledgeIssue[] = [];
  const c = catalog as Record<string, unknown> | null;
  if (typeof c !== 'object' || c === null || typeof c['read'] !== 'function' || typeof c['document'] !== 'function' || !Array.isArray(c['ids'])) {
    issues.push({ code: 'INVALID_INPUT', path: ['catalog'], message: `${API}: the first argument must be a catalog from \`defineKnowledgeCatalog\`.` });
  }
  if (options === undefined) options = {};
  if (!isPlainObject(options)) {
    issues.push({ code: 'INVALID_INPUT', path: ['options'], message: `${API}: \`options\` must be a plain object.` });
  } else {
    for (const key of Object.keys(options)) {
      const value = options[key];
      if (value === undefined) continue;
      const check = (CHECKS as Record<string, Check | undefined>)[key];
      if (check === undefined) {
        issues.push({
          code: 'INVALID_INPUT',
          path: ['options', key],
          message: `${API}: unknown option \`${key}\`. Known options: ${Object.keys(CHECKS).map((k) => `\`${k}\``).join(', ')}.`,
        });
        continue;
      }
      const expected = check(value);
      if (expected !== undefined) {
        issues.push({ code: 'INVALID_INPUT', path: ['options', key], message: `${API}: \`options.${key}\` must be ${expected}.` });
      }
    }
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  return options as CatalogSourceOptions;
}
