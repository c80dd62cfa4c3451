/** Fake embedders and rerankers for search tests: good, failing, slow, malformed. */
import type { KnowledgeEmbedder, KnowledgeReranker } from '../../src/agent/types.js';
import { tokenize } from '../../src/agent/search/index.js';

const DIMS = 64;

function hash(token: string): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
  return (h >>> 0) % DIMS;
}

/** A bag-of-tokens vector: similar texts share tokens, so their cosine is higher. */
export function bagOfTokens(text: string): number[] {
  const vector = new Array<number>(DIMS).fill(0);
  for (const token of tokenize(text)) vector[hash(token)]! += 1;
  return vector;
}

/** An embedder that counts its calls; `synonyms` maps query words onto document words first. */
export function goodEmbedder(
  synonyms: Record<string, string> = {},
): KnowledgeEmbedder & { calls: number; texts: number } {
  const embedder = {
    calls: 0,
    texts: 0,
    async embed(texts: string[]) {
      embedder.calls++;
      embedder.texts += texts.length;
      return texts.map((t) =>
        bagOfTokens(Object.entries(synonyms).reduce((s, [from, to]) => s.split(from).join(to), t)),
      );
    },
  };
  return embedder;
}

/** An embedder whose every call rejects. */
export const failingEmbedder: KnowledgeEmbedder = {
  embed: async () => {
    throw new Error('embedding service down');
  },
};

/** An embedder that answers after `ms` milliseconds (or when aborted). */
export function slowEmbedder(ms: number): KnowledgeEmbedder {
  return {
    embed: (texts, { signal }) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(texts.map(bagOfTokens)), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  };
}

/** A reranker that scores candidates by `score(fileId)`; records what it was sent. */
export function goodReranker(
  score: (fileId: string) => number,
): KnowledgeReranker & { seen: { fileId: string; text: string }[] } {
  const reranker = {
    seen: [] as { fileId: string; text: string }[],
    async rerank(_query: string, candidates: { fileId: string; text: string }[]) {
      reranker.seen = candidates;
      return candidates.map((c) => score(c.fileId));
    },
  };
  return reranker;
}

/** A reranker that rejects. */
export const failingReranker: KnowledgeReranker = {
  rerank: async () => {
    throw new Error('reranker down');
  },
};

/** A reranker that answers after `ms` milliseconds (or when aborted). */
export function slowReranker(ms: number): KnowledgeReranker {
  return {
    rerank: (_q, candidates, { signal }) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(candidates.map(() => 1)), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  };
}
