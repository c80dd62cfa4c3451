/** Every error code a catalog source can reject with, with its code, status and the place it names. */
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, isKnowledgeError } from '../../src/index.js';
import {
  KNOWLEDGE_TOOL_ERROR_CODES,
  KNOWLEDGE_TOOL_ERROR_STATUS,
  KnowledgeToolError,
} from '../../src/agent/errors/index.js';
import { createCatalogSource } from '../../src/agent/source/index.js';
import {
  exampleCatalog,
  exampleDocuments,
  exampleFiles,
  exampleSourceOptions,
} from './helpers/exampleKnowledge.js';
import { expectToolError } from './helpers/toolError.js';

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
    await expectToolError(
      source.listTree({ limit: 0 }),
      'INVALID_ARGUMENT',
      /`limit` must be an integer from 1 to 200/,
    );
    await expectToolError(
      source.listTree({ parent: '' } as never),
      'INVALID_ARGUMENT',
      /no argument `parent`/,
    );
    await expectToolError(
      source.listTree({ parentPath: '/pages' }),
      'INVALID_ARGUMENT',
      /no leading or trailing/,
    );
    await expectToolError(
      source.listTree({ parentPath: 'index.md' }),
      'INVALID_ARGUMENT',
      /is a file/,
    );
    await expectToolError(source.getFile({} as never), 'INVALID_ARGUMENT', /needs `fileId`/);
    await expectToolError(
      source.readFile({}),
      'INVALID_ARGUMENT',
      /exactly one of `fileId` and `path`/,
    );
    await expectToolError(
      source.readFile({ fileId: 'agent-tools', path: 'pages/agents/agent-tools.md' }),
      'INVALID_ARGUMENT',
      /exactly one/,
    );
    await expectToolError(source.readFile({ path: 'pages' }), 'INVALID_ARGUMENT', /is a directory/);
    await expectToolError(
      source.readFile({ path: 'index.md', sectionIds: ['a'] }),
      'INVALID_ARGUMENT',
      /navigation file/,
    );
    await expectToolError(
      source.readFile({ fileId: 'agent-tools', mode: 'self' }),
      'INVALID_ARGUMENT',
      /`mode` applies only with `sectionIds`/,
    );
    await expectToolError(
      source.readFile({ fileId: 'agent-tools', sectionIds: ['search', 'search'] }),
      'INVALID_ARGUMENT',
      /twice/,
    );
    await expectToolError(
      source.searchFiles({ query: '   ' }),
      'INVALID_ARGUMENT',
      /1 to 2000 characters/,
    );
    await expectToolError(
      source.searchFiles({ query: '字'.repeat(2001) }),
      'INVALID_ARGUMENT',
      /not 2001/,
    );
    await expectToolError(
      source.searchFiles({ query: 'x', mode: 'fuzzy' as never }),
      'INVALID_ARGUMENT',
      /one of "hybrid", "file", "graph"/,
    );
    await expectToolError(
      source.readRelated({ fileId: 'index.md' }),
      'INVALID_ARGUMENT',
      /navigation file/,
    );
    await expectToolError(
      source.expandGraph({ fileId: 'agent-tools', depth: 4 }),
      'INVALID_ARGUMENT',
      /`depth` must be an integer from 1 to 3/,
    );
    await expectToolError(source.listTree([] as never), 'INVALID_ARGUMENT', /JSON object/);
  });

  it('NOT_FOUND offers the closest IDs and paths', async () => {
    await expectToolError(source.getFile({ fileId: 'agent-tool' }), 'NOT_FOUND', /`agent-tools`/);
    await expectToolError(
      source.readFile({ path: 'pages/agents/agent-tool.md' }),
      'NOT_FOUND',
      /`pages\/agents\/agent-tools.md`/,
    );
    await expectToolError(
      source.listTree({ parentPath: 'pagez' }),
      'NOT_FOUND',
      /no directory `pagez`/,
    );
    const error = await expectToolError(
      source.readFile({ fileId: 'agent-tools', sectionIds: ['serch'] }),
      'NOT_FOUND',
      /get_file/,
    );
    expect(JSON.stringify(error.details)).toContain('UNKNOWN_SECTION');
  });

  it('INVALID_CURSOR and STALE_CURSOR', async () => {
    const first = await source.listTree({ parentPath: 'pages', limit: 1 });
    const cursor = first.nextCursor!;
    await expectToolError(
      source.listTree({ parentPath: 'pages', limit: 2, cursor }),
      'INVALID_CURSOR',
      /other parameters/,
    );
    await expectToolError(
      source.readRelated({ fileId: 'agent-tools', cursor }),
      'INVALID_CURSOR',
      /issued by `list_tree`/,
    );
    await expectToolError(
      source.listTree({ parentPath: 'pages', limit: 1, cursor }, { knowledgeBaseId: 'other' }),
      'INVALID_CURSOR',
      /another knowledge base/,
    );
    await expectToolError(
      source.listTree({ parentPath: 'pages', limit: 1, cursor: 'not a cursor' }),
      'INVALID_CURSOR',
      /without `cursor`/,
    );
    const changed = createCatalogSource(catalog, exampleSourceOptions({ revision: 43 }));
    await expectToolError(
      changed.listTree({ parentPath: 'pages', limit: 1, cursor }),
      'STALE_CURSOR',
      /changed/,
    );
  });

  it('CONTENT_TOO_LARGE lists the top-level sections with their sizes, from our limit and from the catalog default', async () => {
    const error = await expectToolError(
      source.readFile({ fileId: 'agent-tools', maxChars: 100 }),
      'CONTENT_TOO_LARGE',
      /`overview` \d+, `search` \d+, `cursors` \d+/,
    );
    expect(error.httpStatus).toBe(413);
    const small = createCatalogSource(
      defineKnowledgeCatalog(exampleDocuments(), { maxChars: 50 }),
      exampleSourceOptions(),
    );
    await expectToolError(
      small.readFile({ fileId: 'agent-tools' }),
      'CONTENT_TOO_LARGE',
      /over the limit of 50/,
    );
    const tight = createCatalogSource(catalog, exampleSourceOptions({ maxReadChars: 10 }));
    await expectToolError(tight.readFile({ path: 'index.md' }), 'CONTENT_TOO_LARGE', /list_tree/);
  });

  it('TIMEOUT for an aborted call, INTERNAL without internals for an unexpected failure', async () => {
    await expectToolError(
      source.getFile({ fileId: 'agent-tools' }, { signal: AbortSignal.abort() }),
      'TIMEOUT',
      /aborted/,
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
    const error = await expectToolError(
      broken.readFile({ fileId: 'agent-tools' }, { requestId: 'req-x' }),
      'INTERNAL',
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
    const error = await expectToolError(
      source.getFile({ fileId: 'nope' }, { requestId: 'req-abc' }),
      'NOT_FOUND',
    );
    expect(error.requestId).toBe('req-abc');
  });
});

describe('cursors and request IDs across the source', () => {
  it('a cursor past the end is INVALID_CURSOR; a gone directory after a change is STALE_CURSOR', async () => {
    const first = await source.listTree({ parentPath: 'pages/agents', limit: 1 });
    const [v, kb, rev, tool, params] = JSON.parse(
      Buffer.from(first.nextCursor!, 'base64url').toString('utf8'),
    ) as unknown[];
    const forged = Buffer.from(JSON.stringify([v, kb, rev, tool, params, 99, ''])).toString(
      'base64url',
    );
    await expectToolError(
      source.listTree({ parentPath: 'pages/agents', limit: 1, cursor: forged }),
      'INVALID_CURSOR',
      /past the end/,
    );
    const without = createCatalogSource(
      defineKnowledgeCatalog(
        exampleDocuments().filter((d) => d.id !== 'agent-tools' && d.id !== 'exploration'),
      ),
      exampleSourceOptions({
        revision: 99,
        files: Object.fromEntries(
          Object.entries(exampleFiles()).filter(
            ([id]) => id !== 'agent-tools' && id !== 'exploration',
          ),
        ),
      }),
    );
    await expectToolError(
      without.listTree({ parentPath: 'pages/agents', limit: 1, cursor: first.nextCursor }),
      'STALE_CURSOR',
    );
  });

  it('search paging refuses a cursor when the optional stages ran differently (STALE_CURSOR), never repeating or skipping', async () => {
    let calls = 0;
    const flaky = createCatalogSource(
      catalog,
      exampleSourceOptions({
        embedder: {
          embed: async (texts: string[]) => {
            calls++;
            // The chunk vectors (first call) and the first query succeed; the second query fails.
            if (calls > 2) throw new Error('embedder down');
            return texts.map((t) => [t.length % 7, 1, t.includes('cursor') ? 1 : 0]);
          },
        },
      }),
    );
    const first = await flaky.searchFiles({ query: 'cursor revision search', limit: 1 });
    expect(first.semanticStatus.state).toBe('ready');
    expect(first.nextCursor).toEqual(expect.any(String));
    await expectToolError(
      flaky.searchFiles({ query: 'cursor revision search', limit: 1, cursor: first.nextCursor }),
      'STALE_CURSOR',
      /ranking changed/,
    );
  });

  it("errors made below the source carry the caller's requestId", async () => {
    const slow = createCatalogSource(
      catalog,
      exampleSourceOptions({
        searchTimeoutMs: 20,
        embedder: { embed: () => new Promise<number[][]>(() => undefined) },
      }),
    );
    const error = await expectToolError(
      slow.searchFiles({ query: 'cursor' }, { requestId: 'req-mine' }),
      'SEARCH_TIMEOUT',
    );
    expect(error.requestId).toBe('req-mine');
  });
});
