/**
 * An embedder from an AI SDK embedding model, called through the caller's `embedMany` from `ai` (no
 * import here, so `ai` stays the app's dependency).
 *
 * @module
 */
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../../errors/codes.js';
import type { KnowledgeEmbedder } from '../types.js';

const API = 'fromAISDKEmbeddingModel';

/**
 * The shape of the AI SDK's `embedMany` this adapter calls: it takes `model`, `values` and
 * `abortSignal`, and answers `embeddings`, one per value, in order.
 */
export type AISDKEmbedMany = (options: {
  model: never;
  values: string[];
  abortSignal?: AbortSignal;
}) => PromiseLike<{ readonly embeddings: readonly ArrayLike<number>[] }>;

/**
 * Options of `fromAISDKEmbeddingModel`: `embedMany` from `ai`, and any other option of `embedMany`
 * to pass on every call (`maxRetries`, `maxParallelCalls`, `headers`, `providerOptions`, …), typed
 * by the `embedMany` given. `model`, `values` and `abortSignal` are the adapter's.
 */
export type AISDKEmbeddingOptions<F extends AISDKEmbedMany> = { readonly embedMany: F } & Omit<
  Parameters<F>[0],
  'model' | 'values' | 'abortSignal'
>;

/**
 * An embedder for `createBm25fEngine({ embedder })` from an AI SDK embedding model (`ai@6`:
 * `openai.embedding('text-embedding-3-small')`, any provider's, or a gateway model ID). Each call is
 * one `embedMany` with the engine's abort signal; `embedMany` splits it by the model's
 * `maxEmbeddingsPerCall` and retries as `maxRetries` says. A failure rejects, and the engine reports
 * `semanticStatus` `unavailable` while the lexical result stands.
 *
 * @param model - the embedding model, as `embedMany` takes it.
 * @param options - `embedMany` from `ai`, and options to pass it.
 * @returns the embedder.
 * @throws {KnowledgeError} `INVALID_INPUT` when `model` is missing or `embedMany` is not a function.
 * @example
 * ```ts
 * import { embedMany } from 'ai';
 * import { openai } from '@ai-sdk/openai';
 * import { fromAISDKEmbeddingModel } from 'knowledge-kit/agent/adapters';
 * const embedder = fromAISDKEmbeddingModel(openai.embedding('text-embedding-3-small'), { embedMany, maxRetries: 1 });
 * const source = createCatalogSource(catalog, { search: createBm25fEngine({ embedder }) });
 * ```
 */
export function fromAISDKEmbeddingModel<F extends AISDKEmbedMany>(
  model: Parameters<F>[0]['model'],
  options: AISDKEmbeddingOptions<F>,
): KnowledgeEmbedder {
  const embedMany = (options as { embedMany?: unknown } | null | undefined)?.embedMany;
  const issues: KnowledgeIssue[] = [];
  if (model === undefined || model === null)
    issues.push({
      code: 'INVALID_INPUT',
      path: ['model'],
      message: `${API}: \`model\` is required: an AI SDK embedding model, such as \`openai.embedding('text-embedding-3-small')\`.`,
    });
  if (typeof embedMany !== 'function')
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'embedMany'],
      message: `${API}: \`options.embedMany\` must be \`embedMany\` from \`ai\`: \`fromAISDKEmbeddingModel(model, { embedMany })\`.`,
    });
  if (issues.length > 0) throw new KnowledgeError(issues);
  const { embedMany: _, ...rest } = options;
  return {
    async embed(texts, { signal }) {
      const call = { ...rest, model, values: texts, abortSignal: signal };
      const { embeddings } = await (embedMany as F)(call as unknown as Parameters<F>[0]);
      return [...embeddings];
    },
  };
}
