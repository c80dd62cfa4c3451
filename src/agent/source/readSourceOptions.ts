/**
 * Checks the options of `createCatalogSource`: unknown keys and invalid values are `INVALID_INPUT`,
 * all problems in one `KnowledgeError`, each issue with its `path`. (`files` is checked with the file
 * table, where paths are known.) Also picks the search engine: `search`, or the BM25F engine built
 * from the deprecated engine options at the top level.
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  positiveInteger,
  string,
  type OptionCheck,
} from '../../internal/checkOptions.js';
import { snapshotOptions } from '../../internal/snapshotOptions.js';
import { isPlainObject } from '../../internal/values.js';
import { BM25F_OPTION_CHECKS, BM25F_OPTION_KEYS, bm25fFactory } from '../search/index.js';
import type { SearchEngineFactory } from '../search/index.js';
import { linkRootProblem } from '../relations/index.js';
import type { CatalogSourceOptions } from './catalogSourceOptions.js';
import { cursorKeyProblem } from './cursorKey.js';

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
  cursorKey: cursorKeyProblem,
  linkRoot: linkRootProblem,
  // Checked with the file table, which knows the catalog's IDs and the pages' paths.
  fileStatus: () => undefined,
  search: func,
  // Deprecated shorthand of `search: createBm25fEngine({ ... })`.
  ...BM25F_OPTION_CHECKS,
};

/** Whether `value` looks like a catalog; a Proxy or getter that throws is not one. */
function isCatalog(value: unknown): boolean {
  try {
    const c = value as Record<string, unknown> | null;
    return (
      typeof c === 'object' &&
      c !== null &&
      typeof c['read'] === 'function' &&
      typeof c['document'] === 'function' &&
      Array.isArray(c['ids'])
    );
  } catch {
    return false;
  }
}

/** The source's options, checked, and the factory of its search engine. */
export interface SourceOptions {
  readonly options: CatalogSourceOptions;
  readonly search: SearchEngineFactory;
}

/** `options`, checked; throws `KnowledgeError` `INVALID_INPUT` listing every problem. */
export function readSourceOptions(catalog: unknown, options: unknown): SourceOptions {
  const issues: KnowledgeIssue[] = [];
  if (!isCatalog(catalog)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['catalog'],
      message: `${API}: the first argument must be a catalog from \`defineKnowledgeCatalog\`.`,
    });
  }
  // Read once into plain data (`files` too, whose entries the file table reads one by one): a getter
  // or Proxy that throws is `INVALID_INPUT` naming the option.
  const snapshot = snapshotOptions(API, options);
  if (isPlainObject(snapshot) && isPlainObject(snapshot['files']))
    snapshot['files'] = snapshotOptions(API, snapshot['files'], ['options', 'files']);
  if (isPlainObject(snapshot) && isPlainObject(snapshot['linkRoot']))
    snapshot['linkRoot'] = snapshotOptions(API, snapshot['linkRoot'], ['options', 'linkRoot']);
  if (isPlainObject(snapshot) && isPlainObject(snapshot['fileStatus']))
    snapshot['fileStatus'] = snapshotOptions(API, snapshot['fileStatus'], [
      'options',
      'fileStatus',
    ]);
  const checked = checkOptions(API, snapshot, CHECKS, issues) as CatalogSourceOptions;
  const shorthand: Record<string, unknown> = {};
  for (const key of BM25F_OPTION_KEYS) {
    if (checked[key] === undefined) continue;
    shorthand[key] = checked[key];
    if (checked.search !== undefined)
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', key],
        message: `${API}: \`${key}\` is an option of the BM25F engine and cannot be combined with \`search\`. Pass it to the engine that \`search\` builds instead, e.g. \`search: createBm25fEngine({ ${key} })\`.`,
      });
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  return {
    options: checked,
    search: checked.search ?? bm25fFactory(API, shorthand),
  };
}
