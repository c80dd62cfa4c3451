/**
 * Checks the options of `createCatalogSource`: unknown keys and invalid values are `INVALID_INPUT`,
 * all problems in one `KnowledgeError`, each issue with its `path`. (`files` is checked with the file
 * table, where paths are known.) Also picks the search engine: `search`, or the default BM25F engine.
 * An option of the engine passed here is unknown, and its message says where it goes.
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  positiveInteger,
  string,
  type OptionCheck,
} from '../../shared/checkOptions.js';
import { snapshotOptions } from '../../shared/snapshotOptions.js';
import { isPlainObject } from '../../shared/values.js';
import type { Bm25fEngineOptions } from '../search/createBm25fEngine.js';
import { createBm25fEngine, type SearchEngineFactory } from '../search/index.js';
import { linkRootProblem } from '../relations/index.js';
import type { CatalogSourceOptions } from './catalogSourceOptions.js';
import { cursorKeyProblem } from './cursorKey.js';
import { publishedAtProblem, versionOptionProblem } from './versionOf.js';

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
  version: versionOptionProblem,
  publishedAt: publishedAtProblem,
  search: func,
};

/** The options of the BM25F engine, which `createCatalogSource` no longer takes beside `search`. */
const ENGINE_KEYS: Readonly<Record<keyof Bm25fEngineOptions, true>> = {
  embedder: true,
  embeddingCache: true,
  semanticTimeoutMs: true,
  reranker: true,
  rerankTopK: true,
  rerankTimeoutMs: true,
  searchTimeoutMs: true,
  excerptChars: true,
};

/** What replaces each engine option: the sentence its unknown-option message carries. */
const REPLACED: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(ENGINE_KEYS).map((key) => [
    key,
    `It is an option of the search engine: pass \`search: createBm25fEngine({ ${key} })\` instead.`,
  ]),
);

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
  const checked = checkOptions(API, snapshot, CHECKS, issues, REPLACED) as CatalogSourceOptions;
  if (issues.length > 0) throw new KnowledgeError(issues);
  return { options: checked, search: checked.search ?? createBm25fEngine() };
}
