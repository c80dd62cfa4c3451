/**
 * A small in-memory `KnowledgeSource` for the tool and adapter tests: two pages and `index.md`, with
 * strict argument checks (unknown keys, wrong types → `INVALID_ARGUMENT`), `NOT_FOUND`, and outputs
 * that follow the types (and so the output schemas). Not a reference implementation.
 */
import { KnowledgeToolError } from '../../../src/agent/errors/index.js';
import { fakeSource, type HeardCall } from '../../helpers/fakeSource.js';
import type {
  KnowledgeCallContext,
  KnowledgeSource,
  ListTreeOutput,
  GetFileOutput,
  ReadFileOutput,
  SearchFilesOutput,
  ReadRelatedOutput,
  ExpandGraphOutput,
} from '../../../src/agent/index.js';

const REVISION = 'rev-1';

const PAGES = [
  {
    fileId: 'renewals',
    path: 'pages/renewals.md',
    title: 'Renewals',
    content: '# Renewals\n\nRenewal notices are sent 30 days ahead.',
  },
  {
    fileId: 'billing',
    path: 'pages/billing.md',
    title: 'Billing',
    content: '# Billing\n\nInvoices are monthly.',
  },
] as const;

/** Every call the fake received, for assertions on context pass-through. */
export type FakeSourceCall = HeardCall;

function check(
  input: unknown,
  allowed: readonly string[],
  required: readonly string[],
  context: KnowledgeCallContext | undefined,
): Record<string, unknown> {
  const requestId = context?.requestId;
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key))
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `Unknown argument \`${key}\`; allowed: ${allowed.join(', ')}.`,
        { requestId },
      );
  }
  for (const key of allowed) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (required.includes(key))
        throw new KnowledgeToolError('INVALID_ARGUMENT', `\`${key}\` is required.`, { requestId });
    } else if (!hasType(key, value)) {
      throw new KnowledgeToolError('INVALID_ARGUMENT', `\`${key}\` has the wrong type.`, {
        requestId,
      });
    }
  }
  return record;
}

const INTEGER_KEYS = ['limit', 'depth', 'fanout', 'graphDepth', 'graphFanout', 'maxChars'];

function hasType(key: string, value: unknown): boolean {
  if (INTEGER_KEYS.includes(key)) return Number.isInteger(value);
  if (key === 'sectionIds') return Array.isArray(value);
  if (key === 'rerank') return typeof value === 'boolean';
  return typeof value === 'string';
}

function page(fileId: unknown, requestId: string | undefined): (typeof PAGES)[number] {
  const found = PAGES.find((candidate) => candidate.fileId === fileId || candidate.path === fileId);
  if (found === undefined)
    throw new KnowledgeToolError(
      'NOT_FOUND',
      `No file \`${String(fileId)}\`. Did you mean \`renewals\`?`,
      { requestId },
    );
  return found;
}

const actions = (fileId: string, path: string) => ({
  fileContentById: `/files/${encodeURIComponent(fileId)}/content`,
  fileContentByPath: `/files/content?path=${encodeURIComponent(path)}`,
  relatedFilesById: `/files/${encodeURIComponent(fileId)}/related`,
  graphExpansionByFileId: `/graph/expand?fileId=${encodeURIComponent(fileId)}`,
});

/** A fresh fake source and the log of its calls. */
export function createFakeSource(): {
  readonly source: KnowledgeSource;
  readonly calls: FakeSourceCall[];
} {
  const { source, control } = fakeSource({
    async listTree(input = {}, context) {
      const args = check(input, ['parentPath', 'cursor', 'limit'], [], context);
      if ((args['parentPath'] ?? '') !== '')
        throw new KnowledgeToolError('NOT_FOUND', 'No such directory.', {
          requestId: context?.requestId,
        });
      const output: ListTreeOutput = {
        activeContentRevision: REVISION,
        items: [
          {
            path: 'pages',
            title: 'pages',
            entryType: 'directory',
            fileCount: 2,
            readActions: { treeByParentPath: '/tree?parentPath=pages' },
          },
          {
            fileId: 'index.md',
            sourceFileId: null,
            path: 'index.md',
            title: 'Index',
            entryType: 'file',
            fileKind: 'index',
            contentAvailable: true,
            state: 'available',
            generatedOutputStatus: 'current_available',
            readActions: {
              fileContentById: '/files/index.md/content',
              fileContentByPath: '/files/content?path=index.md',
            },
          },
        ],
        nextCursor: null,
      };
      return output;
    },
    async getFile(input, context) {
      const found = page(
        check(input, ['fileId'], ['fileId'], context)['fileId'],
        context?.requestId,
      );
      const output: GetFileOutput = {
        activeContentRevision: REVISION,
        fileId: found.fileId,
        sourceFileId: found.fileId,
        path: found.path,
        title: found.title,
        fileKind: 'page',
        description: null,
        frontmatter: { tags: ['billing'] },
        contentAvailable: true,
        state: 'available',
        generatedOutputStatus: 'current_available',
        readActions: actions(found.fileId, found.path),
        revision: 'r1',
        locale: 'en',
        sections: [{ id: 'intro', parentId: null, depth: 1, selfChars: 10, subtreeChars: 10 }],
        headings: [{ id: 'billing', text: 'Billing', depth: 1, chars: 10 }],
      };
      return output;
    },
    async readFile(input, context) {
      const args = check(input, ['fileId', 'path', 'sectionIds', 'mode', 'maxChars'], [], context);
      const hasId = args['fileId'] !== undefined && args['fileId'] !== null;
      const hasPath = args['path'] !== undefined && args['path'] !== null;
      if (hasId === hasPath)
        throw new KnowledgeToolError(
          'INVALID_ARGUMENT',
          'Give exactly one of `fileId` and `path`.',
          { requestId: context?.requestId },
        );
      const found = page(hasId ? args['fileId'] : args['path'], context?.requestId);
      const output: ReadFileOutput = {
        file: {
          activeContentRevision: REVISION,
          fileId: found.fileId,
          sourceFileId: found.fileId,
          path: found.path,
          title: found.title,
          frontmatter: {},
          readActions: actions(found.fileId, found.path),
          revision: 'r1',
          locale: null,
          selection: { mode: 'document' },
          snapshotId: `{"documentId":"${found.fileId}","revision":"r1"}`,
        },
        content: found.content,
        nextCursor: null,
      };
      return output;
    },
    async searchFiles(input, context) {
      const args = check(
        input,
        ['query', 'mode', 'graphDepth', 'graphFanout', 'rerank', 'cursor', 'limit'],
        ['query'],
        context,
      );
      const hits = PAGES.filter((candidate) =>
        candidate.content.toLowerCase().includes(String(args['query']).toLowerCase()),
      );
      const output: SearchFilesOutput = {
        activeContentRevision: REVISION,
        items: hits.map((hit) => ({
          fileId: hit.fileId,
          sourceFileId: hit.fileId,
          path: hit.path,
          title: hit.title,
          description: null,
          score: 1,
          matchedFields: ['content'],
          evidenceTypes: ['content'],
          sourceExcerpt: hit.content.slice(0, 40),
          contentAvailable: true,
          readActions: actions(hit.fileId, hit.path),
          sectionIds: [],
          heading: null,
        })),
        searchStatus: hits.length === 0 ? 'no_candidates' : 'ok',
        searchMode: 'hybrid',
        semanticStatus: { state: 'disabled', safeCode: 'SEMANTIC_DISABLED' },
        rerankerStatus: { state: 'skipped', safeCode: 'RERANKER_DISABLED' },
        message: hits.length === 0 ? 'No candidates.' : null,
        nextActions:
          hits.length === 0
            ? [
                { tool: 'read_file', input: { path: 'index.md' }, reason: 'Browse the index.' },
                { tool: 'list_tree', input: { parentPath: '' }, reason: 'List files.' },
              ]
            : [],
        nextCursor: null,
      };
      return output;
    },
    async readRelated(input, context) {
      const found = page(
        check(input, ['fileId', 'cursor', 'limit'], ['fileId'], context)['fileId'],
        context?.requestId,
      );
      const other = PAGES.find((candidate) => candidate !== found)!;
      const output: ReadRelatedOutput = {
        fileId: found.fileId,
        items: [
          {
            fileId: other.fileId,
            path: other.path,
            title: other.title,
            relationType: 'links_to',
            direction: 'outgoing',
            weight: 1,
            reason: `Links to \`${other.path}\` once.`,
            contentAvailable: true,
            sectionId: null,
          },
        ],
        nextCursor: null,
      };
      return output;
    },
    async expandGraph(input, context) {
      const found = page(
        check(input, ['fileId', 'depth', 'fanout', 'cursor'], ['fileId'], context)['fileId'],
        context?.requestId,
      );
      const other = PAGES.find((candidate) => candidate !== found)!;
      const output: ExpandGraphOutput = {
        activeContentRevision: REVISION,
        seedFile: { fileId: found.fileId, path: found.path },
        relationships: [
          {
            fileId: other.fileId,
            path: other.path,
            title: other.title,
            relationType: 'linked_from',
            direction: 'incoming',
            weight: 1,
            readActions: actions(other.fileId, other.path),
            depth: 1,
            viaFileId: found.fileId,
          },
        ],
        graphPaths: [`_graph/by-file/${encodeURIComponent(found.fileId)}.json`],
        nextCursor: null,
      };
      return output;
    },
  });
  return { source, calls: control.log };
}

/** A source whose every method throws a plain `Error` carrying a stack-like, path-leaking message. */
export function createBrokenSource(): KnowledgeSource {
  return fakeSource(
    {},
    {
      otherwise: async () => {
        throw new Error(
          'ENOENT: /srv/secret/catalog.json at Object.<anonymous> (/srv/app/index.js:1:1)',
        );
      },
    },
  ).source;
}
