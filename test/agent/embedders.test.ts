/**
 * The embedder adapters, each against its SDK's own test double: the AI SDK's `embedMany` over
 * `MockEmbeddingModelV3`, and a real `OpenAI` client whose `fetch` answers canned responses (no
 * network). Batch limits, abort signals, errors as the semantic status, and the cache on top.
 */
import { embedMany } from 'ai';
import { MockEmbeddingModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fromAISDKEmbeddingModel, fromOpenAIEmbeddings } from '../../src/agent/adapters/index.js';
import {
  createCatalogSource,
  createBm25fEngine,
  type KnowledgeEmbedder,
} from '../../src/agent/index.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { bagOfTokens } from '../helpers/search-fakes.js';
import { SAMPLE_PAGES } from '../helpers/search-fixtures.js';

const catalog = defineKnowledgeCatalog(
  SAMPLE_PAGES.map((p) => parseKnowledgeDocument({ id: p.id, revision: 'r1', text: p.text })),
);
const sourceWith = (options: Parameters<typeof createBm25fEngine>[0]) =>
  createCatalogSource(catalog, { search: createBm25fEngine(options) });
const signal = () => new AbortController().signal;

// ---------------------------------------------------------------------------------------------------
// AI SDK

/** A mock embedding model that embeds as bags of tokens, `perCall` values at most per call. */
function mockModel(perCall: number | null = 2) {
  return new MockEmbeddingModelV3({
    maxEmbeddingsPerCall: perCall,
    doEmbed: async ({ values }) => ({ embeddings: values.map(bagOfTokens), warnings: [] }),
  });
}

describe('fromAISDKEmbeddingModel', () => {
  it("embeds through `embedMany`, split by the model's maxEmbeddingsPerCall, with the engine's signal", async () => {
    const model = mockModel(2);
    const embedder = fromAISDKEmbeddingModel(model, { embedMany, maxRetries: 0 });
    const controller = new AbortController();
    const texts = ['one', 'two words', 'three', 'four', 'five'];
    const vectors = await embedder.embed(texts, { signal: controller.signal });
    expect(vectors).toEqual(texts.map(bagOfTokens));
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([
      ['one', 'two words'],
      ['three', 'four'],
      ['five'],
    ]);
    for (const call of model.doEmbedCalls) expect(call.abortSignal).toBe(controller.signal);
  });

  it("passes embedMany's own options on (headers, providerOptions)", async () => {
    const model = mockModel(null);
    await fromAISDKEmbeddingModel(model, {
      embedMany,
      headers: { 'x-app': 'kb' },
      providerOptions: { openai: { dimensions: 64 } },
    }).embed(['a'], { signal: signal() });
    expect(model.doEmbedCalls[0]).toMatchObject({
      values: ['a'],
      providerOptions: { openai: { dimensions: 64 } },
    });
    expect(model.doEmbedCalls[0]!.headers).toMatchObject({ 'x-app': 'kb' });
  });

  it('gives hybrid search: vectors built on warm(), one call per query, semantic ready', async () => {
    const model = mockModel(16);
    const source = sourceWith({ embedder: fromAISDKEmbeddingModel(model, { embedMany }) });
    await source.warm!();
    const built = model.doEmbedCalls.length;
    expect(built).toBeGreaterThan(0);
    const result = await source.searchFiles({ query: 'parcels courier' });
    expect(result.semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(result.items[0]?.fileId).toBe('delivery');
    expect(model.doEmbedCalls.length).toBe(built + 1);
    expect(model.doEmbedCalls.at(-1)!.values).toEqual(['parcels courier']);
  });

  it('with a cache, a second source over the same pages sends only the query', async () => {
    const embeddingCache = new Map<string, Float32Array>();
    await sourceWith({
      embedder: fromAISDKEmbeddingModel(mockModel(16), { embedMany }),
      embeddingCache,
    }).warm!();
    const model = mockModel(16);
    const source = sourceWith({
      embedder: fromAISDKEmbeddingModel(model, { embedMany }),
      embeddingCache,
    });
    await source.warm!();
    expect(model.doEmbedCalls).toEqual([]);
    await source.searchFiles({ query: 'refunds' });
    expect(model.doEmbedCalls.map((c) => c.values)).toEqual([['refunds']]);
  });

  it("a model that fails makes semantic search unavailable (after embedMany's retries), and the lexical result stands", async () => {
    const model = new MockEmbeddingModelV3({
      doEmbed: async () => {
        throw new Error('model overloaded');
      },
    });
    const source = sourceWith({
      embedder: fromAISDKEmbeddingModel(model, { embedMany, maxRetries: 0 }),
    });
    const result = await source.searchFiles({ query: 'refunds' });
    expect(result.semanticStatus).toEqual({
      state: 'unavailable',
      safeCode: 'SEMANTIC_UNAVAILABLE',
    });
    expect(result.items[0]?.fileId).toBe('billing');
    expect(model.doEmbedCalls).toHaveLength(1);
  });

  it('a model slower than semanticTimeoutMs is aborted through its abortSignal: SEMANTIC_TIMEOUT', async () => {
    const aborted: boolean[] = [];
    const model = new MockEmbeddingModelV3({
      maxEmbeddingsPerCall: null,
      doEmbed: ({ values, abortSignal }) =>
        new Promise((resolve, reject) => {
          if (values.length > 1)
            return resolve({ embeddings: values.map(bagOfTokens), warnings: [] });
          abortSignal!.addEventListener('abort', () => {
            aborted.push(true);
            reject(abortSignal!.reason);
          });
        }),
    });
    const source = sourceWith({
      embedder: fromAISDKEmbeddingModel(model, { embedMany, maxRetries: 0 }),
      semanticTimeoutMs: 50,
    });
    await source.warm!();
    const result = await source.searchFiles({ query: 'refunds' });
    expect(result.semanticStatus).toEqual({ state: 'unavailable', safeCode: 'SEMANTIC_TIMEOUT' });
    expect(aborted).toEqual([true]);
  });

  it('refuses a missing model or embedMany, every problem at once', () => {
    const both = expectKnowledgeError(
      () => fromAISDKEmbeddingModel<typeof embedMany>(undefined as never, undefined as never),
      { code: 'INVALID_INPUT', path: ['model'] },
    );
    expect(both.issues.map((i) => i.path)).toEqual([['model'], ['options', 'embedMany']]);
    expectKnowledgeError(() => fromAISDKEmbeddingModel(undefined as never, { embedMany }), {
      code: 'INVALID_INPUT',
      path: ['model'],
      message: expect.stringMatching(/^fromAISDKEmbeddingModel: `model` is required/),
    });
    expectKnowledgeError(
      () => fromAISDKEmbeddingModel<typeof embedMany>(mockModel(), {} as never),
      {
        code: 'INVALID_INPUT',
        path: ['options', 'embedMany'],
        message:
          'fromAISDKEmbeddingModel: `options.embedMany` must be `embedMany` from `ai`: `fromAISDKEmbeddingModel(model, { embedMany })`.',
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// OpenAI

interface SeenRequest {
  readonly url: string;
  readonly body: {
    model: string;
    input: string[];
    dimensions?: number;
    user?: string;
    encoding_format?: string;
  };
  readonly signal: AbortSignal | null | undefined;
}

/**
 * A real `OpenAI` client whose `fetch` answers like the embeddings endpoint (base64 floats when asked,
 * as the SDK asks by default; the data in reverse order, as the API does not promise order), or as
 * `answer` says.
 */
function openAIClient(answer?: (request: SeenRequest) => Promise<Response> | undefined) {
  const requests: SeenRequest[] = [];
  const client = new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://openai.invalid/v1',
    maxRetries: 0,
    fetch: async (url, init) => {
      const request: SeenRequest = {
        url: String(url),
        body: JSON.parse(String(init?.body)),
        signal: init?.signal,
      };
      requests.push(request);
      const custom = answer?.(request);
      if (custom !== undefined) return custom;
      const data = request.body.input.map((text, index) => {
        const vector = bagOfTokens(text);
        return {
          object: 'embedding',
          index,
          embedding:
            request.body.encoding_format === 'base64'
              ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
              : vector,
        };
      });
      return Response.json({
        object: 'list',
        data: data.reverse(),
        model: request.body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    },
  });
  return { client, requests };
}

describe('fromOpenAIEmbeddings', () => {
  it('sends at most 2,048 inputs a request, and answers the vectors in the order of the texts', async () => {
    const { client, requests } = openAIClient();
    const embedder = fromOpenAIEmbeddings(client, { model: 'text-embedding-3-small' });
    const texts = Array.from({ length: 5000 }, (_, i) => `text number ${i}`);
    const vectors = await embedder.embed(texts, { signal: signal() });
    expect(requests.map((r) => r.body.input.length)).toEqual([2048, 2048, 904]);
    expect(requests[0]!.url).toBe('http://openai.invalid/v1/embeddings');
    expect(requests[0]!.body).toMatchObject({
      model: 'text-embedding-3-small',
      encoding_format: 'base64',
    });
    expect(vectors).toHaveLength(5000);
    for (const i of [0, 2047, 2048, 4999])
      expect(Array.from(vectors[i]!)).toEqual(bagOfTokens(texts[i]!));
  });

  it('takes maxInputsPerRequest, dimensions and user, and sends an empty text as one space', async () => {
    const { client, requests } = openAIClient();
    const embedder = fromOpenAIEmbeddings(client, {
      model: 'text-embedding-3-large',
      dimensions: 256,
      user: 'user-1',
      maxInputsPerRequest: 2,
    });
    await embedder.embed(['a', '', 'c'], { signal: signal() });
    expect(requests.map((r) => r.body)).toEqual([
      {
        model: 'text-embedding-3-large',
        input: ['a', ' '],
        dimensions: 256,
        user: 'user-1',
        encoding_format: 'base64',
      },
      {
        model: 'text-embedding-3-large',
        input: ['c'],
        dimensions: 256,
        user: 'user-1',
        encoding_format: 'base64',
      },
    ]);
  });

  it('gives hybrid search, and with a cache a new source sends only the query', async () => {
    const embeddingCache = new Map<string, Float32Array>();
    const first = openAIClient();
    const source = sourceWith({
      embedder: fromOpenAIEmbeddings(first.client, { model: 'm' }),
      embeddingCache,
    });
    const result = await source.searchFiles({ query: 'parcels courier' });
    expect(result.semanticStatus).toEqual({ state: 'ready', safeCode: null });
    expect(result.items[0]?.fileId).toBe('delivery');
    const second = openAIClient();
    const again = sourceWith({
      embedder: fromOpenAIEmbeddings(second.client, { model: 'm' }),
      embeddingCache,
    });
    await again.searchFiles({ query: 'refunds' });
    expect(second.requests.map((r) => r.body.input)).toEqual([['refunds']]);
  });

  it('an API error makes semantic search unavailable, and the lexical result stands', async () => {
    const { client, requests } = openAIClient(async () =>
      Response.json(
        { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
        { status: 401 },
      ),
    );
    const embedder = fromOpenAIEmbeddings(client, { model: 'm' });
    await expect(embedder.embed(['x'], { signal: signal() })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    const result = await sourceWith({ embedder }).searchFiles({ query: 'refunds' });
    expect(result.semanticStatus).toEqual({
      state: 'unavailable',
      safeCode: 'SEMANTIC_UNAVAILABLE',
    });
    expect(result.items[0]?.fileId).toBe('billing');
    expect(requests.length).toBeGreaterThan(1);
  });

  it('a malformed answer (too few embeddings, a bad index) is refused', async () => {
    const few = openAIClient(async () =>
      Response.json({ object: 'list', data: [], model: 'm', usage: {} }),
    );
    await expect(
      fromOpenAIEmbeddings(few.client, { model: 'm' }).embed(['a'], { signal: signal() }),
    ).rejects.toThrow(/^fromOpenAIEmbeddings: OpenAI answered 0 embeddings for 1 inputs$/);
    const badIndex = openAIClient(async () =>
      Response.json({
        object: 'list',
        data: [{ object: 'embedding', index: 3, embedding: [1, 2] }],
        model: 'm',
        usage: {},
      }),
    );
    await expect(
      fromOpenAIEmbeddings(badIndex.client, { model: 'm' }).embed(['a'], { signal: signal() }),
    ).rejects.toThrow(/index 3/);
  });

  it("the engine's abort reaches the request: a slow endpoint is SEMANTIC_TIMEOUT", async () => {
    let abortedRequests = 0;
    const { client } = openAIClient((request) =>
      request.body.input.length > 1
        ? undefined
        : new Promise<Response>((_, reject) => {
            request.signal!.addEventListener('abort', () => {
              abortedRequests++;
              reject(request.signal!.reason);
            });
          }),
    );
    const source = sourceWith({
      embedder: fromOpenAIEmbeddings(client, { model: 'm' }),
      semanticTimeoutMs: 50,
    });
    await source.warm!();
    const result = await source.searchFiles({ query: 'refunds' });
    expect(result.semanticStatus).toEqual({ state: 'unavailable', safeCode: 'SEMANTIC_TIMEOUT' });
    expect(result.items[0]?.fileId).toBe('billing');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(abortedRequests).toBe(1);
  });

  it('does not send a request once the signal is aborted', async () => {
    const { client, requests } = openAIClient();
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(
      fromOpenAIEmbeddings(client, { model: 'm' }).embed(['a'], { signal: controller.signal }),
    ).rejects.toThrow('caller gave up');
    expect(requests).toEqual([]);
  });

  it('refuses a client without embeddings.create, and bad options, every problem at once', () => {
    const error = expectKnowledgeError(
      () =>
        fromOpenAIEmbeddings(
          {} as never,
          {
            model: '',
            maxInputsPerRequest: 4096,
            batch: 1,
          } as never,
        ),
      {
        code: 'INVALID_INPUT',
        path: ['client'],
        message:
          'fromOpenAIEmbeddings: `client` must be an OpenAI client with `embeddings.create`, such as `new OpenAI()` from `openai`.',
      },
    );
    expect(error.issues.map((i) => i.path)).toEqual([
      ['client'],
      ['options', 'model'],
      ['options', 'maxInputsPerRequest'],
      ['options', 'batch'],
    ]);
    expect(error.issues[2]!.message).toBe(
      'fromOpenAIEmbeddings: `options.maxInputsPerRequest` must be an integer from 1 to 2048.',
    );
    expectKnowledgeError(() => fromOpenAIEmbeddings(openAIClient().client, {} as never), {
      code: 'INVALID_INPUT',
      path: ['options', 'model'],
      message: expect.stringMatching(/`model` is required/),
    });
  });

  it('is a KnowledgeEmbedder', () => {
    const embedder: KnowledgeEmbedder = fromOpenAIEmbeddings(openAIClient().client, { model: 'm' });
    expect(typeof embedder.embed).toBe('function');
  });
});
