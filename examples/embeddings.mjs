// Hybrid search with an embedder, and an embedding cache that survives a restart.
// `examples/handbook/` holds three pages. A deterministic toy embedding model (hashed word counts
// with a small table of synonyms, no network) stands in for a real one; it is plugged in through the
// AI SDK's `embedMany` with `fromAISDKEmbeddingModel`, exactly as `openai.embedding(…)` would be. The
// chunk vectors are kept in a file with `openEmbeddingCache`: a second start embeds nothing, and an
// edited page re-embeds only its changed sections. Last, the same hybrid search from the PostgreSQL
// store, whose publish keeps the vectors in pgvector (PGlite with @electric-sql/pglite-pgvector).
// Run it with `npm run example:embeddings`.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedMany } from 'ai';
import { createCatalogSource, createBm25fEngine, tokenize } from 'knowledge-kit/agent';
import { fromAISDKEmbeddingModel } from 'knowledge-kit/agent/adapters';
import { loadKnowledgeDirectory, openEmbeddingCache } from 'knowledge-kit/node';

const handbook = fileURLToPath(new URL('./handbook/', import.meta.url));
const heading = (title) => console.log(`\n=== ${title} ===`);

// 1. A toy embedding model in the AI SDK's model shape (`specificationVersion: 'v3'`). Words are
//    mapped to a concept first (so "money back" and "refunds" land on the same dimensions), then
//    hashed into 256 dimensions. It counts the texts it is asked to embed.
const CONCEPTS = { money: 'refund', back: 'refund', refunds: 'refund', parcel: 'delivery' };
const DIMS = 256;
function toyVector(text) {
  const vector = new Array(DIMS).fill(0);
  for (const token of tokenize(text)) {
    const word = CONCEPTS[token] ?? token;
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    vector[(h >>> 0) % DIMS] += 1;
  }
  return vector;
}
const embedded = [];
const toyModel = {
  specificationVersion: 'v3',
  provider: 'example',
  modelId: 'toy-256',
  maxEmbeddingsPerCall: 32, // embedMany splits larger calls
  supportsParallelCalls: true,
  async doEmbed({ values, abortSignal }) {
    abortSignal?.throwIfAborted();
    embedded.push(...values);
    return { embeddings: values.map(toyVector), warnings: [] };
  },
};
// With a real provider: fromAISDKEmbeddingModel(openai.embedding('text-embedding-3-small'), { embedMany })
// or, with the `openai` package: fromOpenAIEmbeddings(new OpenAI(), { model: 'text-embedding-3-small' }).
const embedder = fromAISDKEmbeddingModel(toyModel, { embedMany, maxRetries: 0 });

/** What an app does at startup: load the folder, open the cache, build the source, warm it. */
async function start(folder, cacheFile) {
  const { catalog, files } = await loadKnowledgeDirectory(folder);
  const embeddingCache = await openEmbeddingCache(cacheFile, { model: toyModel.modelId });
  const source = createCatalogSource(catalog, {
    files,
    search: createBm25fEngine({ embedder, embeddingCache }),
  });
  embedded.length = 0;
  await source.warm(); // the lexical index and the chunk vectors; the cache file is saved
  return { source, embeddingCache, embeddedOnStart: embedded.length };
}

const scratch = await mkdtemp(join(tmpdir(), 'knowledge-kit-embeddings-'));
try {
  const folder = join(scratch, 'handbook');
  await cp(handbook, folder, { recursive: true });
  const cacheFile = join(scratch, 'cache', 'embeddings.bin');

  heading('First start: every section is embedded');
  const first = await start(folder, cacheFile);
  console.log(
    `embedded ${first.embeddedOnStart} texts; the cache holds ${first.embeddingCache.size}`,
  );

  // 2. Hybrid search: "money back" shares no word with the refunds section, but its vector is close.
  heading('Hybrid search');
  const result = await first.source.searchFiles({ query: 'When do I get my money back?' });
  console.log(`semanticStatus: ${JSON.stringify(result.semanticStatus)}`);
  for (const item of result.items)
    console.log(
      `${item.path.padEnd(36)} [${item.sectionIds.join(', ')}]  ${item.evidenceTypes.join('+')}  ${item.score.toFixed(4)}`,
    );

  // 3. A restart reads the vectors from the file: nothing is embedded.
  heading('Restart');
  const second = await start(folder, cacheFile);
  console.log(`embedded ${second.embeddedOnStart} texts`);

  // 4. A new revision: one section of one page is edited; only that section is embedded again.
  heading('One section edited');
  const returns = join(folder, 'returns.md');
  await writeFile(
    returns,
    (await readFile(returns, 'utf8')).replace('within 5 working days', 'within 3 working days'),
  );
  const third = await start(folder, cacheFile);
  console.log(
    `embedded ${third.embeddedOnStart} text(s): ${JSON.stringify(embedded[0].slice(0, 60))}…`,
  );

  // 5. An embedder that fails does not fail search: the lexical result stands, and the status says so.
  heading('Embedder down');
  const { catalog, files } = await loadKnowledgeDirectory(folder);
  const down = createCatalogSource(catalog, {
    files,
    search: createBm25fEngine({
      embedder: fromAISDKEmbeddingModel(
        { ...toyModel, doEmbed: async () => Promise.reject(new Error('service down')) },
        { embedMany, maxRetries: 0 },
      ),
    }),
  });
  const lexical = await down.searchFiles({ query: 'refunds' });
  console.log(
    `semanticStatus: ${JSON.stringify(lexical.semanticStatus)}; first: ${lexical.items[0].path}`,
  );

  // 6. The same hybrid search from the PostgreSQL store: the publish stores every chunk's vector in
  //    pgvector, and the source fuses the nearest pages as the in-memory engine does. PGlite loads
  //    pgvector from @electric-sql/pglite-pgvector; a server needs the `vector` extension.
  heading('Hybrid search from PostgreSQL (PGlite with pgvector)');
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { createPostgresSource, migrateKnowledgeStore, publishKnowledge } =
    await import('knowledge-kit/postgres');
  const db = new PGlite({ extensions: { vector } });
  try {
    await migrateKnowledgeStore(db);
    await publishKnowledge(db, { knowledgeBase: 'handbook', catalog, files, embedder });
    const stored = createPostgresSource(db, { knowledgeBase: 'handbook', embedder });
    const fromDb = await stored.searchFiles({ query: 'When do I get my money back?' });
    const inMemory = await third.source.searchFiles({ query: 'When do I get my money back?' });
    console.log(`semanticStatus: ${JSON.stringify(fromDb.semanticStatus)}`);
    for (const item of fromDb.items)
      console.log(
        `${item.path.padEnd(36)} ${item.evidenceTypes.join('+')}  ${item.score.toFixed(4)}`,
      );
    const same = (a) => a.items.map((i) => `${i.fileId} ${i.score}`).join();
    if (same(fromDb) !== same(inMemory))
      throw new Error('the store ranked otherwise than the in-memory engine');
    console.log('the same ranking as the in-memory engine');
  } finally {
    await db.close();
  }

  if (first.embeddedOnStart === 0 || second.embeddedOnStart !== 0 || third.embeddedOnStart !== 1)
    throw new Error('the cache did not save the work it should have');
} finally {
  await rm(scratch, { recursive: true, force: true });
}
