/**
 * The search port from the source's side: `createCatalogSource(catalog, { search })`, engine options
 * refused at the top level with what replaces them, the option errors, and what the source does with an engine's
 * answer (checks, errors, cursors wrapping the continuation).
 */
import { describe, expect, it } from 'vitest';
import {
  createCatalogSource,
  createBm25fEngine,
  KnowledgeToolError,
  type SearchAnswer,
  type SearchCorpus,
  type SearchEngine,
  type SearchHit,
  type SearchRequest,
} from '../../src/agent/index.js';
import { catchKnowledgeError, expectKnowledgeError } from '../helpers/knowledgeError.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';

const catalog = exampleCatalog();

const hit = (fileId: string, score = 1): SearchHit => ({
  fileId,
  score,
  matchedFields: ['content'],
  evidenceTypes: ['content'],
  sourceExcerpt: 'words',
  sectionIds: [],
});

const STATUSES = {
  semanticStatus: { state: 'disabled', safeCode: 'SEMANTIC_DISABLED' },
  rerankerStatus: { state: 'skipped', safeCode: 'RERANKER_DISABLED' },
} as const;

/** A source over the example knowledge whose engine answers `answer(request)`; records requests. */
function sourceWith(answer: (request: SearchRequest, corpus: SearchCorpus) => SearchAnswer) {
  const requests: SearchRequest[] = [];
  let given: SearchCorpus | undefined;
  let calls = 0;
  const source = createCatalogSource(
    catalog,
    exampleSourceOptions({
      search: (corpus) => {
        calls++;
        given = corpus;
        return {
          search: async (request) => {
            requests.push(request);
            return answer(request, corpus);
          },
        } satisfies SearchEngine;
      },
    }),
  );
  return { source, requests, corpus: () => given!, calls: () => calls };
}

describe('createCatalogSource({ search })', () => {
  it('calls the factory once, at creation, with the corpus of its pages', async () => {
    const { source, corpus, calls, requests } = sourceWith((_r, c) => ({
      hits: [hit(c.pages[0]!.fileId)],
      continuation: null,
      ...STATUSES,
    }));
    expect(calls()).toBe(1);
    const tree = await source.listTree({ parentPath: 'pages', limit: 50 });
    expect(corpus().pages.length).toBeGreaterThan(3);
    for (const page of corpus().pages) expect(page.path.startsWith('pages/')).toBe(true);
    expect(tree.activeContentRevision).toBe(corpus().revision);
    // Chunks are the sections' own texts, as a `self` read returns them.
    const first = corpus().pages[0]!;
    const chunks = corpus().chunksOf(first.fileId);
    for (const chunk of chunks.filter((c) => c.sectionId !== null))
      expect(
        catalog.read({
          documentId: first.fileId,
          selection: { mode: 'self', sectionIds: [chunk.sectionId!] },
        }).content,
      ).toBe(chunk.text.trim());
    expect(chunks.filter((c) => c.sectionId !== null).length).toBeGreaterThan(0);
    const found = await source.searchFiles({ query: 'anything', mode: 'graph', limit: 7 });
    expect(found.items[0]).toMatchObject({ fileId: first.fileId, path: first.path });
    expect(calls()).toBe(1);
    expect(requests[0]).toEqual({
      query: 'anything',
      mode: 'graph',
      graphDepth: 1,
      graphFanout: 10,
      rerank: false,
      limit: 7,
      continuation: undefined,
      signal: undefined,
    });
    await expect(source.warm!()).resolves.toBeUndefined();
  });

  it('wraps the continuation in its cursor, hands it back unchanged, and binds it as before', async () => {
    const { source, requests, corpus } = sourceWith((request, c) => {
      const at = request.continuation === undefined ? 0 : Number(request.continuation.slice(4));
      const ids = c.pages.map((p) => p.fileId);
      const to = Math.min(ids.length, at + request.limit);
      return {
        hits: ids.slice(at, to).map((id, i) => hit(id, 100 - at - i)),
        continuation: to < ids.length ? `key:${to}` : null,
        ...STATUSES,
      };
    });
    const first = await source.searchFiles({ query: 'q', limit: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    // Readable (it costs a model few tokens) but signed: the same with another continuation is refused.
    await expectKnowledgeError(
      source.searchFiles({
        cursor: first.nextCursor!.replace('key:2', 'key:3'),
      }),
      { code: 'INVALID_CURSOR', message: /not one this knowledge base issued/ },
    );
    const second = await source.searchFiles({ query: 'q', limit: 2, cursor: first.nextCursor! });
    expect(requests[1]!.continuation).toBe('key:2');
    expect(second.items.map((i) => i.fileId)).toEqual(
      corpus()
        .pages.slice(2, 4)
        .map((p) => p.fileId),
    );
    await expectKnowledgeError(
      source.searchFiles({ query: 'q', limit: 3, cursor: first.nextCursor! }),
      { code: 'INVALID_CURSOR', message: /other parameters/ },
    );
    const tree = await source.listTree({ parentPath: 'pages', limit: 1 });
    await expectKnowledgeError(
      source.searchFiles({ query: 'q', limit: 2, cursor: tree.nextCursor! }),
      { code: 'INVALID_CURSOR', message: /issued by `list_tree`/ },
    );
  });

  it('refuses a cursor whose continuation the engine answers with no hits (INVALID_CURSOR)', async () => {
    const { source } = sourceWith((request, c) =>
      request.continuation === undefined
        ? { hits: [hit(c.pages[0]!.fileId)], continuation: 'next', ...STATUSES }
        : { hits: [], continuation: null, ...STATUSES },
    );
    const first = await source.searchFiles({ query: 'q', limit: 1 });
    await expectKnowledgeError(
      source.searchFiles({ query: 'q', limit: 1, cursor: first.nextCursor! }),
      { code: 'INVALID_CURSOR', message: /past the end/ },
    );
  });

  it("refuses an answer that breaks the port's rules as SEARCH_UNAVAILABLE, naming the rule", async () => {
    const cases: [string, (c: SearchCorpus) => unknown, RegExp][] = [
      [
        'not a page',
        () => ({ hits: [hit('index.md')], continuation: null, ...STATUSES }),
        /"index\.md", which is not a page/,
      ],
      ['unknown', () => ({ hits: [hit('nope')], continuation: null, ...STATUSES }), /"nope"/],
      [
        'too many',
        (c) => ({
          hits: c.pages.slice(0, 2).map((p) => hit(p.fileId)),
          continuation: null,
          ...STATUSES,
        }),
        /2 hits for a `limit` of 1/,
      ],
      [
        'score',
        (c) => ({ hits: [hit(c.pages[0]!.fileId, 0)], continuation: null, ...STATUSES }),
        /score 0/,
      ],
      [
        'empty continuation',
        () => ({ hits: [], continuation: 'more', ...STATUSES }),
        /no hits but a `continuation`/,
      ],
      [
        'status',
        (c) => ({
          hits: [hit(c.pages[0]!.fileId)],
          continuation: null,
          ...STATUSES,
          semanticStatus: { state: 'ready', safeCode: 'X' },
        }),
        /`semanticStatus`/,
      ],
      ['not an object', () => null, /not an object/],
    ];
    for (const [name, answer, message] of cases) {
      const { source } = sourceWith((_r, c) => answer(c) as SearchAnswer);
      const error = await expectKnowledgeError(
        source.searchFiles({ query: 'q', limit: 1 }, { requestId: 'req-port' }),
        { code: 'SEARCH_UNAVAILABLE', message: message },
      );
      expect(error.message, name).toMatch(/search port's rules/);
      expect(error.requestId).toBe('req-port');
    }
    const { source } = sourceWith((_r, c) => ({
      hits: [hit(c.pages[0]!.fileId, 2), hit(c.pages[0]!.fileId, 1)],
      continuation: null,
      ...STATUSES,
    }));
    await expectKnowledgeError(source.searchFiles({ query: 'q', limit: 5 }), {
      code: 'SEARCH_UNAVAILABLE',
      message: /repeats/,
    });
  });

  it("passes an engine's KnowledgeToolError through with the caller's requestId; anything else is SEARCH_UNAVAILABLE, or TIMEOUT when aborted", async () => {
    const throwing = (error: unknown) =>
      createCatalogSource(
        catalog,
        exampleSourceOptions({ search: () => ({ search: () => Promise.reject(error) }) }),
      );
    const own = await expectKnowledgeError(
      throwing(new KnowledgeToolError('SEARCH_TIMEOUT', 'slow')).searchFiles(
        { query: 'q' },
        { requestId: 'req-1' },
      ),
      { code: 'SEARCH_TIMEOUT', message: /slow/ },
    );
    expect(own.requestId).toBe('req-1');
    const plain = await expectKnowledgeError(
      throwing(new Error('db down')).searchFiles({ query: 'q' }),
      { code: 'SEARCH_UNAVAILABLE', message: /The search could not run: the search engine failed/ },
    );
    expect(plain.cause).toBeInstanceOf(Error);
    const cold = createCatalogSource(
      catalog,
      exampleSourceOptions({
        search: () => ({
          search: () => Promise.reject(new Error('unused')),
          warm: () => Promise.reject(new Error('db down')),
        }),
      }),
    );
    await expectKnowledgeError(cold.warm!(), {
      code: 'SEARCH_UNAVAILABLE',
      message: /^Warming search could not run/,
    });
    const controller = new AbortController();
    const hanging = createCatalogSource(
      catalog,
      exampleSourceOptions({
        search: () => ({
          search: (request) =>
            new Promise((_resolve, reject) =>
              request.signal!.addEventListener('abort', () =>
                reject(new DOMException('aborted', 'AbortError')),
              ),
            ),
        }),
      }),
    );
    const pending = hanging.searchFiles({ query: 'q' }, { signal: controller.signal });
    controller.abort();
    await expectKnowledgeError(pending, { code: 'TIMEOUT', message: /cancelled by its caller/ });
  });
});

describe('engine options: beside the engine, never at the top level of the source', () => {
  it('an engine option at the top level is an unknown option, whose message says what replaces it', () => {
    const error = expectKnowledgeError(
      () =>
        createCatalogSource(
          catalog,
          exampleSourceOptions({
            excerptChars: 40,
            embedder: { embed: async () => [] },
            semanticTimeoutMs: 5,
            reranker: { rerank: async () => [] },
            rerankTopK: 5,
            rerankTimeoutMs: 5,
            searchTimeoutMs: 5,
            embeddingCache: new Map(),
          } as never),
        ),
      { code: 'INVALID_INPUT', path: ['options', 'excerptChars'] },
    );
    expect(error.issues.map((i) => i.path)).toEqual(
      [
        'excerptChars',
        'embedder',
        'semanticTimeoutMs',
        'reranker',
        'rerankTopK',
        'rerankTimeoutMs',
        'searchTimeoutMs',
        'embeddingCache',
      ].map((key) => ['options', key]),
    );
    for (const issue of error.issues) {
      const key = issue.path!.at(-1)!;
      expect(issue.code).toBe('INVALID_INPUT');
      expect(issue.message).toBe(
        `createCatalogSource: unknown option \`${key}\`. It is an option of the search engine: pass \`search: createBm25fEngine({ ${key} })\` instead. Known options: \`id\`, \`revision\`, \`files\`, \`actionBase\`, \`maxReadChars\`, \`cursorKey\`, \`linkRoot\`, \`fileStatus\`, \`version\`, \`publishedAt\`, \`search\`.`,
      );
    }
  });

  it('the same, beside `search`; another unknown option gets no such sentence', () => {
    const error = expectKnowledgeError(
      () =>
        createCatalogSource(
          catalog,
          exampleSourceOptions({
            search: createBm25fEngine(),
            embedder: { embed: async () => [] },
            colour: 'red',
          } as never),
        ),
      { code: 'INVALID_INPUT', path: ['options', 'embedder'] },
    );
    expect(error.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(
        /^createCatalogSource: unknown option `embedder`\. It is an option of the search engine: pass `search: createBm25fEngine\(\{ embedder \}\)` instead\./,
      ),
      expect.stringMatching(/^createCatalogSource: unknown option `colour`\. Known options: `id`/),
    ]);
  });

  it('the engine built from `search: createBm25fEngine({ excerptChars })` is the one that searches', async () => {
    const short = createCatalogSource(
      catalog,
      exampleSourceOptions({ search: createBm25fEngine({ excerptChars: 40 }) }),
    );
    const byDefault = createCatalogSource(catalog, exampleSourceOptions());
    const query = { query: 'How do cursors work?', limit: 3 };
    expect((await short.searchFiles(query)).items[0]!.sourceExcerpt.length).toBeLessThanOrEqual(40);
    expect((await byDefault.searchFiles(query)).items[0]!.sourceExcerpt.length).toBeGreaterThan(40);
  });

  it('refuses a `search` that is not a factory', () => {
    expectKnowledgeError(
      () => createCatalogSource(catalog, exampleSourceOptions({ search: {} as never })),
      { code: 'INVALID_INPUT', path: ['options', 'search'] },
    );
  });

  it('createBm25fEngine checks its options at once, every problem in one INVALID_INPUT', () => {
    const error = catchKnowledgeError(() =>
      createBm25fEngine({
        excerptChars: 3,
        reranker: {} as never,
        searchTimeoutMs: 0,
        files: {},
      } as never),
    );
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.issues.map((i) => i.path)).toEqual([
      ['options', 'excerptChars'],
      ['options', 'reranker'],
      ['options', 'searchTimeoutMs'],
      ['options', 'files'],
    ]);
    for (const issue of error.issues) expect(issue.message).toMatch(/^createBm25fEngine: /);
    expect(error.issues[3]!.message).toMatch(/unknown option `files`.*`embedder`/);
    expect(() => createBm25fEngine(undefined)).not.toThrow();
  });
});
