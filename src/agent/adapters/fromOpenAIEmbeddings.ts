/**
 * An embedder from OpenAI's embeddings endpoint, called through the caller's `openai` client (no
 * import here, so `openai` stays the app's dependency).
 *
 * @module
 */
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../../errors/codes.js';
import { checkOptions, string, type OptionCheck } from '../../shared/checkOptions.js';
import type { KnowledgeEmbedder } from '../types.js';

/** Most inputs OpenAI's embeddings endpoint takes in one request. */
export const OPENAI_MAX_EMBEDDING_INPUTS = 2048;

/**
 * The part of an `OpenAI` client (`openai@6`) this adapter calls: `embeddings.create`. Any client
 * with that method fits, such as `AzureOpenAI` or one pointed at a compatible server by `baseURL`.
 */
export interface OpenAIEmbeddingsClient {
  readonly embeddings: {
    create(
      body: { model: string; input: string[]; dimensions?: number; user?: string },
      options: { signal: AbortSignal },
    ): PromiseLike<{
      readonly data: readonly { readonly embedding: ArrayLike<number>; readonly index: number }[];
    }>;
  };
}

/** Options of `fromOpenAIEmbeddings`. */
export interface OpenAIEmbeddingsOptions {
  /** The embedding model, e.g. `text-embedding-3-small`. */
  readonly model: string;
  /** Vector length, for models that take it (`text-embedding-3-*`). Default the model's. */
  readonly dimensions?: number | undefined;
  /** The end user's ID, passed as `user`. */
  readonly user?: string | undefined;
  /** Inputs per request, 1 to 2,048 (OpenAI's limit). Default 2,048. */
  readonly maxInputsPerRequest?: number | undefined;
}

const API = 'fromOpenAIEmbeddings';

const CHECKS: Readonly<Record<keyof OpenAIEmbeddingsOptions, OptionCheck>> = {
  model: (v) => (typeof v === 'string' && v !== '' ? undefined : 'a model name'),
  dimensions: (v) =>
    Number.isSafeInteger(v) && (v as number) > 0 ? undefined : 'a positive safe integer',
  user: string,
  maxInputsPerRequest: (v) =>
    Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= OPENAI_MAX_EMBEDDING_INPUTS
      ? undefined
      : `an integer from 1 to ${OPENAI_MAX_EMBEDDING_INPUTS}`,
};

/**
 * An embedder for `createBm25fEngine({ embedder })` from an OpenAI client: the texts go to
 * `client.embeddings.create` in requests of at most `maxInputsPerRequest` inputs (OpenAI takes
 * 2,048), one after another, each with the engine's abort signal; the vectors come back in the order
 * of the texts (by each answer's `index`). An empty text is sent as one space, since the endpoint
 * refuses empty input. The client's own `maxRetries` and `timeout` apply. A failure rejects, and the
 * engine reports `semanticStatus` `unavailable` while the lexical result stands.
 *
 * @param client - an `OpenAI` client from `openai` (or any with `embeddings.create`).
 * @param options - `model`, and optionally `dimensions`, `user`, `maxInputsPerRequest`.
 * @returns the embedder.
 * @throws {KnowledgeError} `INVALID_INPUT` for a client without `embeddings.create` or bad options.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { fromOpenAIEmbeddings } from 'knowledge-kit/agent/adapters';
 * const embedder = fromOpenAIEmbeddings(new OpenAI(), { model: 'text-embedding-3-small' });
 * const source = createCatalogSource(catalog, { search: createBm25fEngine({ embedder }) });
 * ```
 */
export function fromOpenAIEmbeddings(
  client: OpenAIEmbeddingsClient,
  options: OpenAIEmbeddingsOptions,
): KnowledgeEmbedder {
  const issues: KnowledgeIssue[] = [];
  const embeddings = (client as { embeddings?: { create?: unknown } } | null)?.embeddings;
  if (typeof embeddings?.create !== 'function')
    issues.push({
      code: 'INVALID_INPUT',
      path: ['client'],
      message: `${API}: \`client\` must be an OpenAI client with \`embeddings.create\`, such as \`new OpenAI()\` from \`openai\`.`,
    });
  const o = checkOptions(API, options, CHECKS, issues) as Partial<OpenAIEmbeddingsOptions>;
  if (o.model === undefined && !issues.some((i) => i.path?.[1] === 'model'))
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'model'],
      message: `${API}: \`model\` is required: the embedding model's name, e.g. \`text-embedding-3-small\`.`,
    });
  if (issues.length > 0) throw new KnowledgeError(issues);
  const model = o.model!;
  const perRequest = o.maxInputsPerRequest ?? OPENAI_MAX_EMBEDDING_INPUTS;
  const extra = {
    ...(o.dimensions === undefined ? {} : { dimensions: o.dimensions }),
    ...(o.user === undefined ? {} : { user: o.user }),
  };
  return {
    async embed(texts, { signal }) {
      const out: ArrayLike<number>[] = [];
      for (let from = 0; from < texts.length; from += perRequest) {
        signal.throwIfAborted();
        const input = texts.slice(from, from + perRequest).map((t) => (t === '' ? ' ' : t));
        const { data } = await client.embeddings.create({ ...extra, model, input }, { signal });
        if (!Array.isArray(data) || data.length !== input.length)
          throw new Error(
            `${API}: OpenAI answered ${Array.isArray(data) ? data.length : 'no'} embeddings for ${input.length} inputs`,
          );
        const ordered = new Array<ArrayLike<number>>(input.length);
        for (const item of data) {
          const index = item?.index;
          if (!Number.isSafeInteger(index) || index < 0 || index >= input.length)
            throw new Error(`${API}: OpenAI answered an embedding with index ${String(index)}`);
          ordered[index] = item.embedding;
        }
        for (let i = 0; i < input.length; i++) {
          if (ordered[i] === undefined)
            throw new Error(`${API}: OpenAI answered no embedding for input ${i}`);
          out.push(ordered[i]!);
        }
      }
      return out;
    },
  };
}
