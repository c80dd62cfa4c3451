/**
 * The embedding cache's invariants, on generated knowledge bases: after a build over one knowledge
 * base, a build over another embeds exactly the chunk texts the first lacked, and a search ranks the
 * same with cached vectors as with fresh ones. (The seed is fixed in test/setup.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCatalogSource,
  createBm25fEngine,
  type KnowledgeEmbedder,
  type SearchFilesOutput,
} from '../../src/agent/index.js';
import { bagOfTokens } from '../helpers/search-fakes.js';
import { knowledgeBase, query, type GeneratedKnowledge } from '../helpers/sourceArbitraries.js';

function recordingEmbedder(): KnowledgeEmbedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    async embed(batch) {
      texts.push(...batch);
      return batch.map(bagOfTokens);
    },
  };
}

/** Build `kb`'s vectors with `cache` (if any); the texts the embedder was sent, and the source. */
async function build(kb: GeneratedKnowledge, cache?: Map<string, Float32Array>) {
  const embedder = recordingEmbedder();
  const source = createCatalogSource(kb.catalog, {
    ...kb.options,
    search: createBm25fEngine({
      embedder,
      ...(cache === undefined ? {} : { embeddingCache: cache }),
    }),
  });
  await source.warm!();
  return { texts: [...embedder.texts], source };
}

const ranking = (out: SearchFilesOutput) =>
  out.items.map((i) => [i.fileId, i.score, i.evidenceTypes, i.sectionIds]);

describe('embedding cache properties', () => {
  it('a rebuild embeds exactly the distinct chunk texts the cache lacks, and ranks as a fresh build', async () => {
    await fc.assert(
      fc.asyncProperty(knowledgeBase, knowledgeBase, query, async (before, after, q) => {
        const cache = new Map<string, Float32Array>();
        const first = await build(before, cache);
        // Each distinct text is sent once.
        expect(new Set(first.texts).size).toBe(first.texts.length);
        const fresh = await build(after);
        const cached = await build(after, cache);
        const known = new Set(first.texts);
        expect(cached.texts).toEqual(fresh.texts.filter((t) => !known.has(t)));
        const again = await build(after, cache);
        expect(again.texts).toEqual([]);
        const request = { query: q, mode: 'hybrid', limit: 20 } as const;
        expect(ranking(await cached.source.searchFiles(request))).toEqual(
          ranking(await fresh.source.searchFiles(request)),
        );
      }),
      { numRuns: 40 },
    );
  });
});
