import type { KnowledgeIssue } from '../errors/codes.js';
import { fail, guardInput, throwIfIssues, throwIssues } from '../shared/guard.js';
import { describe, isCharLimit, isPlainObject, own, unknownKeys } from '../shared/values.js';
import type {
  KnowledgeCatalog,
  KnowledgeCatalogOptions,
  KnowledgeDocument,
  KnowledgeReadRequest,
} from '../types.js';
import { checkRequest } from './checkRequest.js';
import { type CompiledDocument, compileDocument } from './compileDocument.js';
import { readSnapshot } from './readSnapshot.js';
import { unknownDocument } from './unknownDocument.js';

const API = 'defineKnowledgeCatalog';

/**
 * Compile documents into a frozen, read-only catalog. Build it once at startup; to change content,
 * build a new catalog and swap your reference. The input is copied (never frozen or mutated) and
 * everything the catalog hands out is deep-frozen.
 *
 * @param documents - parsed or hand-built `KnowledgeDocument`s; IDs unique in the catalog.
 * @param options - `maxChars`: default limit for reads that give none.
 * @returns the catalog: `ids`, `sectionIds`, `document`, `assertSelection`, `read`.
 * @throws {KnowledgeError} with every problem, each with its `path`: `INVALID_INPUT`,
 *   `DUPLICATE_DOCUMENT_ID`, `DUPLICATE_SECTION_ID`, `CYCLE`.
 * @example
 * ```ts
 * const catalog = defineKnowledgeCatalog([guide], { maxChars: 8000 });
 * const snapshot = catalog.read({ documentId: 'service-guide', selection: { mode: 'subtree', sectionIds: ['delivery'] } });
 * ```
 */
export function defineKnowledgeCatalog(
  documents: readonly KnowledgeDocument[],
  options?: KnowledgeCatalogOptions,
): KnowledgeCatalog {
  // The catalog's methods are made in `catalogOf`, not here: closures made in one function share one
  // context, so methods made beside the arrow below would keep `documents` (the caller's input, and
  // with it every parsed document) alive for as long as the catalog.
  return catalogOf(guardInput(API, () => compileAll(documents, options)));
}

/** The catalog of compiled documents. */
function catalogOf({
  compiled,
  maxChars,
}: {
  compiled: Map<string, CompiledDocument>;
  maxChars: number | undefined;
}): KnowledgeCatalog {
  const ids = Object.freeze([...compiled.keys()]);

  const find = (api: string, documentId: unknown): CompiledDocument => {
    if (typeof documentId !== 'string') {
      fail({
        code: 'INVALID_INPUT',
        path: [],
        message: `${api}: the document ID must be a string, got ${describe(documentId)}.`,
      });
    }
    const doc = compiled.get(documentId);
    if (doc !== undefined) return doc;
    return fail(unknownDocument(api, documentId, ids, [], ''));
  };

  return Object.freeze({
    ids,
    // Guarded: describing a non-string argument (a Proxy whose traps throw, say) reads it.
    sectionIds: (documentId: string) =>
      guardInput('catalog.sectionIds', () => find('catalog.sectionIds', documentId)).sectionIds,
    document: (documentId: string) =>
      guardInput('catalog.document', () => find('catalog.document', documentId)).document,
    assertSelection(request: unknown): void {
      guardInput('catalog.assertSelection', () =>
        checkRequest('catalog.assertSelection', request, compiled),
      );
    },
    read: (request: KnowledgeReadRequest) =>
      readSnapshot(
        'catalog.read',
        guardInput('catalog.read', () => checkRequest('catalog.read', request, compiled)),
        maxChars,
      ),
  });
}

/** How many holes of a sparse `documents` array are reported one by one before it is refused whole. */
const MAX_HOLES = 20;

function compileAll(
  documents: unknown,
  options: unknown,
): { compiled: Map<string, CompiledDocument>; maxChars: number | undefined } {
  const issues: KnowledgeIssue[] = [];
  let maxChars: number | undefined;
  if (options !== undefined) {
    if (!isPlainObject(options)) {
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options'],
        message: `${API}: options must be an object { maxChars? }, got ${describe(options)}.`,
      });
    } else {
      for (const key of unknownKeys(options, ['maxChars'])) {
        issues.push({
          code: 'INVALID_INPUT',
          path: ['options', key],
          message: `${API}: unknown option \`${key}\`. The only option is \`maxChars\`.`,
        });
      }
      const limit = own(options, 'maxChars');
      if (limit !== undefined && !isCharLimit(limit)) {
        issues.push({
          code: 'INVALID_INPUT',
          path: ['options', 'maxChars'],
          message: `${API}: options.maxChars must be a non-negative safe integer (Unicode code points), got ${describe(limit)}.`,
        });
      } else maxChars = limit as number | undefined;
    }
  }
  const compiled = new Map<string, CompiledDocument>();
  if (!Array.isArray(documents)) {
    throwIssues([
      ...issues,
      {
        code: 'INVALID_INPUT',
        path: [],
        message: `${API}: expected an array of documents, got ${describe(documents)}.`,
      },
    ]);
  }
  // One Map operation per document. Each new ID is set in `compiled`; a set that does not grow the
  // Map is a duplicate. Any duplicate throws, so the value it overwrote never reaches a catalog. The
  // index of each ID's first document, needed only for the message, is kept in `indexes` (an array
  // push, not a Map update) and looked up in a Map built at the first duplicate.
  const indexes: number[] = [];
  let firstIndex: Map<string, number> | undefined;
  // A plain loop, not forEach: a hole in a sparse array is reported, never skipped. Past
  // `MAX_HOLES` holes the array is refused as a whole: `new Array(2 ** 32 - 1)` would otherwise be
  // four billion reports (10 million holes took 36 s).
  let holes = 0;
  for (let index = 0; index < documents.length; index++) {
    if (!(index in documents) && ++holes > MAX_HOLES)
      throwIssues([
        ...issues,
        {
          code: 'INVALID_INPUT',
          path: [],
          message: `${API}: \`documents\` is a sparse array (length ${documents.length}) with more than ${MAX_HOLES} holes, the first ${MAX_HOLES} reported above. Pass a dense array of documents.`,
        },
      ]);
    const input: unknown = documents[index];
    const doc = compileDocument(input, { api: API, path: [index], root: 'documents' }, issues);
    const id = isPlainObject(input) ? own(input, 'id') : undefined;
    if (typeof id !== 'string' || id === '') continue;
    let first: number | undefined;
    if (firstIndex === undefined) {
      const size = compiled.size;
      // An invalid document (`doc` undefined) has reported its issues: the catalog throws.
      compiled.set(id, doc!);
      if (compiled.size > size) {
        indexes.push(index);
        continue;
      }
      firstIndex = firstIndexes(compiled.keys(), indexes);
      first = firstIndex.get(id)!;
    } else {
      first = firstIndex.get(id);
      if (first === undefined) {
        firstIndex.set(id, index);
        continue;
      }
    }
    issues.push({
      code: 'DUPLICATE_DOCUMENT_ID',
      path: [index, 'id'],
      documentId: id,
      message: `${API}: documents[${index}].id: document ID \`${id}\` is already used by documents[${first}]. Document IDs are unique in a catalog: rename one, or merge them.`,
    });
  }
  throwIfIssues(issues);
  return { compiled, maxChars };
}

/** Each ID's first index: `ids` in insertion order beside `indexes`, the index each was first seen at. */
function firstIndexes(ids: Iterable<string>, indexes: readonly number[]): Map<string, number> {
  const map = new Map<string, number>();
  let k = 0;
  for (const id of ids) map.set(id, indexes[k++]!);
  return map;
}
