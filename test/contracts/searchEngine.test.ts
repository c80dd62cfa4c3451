/**
 * The search port's contract, run on the default engine (BM25F, through its public factory), on the
 * term-store engine (`searchTermStore` over rows in memory: what serves every static bundle and
 * PostgreSQL search) and on a naive scan engine written here against the public types only: the port
 * is usable by an engine that shares nothing with the default one but the tokenizer.
 */
import {
  createBm25fEngine,
  type EvidenceType,
  type MatchedField,
  type SearchAnswer,
  type SearchCorpus,
  type SearchEngine,
  type SearchHit,
  tokenize,
} from '../../src/agent/index.js';
import {
  buildChunks,
  buildTermRows,
  buildVectors,
  memoryTermStore,
  searchTermStore,
} from '../../src/agent/search/index.js';
import type { KnowledgeEmbedder } from '../../src/agent/types.js';
import { type ContractKnowledge, runSearchEngineContract } from './searchEngine.contract.js';

runSearchEngineContract({
  name: 'BM25F (default)',
  newEngine: (corpus) => createBm25fEngine()(corpus),
});

/** A fake embedder: four numbers from a text's length and two of its words. */
const embedder: KnowledgeEmbedder = {
  embed: async (texts) =>
    texts.map((t) => [t.length % 5, 1, t.includes('policy') ? 1 : 0, t.includes('zebra') ? 1 : 0]),
};

runSearchEngineContract({
  name: 'BM25F with an embedder and a reranker',
  newEngine: (corpus) =>
    createBm25fEngine({
      embedder,
      reranker: { rerank: async (_query, candidates) => candidates.map((_c, i) => 1 / (i + 1)) },
    })(corpus),
});

/**
 * The term-store engine over the corpus's rows held in memory (what an export or a publish writes),
 * with the corpus's chunk vectors for `nearest` when `withEmbedder`.
 */
async function termStoreEngine(
  corpus: SearchCorpus,
  knowledge: ContractKnowledge,
  withEmbedder: boolean,
): Promise<SearchEngine> {
  const rows = await buildTermRows(corpus);
  const documentOf = (fileId: string) => knowledge.catalog.document(fileId)!;
  if (!withEmbedder) {
    const store = memoryTermStore(rows, corpus, documentOf);
    return { search: (request) => searchTermStore(store, request, { excerptChars: 240 }) };
  }
  const chunks = buildChunks(corpus);
  const vectors = (await buildVectors(embedder, chunks, new AbortController().signal)).store;
  const store = memoryTermStore(rows, corpus, documentOf, { chunks, vectors });
  return {
    search: (request) => searchTermStore(store, request, { excerptChars: 240, embedder }),
  };
}

runSearchEngineContract({
  name: 'term store (rows in memory)',
  newEngine: (corpus, knowledge) => termStoreEngine(corpus, knowledge, false),
});

runSearchEngineContract({
  name: 'term store (rows in memory) with an embedder',
  newEngine: (corpus, knowledge) => termStoreEngine(corpus, knowledge, true),
});

/** Code points kept around a match in the naive engine's excerpts. */
const EXCERPT = 160;
const FIELDS = ['title', 'path', 'description', 'tags'] as const;

/**
 * A naive engine: scans every page's file fields and chunks for the query's tokens on each search,
 * scores by the count of matching tokens (title twice), follows relations in graph mode, pages by
 * offset. Nothing is indexed.
 */
function naiveScanEngine(corpus: SearchCorpus): SearchEngine {
  const rank = (query: string, mode: string, depth: number, fanout: number): SearchHit[] => {
    const terms = new Set(tokenize(query));
    const count = (text: string): number => tokenize(text).filter((t) => terms.has(t)).length;
    const found = new Map<string, { -readonly [K in keyof SearchHit]: SearchHit[K] }>();
    for (const page of corpus.pages) {
      const matchedFields: MatchedField[] = [];
      let score = 0;
      for (const field of FIELDS) {
        const value = field === 'tags' ? page.tags.join(' ') : (page[field] ?? '');
        const n = count(value);
        if (n > 0) matchedFields.push(field);
        score += n * (field === 'title' ? 2 : 1);
      }
      const chunks =
        mode === 'file'
          ? []
          : corpus
              .chunksOf(page.fileId)
              .map((chunk) => ({ chunk, n: count(chunk.text) }))
              .filter((c) => c.n > 0)
              .sort((a, b) => b.n - a.n);
      if (chunks.length > 0) matchedFields.push('content');
      score += chunks.reduce((sum, c) => sum + c.n, 0);
      if (score === 0) continue;
      const evidenceTypes: EvidenceType[] = [];
      if (chunks.length > 0) evidenceTypes.push('content');
      if (matchedFields.some((f) => f !== 'content')) evidenceTypes.push('metadata');
      found.set(page.fileId, {
        fileId: page.fileId,
        score,
        matchedFields,
        evidenceTypes,
        sourceExcerpt:
          chunks.length > 0
            ? excerpt(chunks[0]!.chunk.text, terms)
            : corpus.leadOf(page.fileId, EXCERPT),
        sectionIds: chunks
          .flatMap((c) => (c.chunk.sectionId === null ? [] : [c.chunk.sectionId]))
          .slice(0, 3),
      });
    }
    const byScore = (a: SearchHit, b: SearchHit) =>
      b.score - a.score || (a.fileId < b.fileId ? -1 : 1);
    let ranked = [...found.values()].sort(byScore);
    if (mode === 'graph') {
      let frontier = ranked.slice(0, fanout);
      for (let hop = 0; hop < depth; hop++) {
        const next: typeof ranked = [];
        for (const parent of frontier)
          for (const relation of corpus.relationsOf(parent.fileId).slice(0, fanout)) {
            const known = found.get(relation.fileId);
            if (known !== undefined) {
              if (!known.evidenceTypes.includes('graph'))
                known.evidenceTypes = [...known.evidenceTypes, 'graph'];
              continue;
            }
            const hit = {
              fileId: relation.fileId,
              score: parent.score * 0.5 * relation.weight,
              matchedFields: [],
              evidenceTypes: ['graph' as const],
              sourceExcerpt: corpus.leadOf(relation.fileId, EXCERPT),
              sectionIds: [],
            };
            found.set(hit.fileId, hit);
            next.push(hit);
          }
        frontier = next;
      }
      ranked = [...found.values()].sort(byScore);
    }
    return ranked;
  };
  return {
    async search(request): Promise<SearchAnswer> {
      request.signal?.throwIfAborted();
      // The filters narrow the ranking of every page, scores unchanged.
      const f = request.filter;
      const pages = new Map(corpus.pages.map((p) => [p.fileId, p]));
      const hits = rank(
        request.query,
        request.mode,
        request.graphDepth,
        request.graphFanout,
      ).filter((hit) => {
        if (f === undefined) return true;
        const page = pages.get(hit.fileId)!;
        return (
          (f.pathPrefix === null || f.pathPrefix.some((x) => page.path.startsWith(x))) &&
          (f.tags === null || f.tags.every((t) => page.tags.includes(t))) &&
          (f.locale === null || page.locale === f.locale)
        );
      });
      const from =
        request.continuation === undefined
          ? 0
          : /^[1-9][0-9]*$/.test(request.continuation)
            ? Number(request.continuation)
            : hits.length;
      const to = Math.min(hits.length, from + request.limit);
      return {
        hits: hits.slice(from, to),
        continuation: to < hits.length ? String(to) : null,
        semanticStatus:
          request.mode === 'file'
            ? { state: 'skipped', safeCode: 'SEMANTIC_NOT_USED' }
            : { state: 'disabled', safeCode: 'SEMANTIC_DISABLED' },
        rerankerStatus: { state: 'skipped', safeCode: 'RERANKER_DISABLED' },
      };
    },
  };
}

/** The chunk's words around its first matching token, whitespace collapsed, `…` at cut ends. */
function excerpt(text: string, terms: ReadonlySet<string>): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const i = lower.indexOf(term);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const chars = [...flat];
  const start = Math.max(0, [...flat.slice(0, Math.max(at, 0))].length - EXCERPT / 4);
  const end = Math.min(chars.length, start + EXCERPT);
  return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('').trim()}${end < chars.length ? '…' : ''}`;
}

runSearchEngineContract({
  name: 'naive scan (written against the port)',
  newEngine: naiveScanEngine,
});
