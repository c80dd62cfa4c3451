/** Every error code a catalog source can reject with, with its code, status and the place it names. */
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, isKnowledgeError } from '../../src/index.js';
import {
  KNOWLEDGE_TOOL_ERROR_CODES,
  KNOWLEDGE_TOOL_ERROR_STATUS,
  KnowledgeToolError,
} from '../../src/agent/errors/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createBm25fEngine } from '../../src/agent/search/createBm25fEngine.js';
import {
  exampleCatalog,
  exampleDocuments,
  exampleFiles,
  exampleSourceOptions,
} from '../helpers/exampleKnowledge.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';

const catalog = exampleCatalog();
const source = createCatalogSource(catalog, exampleSourceOptions());

describe('KnowledgeToolError', () => {
  it('carries the status of each code and the seed shape', () => {
    for (const code of KNOWLEDGE_TOOL_ERROR_CODES) {
      const error = new KnowledgeToolError(code, 'm', {
        requestId: 'req-1',
        ...(code === 'RATE_LIMITED' ? { retryAfterSeconds: 3 } : {}),
      });
      expect(error.httpStatus).toBe(KNOWLEDGE_TOOL_ERROR_STATUS[code]);
      expect(error.toJSON()).toEqual({
        error: {
          code,
          message: 'm',
          httpStatus: KNOWLEDGE_TOOL_ERROR_STATUS[code],
          ...(code === 'RATE_LIMITED' ? { retryAfterSeconds: 3 } : {}),
        },
        requestId: 'req-1',
      });
    }
    expect(new KnowledgeToolError('INTERNAL', 'x').requestId).toMatch(/^req-[0-9a-f-]{36}$/);
  });
});

describe('source errors', () => {
  it('INVALID_ARGUMENT names the field and the allowed values', async () => {
    await expectKnowledgeError(source.listTree({ limit: 0 }), {
      code: 'INVALID_ARGUMENT',
      message: /`limit` must be an integer from 1 to 200/,
    });
    await expectKnowledgeError(source.listTree({ parent: '' } as never), {
      code: 'INVALID_ARGUMENT',
      message: /no argument `parent`/,
    });
    await expectKnowledgeError(source.listTree({ parentPath: '/pages' }), {
      code: 'INVALID_ARGUMENT',
      message: /no leading or trailing/,
    });
    await expectKnowledgeError(source.listTree({ parentPath: 'index.md' }), {
      code: 'INVALID_ARGUMENT',
      message: /is a file/,
    });
    await expectKnowledgeError(source.getFile({} as never), {
      code: 'INVALID_ARGUMENT',
      message: /needs `fileId`/,
    });
    await expectKnowledgeError(source.readFile({}), {
      code: 'INVALID_ARGUMENT',
      message: /exactly one of `fileId` and `path`/,
    });
    await expectKnowledgeError(
      source.readFile({ fileId: 'agent-tools', path: 'pages/agents/agent-tools.md' }),
      { code: 'INVALID_ARGUMENT', message: /exactly one/ },
    );
    await expectKnowledgeError(source.readFile({ path: 'pages' }), {
      code: 'INVALID_ARGUMENT',
      message: /is a directory/,
    });
    await expectKnowledgeError(source.readFile({ path: 'index.md', sectionIds: ['a'] }), {
      code: 'INVALID_ARGUMENT',
      message: /navigation file/,
    });
    await expectKnowledgeError(source.readFile({ fileId: 'agent-tools', mode: 'self' }), {
      code: 'INVALID_ARGUMENT',
      message: /`mode` applies only with `sectionIds`/,
    });
    await expectKnowledgeError(
      source.readFile({ fileId: 'agent-tools', sectionIds: ['search', 'search'] }),
      { code: 'INVALID_ARGUMENT', message: /twice/ },
    );
    await expectKnowledgeError(source.searchFiles({ query: '   ' }), {
      code: 'INVALID_ARGUMENT',
      message: /1 to 2000 characters/,
    });
    await expectKnowledgeError(source.searchFiles({ query: '字'.repeat(2001) }), {
      code: 'INVALID_ARGUMENT',
      message: /not 2001/,
    });
    await expectKnowledgeError(source.searchFiles({ query: 'x', mode: 'fuzzy' as never }), {
      code: 'INVALID_ARGUMENT',
      message: /one of "hybrid", "file", "graph"/,
    });
    await expectKnowledgeError(source.readRelated({ fileId: 'index.md' }), {
      code: 'INVALID_ARGUMENT',
      message: /navigation file/,
    });
    await expectKnowledgeError(source.expandGraph({ fileId: 'agent-tools', depth: 4 }), {
      code: 'INVALID_ARGUMENT',
      message: /`depth` must be an integer from 1 to 3/,
    });
    await expectKnowledgeError(source.listTree([] as never), {
      code: 'INVALID_ARGUMENT',
      message: /JSON object/,
    });
  });

  it('NOT_FOUND offers the closest IDs and paths', async () => {
    await expectKnowledgeError(source.getFile({ fileId: 'agent-tool' }), {
      code: 'NOT_FOUND',
      message: /`agent-tools`/,
    });
    await expectKnowledgeError(source.readFile({ path: 'pages/agents/agent-tool.md' }), {
      code: 'NOT_FOUND',
      message: /`pages\/agents\/agent-tools.md`/,
    });
    await expectKnowledgeError(source.listTree({ parentPath: 'pagez' }), {
      code: 'NOT_FOUND',
      message: /no directory `pagez`/,
    });
    const error = await expectKnowledgeError(
      source.readFile({ fileId: 'agent-tools', sectionIds: ['serch'] }),
      { code: 'NOT_FOUND', message: /get_file/ },
    );
    expect(JSON.stringify(error.details)).toContain('UNKNOWN_SECTION');
  });

  it('INVALID_CURSOR and STALE_CURSOR', async () => {
    const first = await source.listTree({ parentPath: 'pages', limit: 1 });
    const cursor = first.nextCursor!;
    await expectKnowledgeError(source.listTree({ parentPath: 'pages', limit: 2, cursor }), {
      code: 'INVALID_CURSOR',
      message: /other parameters/,
    });
    await expectKnowledgeError(source.readRelated({ fileId: 'agent-tools', cursor }), {
      code: 'INVALID_CURSOR',
      message: /issued by `list_tree`/,
    });
    await expectKnowledgeError(
      source.listTree({ parentPath: 'pages', limit: 1, cursor }, { knowledgeBaseId: 'other' }),
      { code: 'INVALID_CURSOR', message: /another knowledge base/ },
    );
    await expectKnowledgeError(
      source.listTree({ parentPath: 'pages', limit: 1, cursor: 'not a cursor' }),
      { code: 'INVALID_CURSOR', message: /without `cursor`/ },
    );
    const changed = createCatalogSource(catalog, exampleSourceOptions({ revision: 43 }));
    await expectKnowledgeError(changed.listTree({ parentPath: 'pages', limit: 1, cursor }), {
      code: 'STALE_CURSOR',
      message: /changed/,
    });
  });

  it('CONTENT_TOO_LARGE (whole: true) lists the top-level sections with their sizes, from our limit and from the catalog default', async () => {
    const error = await expectKnowledgeError(
      source.readFile({ fileId: 'agent-tools', maxChars: 100, whole: true }),
      { code: 'CONTENT_TOO_LARGE', message: /`overview` \d+, `search` \d+, `cursors` \d+/ },
    );
    expect(error.httpStatus).toBe(413);
    const small = createCatalogSource(
      defineKnowledgeCatalog(exampleDocuments(), { maxChars: 50 }),
      exampleSourceOptions(),
    );
    await expectKnowledgeError(small.readFile({ fileId: 'agent-tools', whole: true }), {
      code: 'CONTENT_TOO_LARGE',
      message: /over the limit of 50/,
    });
    const tight = createCatalogSource(catalog, exampleSourceOptions({ maxReadChars: 10 }));
    await expectKnowledgeError(tight.readFile({ path: 'index.md', whole: true }), {
      code: 'CONTENT_TOO_LARGE',
      message: /list_tree/,
    });
  });

  it('TIMEOUT for an aborted call, INTERNAL without internals for an unexpected failure', async () => {
    await expectKnowledgeError(
      source.getFile({ fileId: 'agent-tools' }, { signal: AbortSignal.abort() }),
      { code: 'TIMEOUT', message: /aborted/ },
    );
    let fail = false;
    const flaky = {
      ids: catalog.ids,
      sectionIds: (id: string) => catalog.sectionIds(id),
      document: (id: string) => catalog.document(id),
      assertSelection: (request: unknown) => catalog.assertSelection(request),
      read: (request: Parameters<typeof catalog.read>[0]) => {
        if (fail) throw new Error('secret /etc/path');
        return catalog.read(request);
      },
    };
    const broken = createCatalogSource(flaky, exampleSourceOptions());
    fail = true;
    const error = await expectKnowledgeError(
      broken.readFile({ fileId: 'agent-tools' }, { requestId: 'req-x' }),
      { code: 'INTERNAL' },
    );
    expect(error.message).not.toContain('secret');
    expect(error.requestId).toBe('req-x');
  });

  it('createCatalogSource refuses bad options with KnowledgeError INVALID_INPUT naming each', () => {
    let caught: unknown;
    try {
      createCatalogSource(catalog, { maxReadChars: 0, colour: 'red' } as never);
    } catch (error) {
      caught = error;
    }
    expect(isKnowledgeError(caught)).toBe(true);
    if (!isKnowledgeError(caught)) return;
    expect(caught.issues.map((i) => [i.code, i.path])).toEqual([
      ['INVALID_INPUT', ['options', 'maxReadChars']],
      ['INVALID_INPUT', ['options', 'colour']],
    ]);
    expect(() => createCatalogSource({} as never)).toThrow(/defineKnowledgeCatalog/);
  });

  it('a requestId from the context is kept on every error', async () => {
    const error = await expectKnowledgeError(
      source.getFile({ fileId: 'nope' }, { requestId: 'req-abc' }),
      { code: 'NOT_FOUND' },
    );
    expect(error.requestId).toBe('req-abc');
  });
});

describe('cursors and request IDs across the source', () => {
  it('a cursor past the end is INVALID_CURSOR; a gone directory after a change is STALE_CURSOR', async () => {
    // A replica sharing the key and revision, but with fewer pages there: the signed cursor points past its end.
    const key = 'a shared replica key, 32 bytes.';
    const keyed = createCatalogSource(catalog, exampleSourceOptions({ cursorKey: key }));
    const first = await keyed.listTree({ parentPath: 'pages/agents', limit: 1 });
    const shorter = createCatalogSource(
      defineKnowledgeCatalog(exampleDocuments().filter((d) => d.id !== 'exploration')),
      exampleSourceOptions({
        cursorKey: key,
        files: Object.fromEntries(
          Object.entries(exampleFiles()).filter(([id]) => id !== 'exploration'),
        ),
      }),
    );
    await expectKnowledgeError(shorter.listTree({ cursor: first.nextCursor }), {
      code: 'INVALID_CURSOR',
      message: /past the end/,
    });
    const without = createCatalogSource(
      defineKnowledgeCatalog(
        exampleDocuments().filter((d) => d.id !== 'agent-tools' && d.id !== 'exploration'),
      ),
      exampleSourceOptions({
        cursorKey: key,
        revision: 99,
        files: Object.fromEntries(
          Object.entries(exampleFiles()).filter(
            ([id]) => id !== 'agent-tools' && id !== 'exploration',
          ),
        ),
      }),
    );
    await expectKnowledgeError(
      without.listTree({ parentPath: 'pages/agents', limit: 1, cursor: first.nextCursor }),
      { code: 'STALE_CURSOR' },
    );
  });

  it('search paging refuses a cursor when the optional stages ran differently (STALE_CURSOR), never repeating or skipping', async () => {
    let calls = 0;
    const flaky = createCatalogSource(
      catalog,
      exampleSourceOptions({
        search: createBm25fEngine({
          embedder: {
            embed: async (texts: string[]) => {
              calls++;
              // The chunk vectors (first call) and the first query succeed; the second query fails.
              if (calls > 2) throw new Error('embedder down');
              return texts.map((t) => [t.length % 7, 1, t.includes('cursor') ? 1 : 0]);
            },
          },
        }),
      }),
    );
    const first = await flaky.searchFiles({ query: 'cursor revision search', limit: 1 });
    expect(first.semanticStatus.state).toBe('ready');
    expect(first.nextCursor).toEqual(expect.any(String));
    await expectKnowledgeError(
      flaky.searchFiles({ query: 'cursor revision search', limit: 1, cursor: first.nextCursor }),
      { code: 'STALE_CURSOR', message: /ranking changed/ },
    );
  });

  it("errors made below the source carry the caller's requestId", async () => {
    const slow = createCatalogSource(
      catalog,
      exampleSourceOptions({
        search: createBm25fEngine({
          searchTimeoutMs: 20,
          embedder: { embed: () => new Promise<number[][]>(() => undefined) },
        }),
      }),
    );
    const error = await expectKnowledgeError(
      slow.searchFiles({ query: 'cursor' }, { requestId: 'req-mine' }),
      { code: 'SEARCH_TIMEOUT' },
    );
    expect(error.requestId).toBe('req-mine');
  });
});
