/**
 * A fake `KnowledgeSource` over a few fixed pages, for the exploration tests: the six methods in the
 * spec's shapes, on the test kit's `fakeSource` (which counts calls, and can be told to fail or wait).
 */
import { KnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import { fakeSource, type FakeSource } from './fakeSource.js';
import type {
  KnowledgeSource,
  ReadFileInput,
  ReadFileOutput,
  SearchFilesInput,
  SearchFilesOutput,
  SearchItem,
} from '../../src/agent/index.js';

/** A page of the fake knowledge base. */
export interface FakePage {
  readonly fileId: string;
  readonly title: string;
  readonly text: string;
  readonly sections: Readonly<Record<string, string>>;
}

export const FAKE_PAGES: readonly FakePage[] = [
  {
    fileId: 'refunds',
    title: 'Refunds',
    text: 'Refunds are paid within 14 days.',
    sections: { window: 'Refund window: 14 days.', card: 'Card refunds go back to the card.' },
  },
  {
    fileId: 'billing',
    title: 'Billing',
    text: 'Invoices are sent monthly. See refunds.',
    sections: { invoices: 'Invoices every month.' },
  },
  {
    fileId: 'renewal',
    title: 'Renewal',
    text: 'Plans renew yearly; refunds after renewal are prorated.',
    sections: {},
  },
  { fileId: 'shipping', title: 'Shipping', text: 'Parcels ship in two days.', sections: {} },
  {
    fileId: 'returns',
    title: 'Returns',
    text: 'Return items within 30 days for refunds.',
    sections: {},
  },
];

const pathOf = (id: string): string => `pages/${id}.md`;
const NAV = ['index.md', ...FAKE_PAGES.map((p) => `_graph/by-file/${p.fileId}.json`)];

export type { FakeSourceControl } from './fakeSource.js';

const bad = (message: string): KnowledgeToolError =>
  new KnowledgeToolError('INVALID_ARGUMENT', message);

/**
 * The fake's argument checks, a rough copy of the real ones: an object with known keys, a string
 * `fileId` where one is needed, and well-typed optional fields (`null` is absent).
 */
function check(
  input: unknown,
  keys: readonly string[],
  needsFileId = false,
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw bad('not an object');
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!keys.includes(key)) throw bad(`unknown ${key}`);
  const has = (key: string): boolean => record[key] !== undefined && record[key] !== null;
  if (needsFileId && typeof record['fileId'] !== 'string') throw bad('fileId');
  for (const key of ['limit', 'depth', 'fanout', 'graphDepth', 'graphFanout']) {
    if (
      has(key) &&
      (!Number.isInteger(record[key]) ||
        (record[key] as number) < 1 ||
        (record[key] as number) > 50)
    )
      throw bad(key);
  }
  if (
    has('maxChars') &&
    (!Number.isSafeInteger(record['maxChars']) || (record['maxChars'] as number) < 0)
  )
    throw bad('maxChars');
  for (const key of ['query', 'path', 'parentPath', 'cursor'])
    if (has(key) && typeof record[key] !== 'string') throw bad(key);
  if (has('query') && (record['query'] as string).trim() === '') throw bad('query');
  if (has('cursor') && !/^c:\d+$/.test(record['cursor'] as string))
    throw new KnowledgeToolError('INVALID_CURSOR', 'cursor');
  if (has('rerank') && typeof record['rerank'] !== 'boolean') throw bad('rerank');
  if (
    has('mode') &&
    !['hybrid', 'file', 'graph', 'self', 'subtree'].includes(record['mode'] as string)
  )
    throw bad('mode');
  if (
    has('sectionIds') &&
    (!Array.isArray(record['sectionIds']) ||
      record['sectionIds'].length === 0 ||
      !(record['sectionIds'] as unknown[]).every((id) => typeof id === 'string' && id !== ''))
  )
    throw bad('sectionIds');
  return record;
}

const SEARCH_KEYS = ['query', 'mode', 'graphDepth', 'graphFanout', 'rerank', 'cursor', 'limit'];
const READ_KEYS = ['fileId', 'path', 'sectionIds', 'heading', 'mode', 'maxChars'];

const stage = { state: 'disabled', safeCode: 'SEMANTIC_DISABLED' } as const;

/** The fake pages as a source, and its control (call counts, recorded searches, failures, delays). */
export function pagesSource(): FakeSource {
  const item = (page: FakePage, score: number): SearchItem => ({
    fileId: page.fileId,
    sourceFileId: page.fileId,
    path: pathOf(page.fileId),
    title: page.title,
    description: null,
    score,
    matchedFields: ['content'],
    evidenceTypes: ['content'],
    sourceExcerpt: page.text,
    contentAvailable: true,
    readActions: {},
    sectionIds: [],
    heading: null,
  });
  return fakeSource({
    async searchFiles(input: SearchFilesInput): Promise<SearchFilesOutput> {
      check(input, SEARCH_KEYS);
      if (typeof input.query !== 'string') throw bad('query');
      if (input.mode != null && !['hybrid', 'file', 'graph'].includes(input.mode))
        throw bad('mode');
      const words = input.query
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w.length > 2);
      const hits = FAKE_PAGES.filter((p) =>
        words.some((w) => `${p.title} ${p.text}`.toLowerCase().includes(w)),
      );
      const limit = input.limit ?? 10;
      const start = typeof input.cursor === 'string' ? Number(input.cursor.slice(2)) : 0;
      const items = hits.slice(start, start + limit).map((p, i) => item(p, 1 / (start + i + 1)));
      const next = start + limit < hits.length ? `c:${start + limit}` : null;
      return {
        activeContentRevision: 'rev-1',
        items,
        searchStatus: items.length === 0 ? 'no_candidates' : 'ok',
        searchMode: input.mode ?? 'hybrid',
        semanticStatus: stage,
        rerankerStatus: { state: 'skipped', safeCode: 'RERANKER_DISABLED' },
        message: items.length === 0 ? 'No candidates.' : null,
        nextActions: [],
        nextCursor: next,
      };
    },
    async readFile(input: ReadFileInput): Promise<ReadFileOutput> {
      check(input, READ_KEYS);
      if ((typeof input.fileId === 'string') === (typeof input.path === 'string'))
        throw bad('exactly one of fileId and path');
      if (input.mode != null && !['self', 'subtree'].includes(input.mode)) throw bad('mode');
      if (input.mode != null && input.sectionIds == null)
        throw bad('mode applies only with sectionIds');
      const page = FAKE_PAGES.find(
        (p) => p.fileId === input.fileId || pathOf(p.fileId) === input.path,
      );
      const nav = NAV.find((path) => path === input.fileId || path === input.path);
      const base = {
        activeContentRevision: 'rev-1',
        sourceFileId: null,
        frontmatter: {},
        readActions: {},
        revision: 'rev-1',
        locale: null,
      };
      if (nav !== undefined) {
        return {
          file: {
            ...base,
            fileId: nav,
            path: nav,
            title: nav === 'index.md' ? 'Index' : 'Relationships',
            selection: null,
            snapshotId: null,
          },
          content: `nav ${nav}`,
          nextCursor: null,
        };
      }
      if (page === undefined) throw new KnowledgeToolError('NOT_FOUND', 'No such file.');
      const ids = input.sectionIds ?? null;
      const mode = input.mode ?? 'subtree';
      const content =
        ids === null ? page.text : ids.map((id) => page.sections[id] ?? '').join('\n\n');
      const selection =
        ids === null ? ({ mode: 'document' } as const) : { mode, sectionIds: [...ids] };
      const snapshotId = `snap-${page.fileId}-${ids === null ? 'doc' : `${mode}-${ids.join('+')}`}`;
      if (typeof input.maxChars === 'number' && [...content].length > input.maxChars)
        throw new KnowledgeToolError('CONTENT_TOO_LARGE', 'Too large.');
      return {
        file: {
          ...base,
          sourceFileId: page.fileId,
          fileId: page.fileId,
          path: pathOf(page.fileId),
          title: page.title,
          revision: 'r1',
          selection,
          snapshotId,
        },
        content,
        nextCursor: null,
      };
    },
    async listTree(input) {
      check(input ?? {}, ['parentPath', 'cursor', 'limit']);
      return { activeContentRevision: 'rev-1', items: [], nextCursor: null };
    },
    async getFile(input) {
      check(input, ['fileId'], true);
      const page = FAKE_PAGES.find((p) => p.fileId === input.fileId);
      if (page === undefined) throw new KnowledgeToolError('NOT_FOUND', 'No such file.');
      return {
        activeContentRevision: 'rev-1',
        fileId: page.fileId,
        sourceFileId: page.fileId,
        path: pathOf(page.fileId),
        title: page.title,
        fileKind: 'page',
        description: null,
        frontmatter: {},
        contentAvailable: true,
        state: 'available',
        generatedOutputStatus: 'current_available',
        readActions: {},
        revision: 'r1',
        locale: null,
        sections: [],
        headings: [],
      };
    },
    async readRelated(input) {
      check(input, ['fileId', 'cursor', 'limit'], true);
      return { fileId: input.fileId, items: [], nextCursor: null };
    },
    async expandGraph(input) {
      check(input, ['fileId', 'depth', 'fanout', 'cursor'], true);
      if (!FAKE_PAGES.some((p) => p.fileId === input.fileId))
        throw new KnowledgeToolError('NOT_FOUND', 'No such page.');
      return {
        activeContentRevision: 'rev-1',
        seedFile: { fileId: input.fileId!, path: pathOf(input.fileId!) },
        relationships: [],
        graphPaths: [],
        nextCursor: null,
      };
    },
  });
}

/** Any source with the fake's control: call counts, recorded searches, injected failures, delays. */
export function instrumentSource(inner: KnowledgeSource): FakeSource {
  return fakeSource({}, { base: inner });
}
