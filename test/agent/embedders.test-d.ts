/** The embedder adapters take the SDKs' real types; the cache option takes a `Map` and the file cache. */
import { embedMany, type EmbeddingModel } from 'ai';
import { MockEmbeddingModelV3 } from 'ai/test';
import OpenAI, { AzureOpenAI } from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import {
  fromAISDKEmbeddingModel,
  fromOpenAIEmbeddings,
  type OpenAIEmbeddingsClient,
} from '../../src/agent/adapters/index.js';
import {
  createBm25fEngine,
  type KnowledgeEmbedder,
  type KnowledgeEmbeddingCache,
} from '../../src/agent/index.js';
import { openEmbeddingCache, type FileEmbeddingCache } from '../../src/node/index.js';

describe('fromAISDKEmbeddingModel', () => {
  it('takes `embedMany` from `ai` with a provider model, a mock model or a gateway ID', () => {
    const mock = new MockEmbeddingModelV3();
    expectTypeOf(fromAISDKEmbeddingModel(mock, { embedMany })).toEqualTypeOf<KnowledgeEmbedder>();
    expectTypeOf(
      fromAISDKEmbeddingModel('openai/text-embedding-3-small', { embedMany }),
    ).toEqualTypeOf<KnowledgeEmbedder>();
    const model: EmbeddingModel = mock;
    fromAISDKEmbeddingModel(model, { embedMany });
  });

  it("passes `embedMany`'s own options on, typed by `ai`", () => {
    const mock = new MockEmbeddingModelV3();
    fromAISDKEmbeddingModel(mock, {
      embedMany,
      maxRetries: 0,
      maxParallelCalls: 2,
      headers: { 'x-app': 'kb' },
      providerOptions: { openai: { dimensions: 256 } },
    });
    // @ts-expect-error -- not an option of `embedMany`
    fromAISDKEmbeddingModel(mock, { embedMany, maxRetry: 0 });
    // @ts-expect-error -- `maxRetries` is a number in `ai`
    fromAISDKEmbeddingModel(mock, { embedMany, maxRetries: '1' });
    // @ts-expect-error -- not an embedding model
    fromAISDKEmbeddingModel(42, { embedMany });
  });
});

describe('fromOpenAIEmbeddings', () => {
  it('takes an `OpenAI` client and an `AzureOpenAI` client from `openai`', () => {
    const client = new OpenAI({ apiKey: 'k' });
    expectTypeOf(client).toExtend<OpenAIEmbeddingsClient>();
    expectTypeOf(
      fromOpenAIEmbeddings(client, { model: 'text-embedding-3-small', dimensions: 256 }),
    ).toEqualTypeOf<KnowledgeEmbedder>();
    fromOpenAIEmbeddings(new AzureOpenAI({ apiKey: 'k', apiVersion: 'v', endpoint: 'https://x' }), {
      model: 'm',
    });
    // @ts-expect-error -- `model` is required
    fromOpenAIEmbeddings(client, {});
    // @ts-expect-error -- not a client with `embeddings.create`
    fromOpenAIEmbeddings({ chat: {} }, { model: 'm' });
  });
});

describe('embeddingCache', () => {
  it('takes a Map of Float32Array, the file cache, or a store with get and set', async () => {
    const embedder = fromOpenAIEmbeddings(new OpenAI({ apiKey: 'k' }), { model: 'm' });
    createBm25fEngine({ embedder, embeddingCache: new Map<string, Float32Array>() });
    const file: FileEmbeddingCache = await openEmbeddingCache('cache.bin', { model: 'm' });
    expectTypeOf(file).toExtend<KnowledgeEmbeddingCache>();
    createBm25fEngine({ embedder, embeddingCache: file });
    const store: KnowledgeEmbeddingCache = {
      get: async (key: string) => (key === '' ? undefined : [1, 2]),
      set: async () => undefined,
    };
    createBm25fEngine({ embedder, embeddingCache: store });
    // @ts-expect-error -- a Map of plain arrays cannot store the engine's Float32Arrays
    createBm25fEngine({ embedder, embeddingCache: new Map<string, string>() });
  });
});
