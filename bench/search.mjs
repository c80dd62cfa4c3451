// `npm run bench` (search part): quality and speed of the engine behind `search_files`, side by side in
// one run. Quality: a known-item evaluation on real English and Chinese documents, beside MiniSearch
// with its default tokenizer. Speed: index build and query latency on a ~10 MB knowledge base, beside
// MiniSearch alone on the same chunks and tokens; the tokenizer's throughput; a `read_file` of one small
// section beside the core's `catalog.read`.
//
//   node --expose-gc bench/search.mjs          tables
//   node --expose-gc bench/search.mjs --json   one JSON object
//
// The search engine is internal (no package entry exports it), so this script bundles
// src/agent/search/index.ts with tsup into node_modules/.cache first; `createCatalogSource` comes from
// dist/agent when the package has that entry, else from a bundle of src/agent/index.ts.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import MiniSearch from 'minisearch';
import { build } from 'tsup';
import { prng } from './corpus.mjs';
import { interleave, median, printTable, requireGc, round, sinkValue } from './harness.mjs';
import { knownItemQueries, loadCorpus } from './search-corpus.mjs';

const json = process.argv.includes('--json');
const QUERIES = Number(process.env.SEARCH_BENCH_QUERIES ?? 200);
const BUILD_ROUNDS = Number(process.env.SEARCH_BENCH_BUILD_ROUNDS ?? 5);
const QUERY_ROUNDS = Number(process.env.SEARCH_BENCH_QUERY_ROUNDS ?? 5);
const TARGET_MB = Number(process.env.SEARCH_BENCH_MB ?? 10);
const gc = requireGc();
const log = (line) => {
  if (!json) console.error(line);
};
const root = fileURLToPath(new URL('..', import.meta.url));
const cache = `${root}node_modules/.cache/knowledge-kit-bench`;

async function bundle(name, entry) {
  await build({
    entry: { [name]: `${root}${entry}` },
    outDir: cache,
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    dts: false,
    silent: true,
    config: false,
    clean: false,
    external: ['minisearch'],
  });
  return import(pathToFileURL(`${cache}/${name}.js`).href);
}

log('bundling src/agent/search …');
const search = await bundle('search', 'src/agent/search/index.ts');
let agent;
let agentFrom = 'none';
try {
  if (existsSync(`${root}dist/agent/index.js`)) {
    agent = await import(pathToFileURL(`${root}dist/agent/index.js`).href);
    agentFrom = 'dist/agent';
  } else if (existsSync(`${root}src/agent/index.ts`)) {
    agent = await bundle('agent', 'src/agent/index.ts');
    agentFrom = 'bundle of src/agent/index.ts';
  }
} catch (error) {
  log(
    `createCatalogSource unavailable (${error.message.split('\n')[0]}): the read_file figure is skipped`,
  );
}
if (typeof agent?.createCatalogSource !== 'function') agent = undefined;

const quality = loadCorpus('quality');
if (quality === undefined) {
  console.error(
    `search bench: no corpus at ${process.env.SEARCH_CORPUS ?? '/work/shared/corpus/markdown'} (set SEARCH_CORPUS); skipped.`,
  );
  process.exit(0);
}

/** A catalog and a file table of pages (path order), as the source would build them. */
function knowledgeBase(docs) {
  const documents = [];
  for (const d of docs) {
    try {
      documents.push(parseKnowledgeDocument({ id: d.id, revision: 'r1', text: d.text }));
    } catch {
      // A corpus file the core refuses (malformed anchors of its own) is left out.
    }
  }
  const catalog = defineKnowledgeCatalog(documents);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const pages = documents
    .map((doc) => {
      const d = byId.get(doc.id);
      return {
        kind: 'page',
        fileId: doc.id,
        path: d.path,
        title: d.title,
        description: null,
        frontmatter: {},
        tags: [],
        revision: 'r1',
        locale: d.lang,
      };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const index = new Map(pages.map((p) => [p.fileId, p]));
  const table = {
    activeContentRevision: 'bench',
    pages,
    files: pages,
    byId: (id) => index.get(id),
    byPath: (p) => pages.find((x) => x.path === p),
    directory: () => undefined,
    children: () => undefined,
    closestIds: () => [],
    closestPaths: () => [],
  };
  return { catalog, table, documents };
}
const request = (query) => ({
  query,
  mode: 'hybrid',
  graphDepth: 1,
  graphFanout: 10,
  rerank: false,
  signal: undefined,
});

// ---------------------------------------------------------------------------------------------------
// 1. Quality: known-item queries, our engine beside MiniSearch with its default tokenizer.
log(`quality: ${quality.length} pages, ${QUERIES} queries per language …`);
const qkb = knowledgeBase(quality);
const engine = search.createMemoryRanker(
  search.searchCorpus(qkb.catalog, qkb.table, new Map()),
  search.BM25F_DEFAULTS,
);
await engine.warm();
const baseline = new MiniSearch({ fields: ['title', 'text'] });
baseline.addAll(
  qkb.documents.map((doc) => ({
    id: doc.id,
    title: qkb.table.byId(doc.id).title,
    text: qkb.catalog.read({
      documentId: doc.id,
      selection: { mode: 'document' },
      maxChars: Number.MAX_SAFE_INTEGER,
    }).content,
  })),
);
const random = prng(20261129);
const queries = {
  en: knownItemQueries(quality, 'en', QUERIES, random),
  zh: knownItemQueries(quality, 'zh', QUERIES, random),
};
const evaluate = async (rank) => {
  const out = {};
  for (const [lang, list] of Object.entries(queries)) {
    let mrr = 0;
    let recall = 0;
    for (const q of list) {
      const top = (await rank(q.query)).slice(0, 10);
      const at = top.indexOf(q.answer);
      if (at !== -1) {
        mrr += 1 / (at + 1);
        recall++;
      }
    }
    out[lang] = {
      mrr: round(mrr / list.length, 3),
      recall: round(recall / list.length, 3),
      queries: list.length,
    };
  }
  return out;
};
const ours = await evaluate(async (q) => (await engine.rank(request(q))).hits.map((h) => h.fileId));
const base = await evaluate(async (q) => baseline.search(q).map((r) => r.id));

// ---------------------------------------------------------------------------------------------------
// 2. Speed on ~10 MB: the speed set, repeated under new IDs until it reaches the size.
const speedDocs = loadCorpus('speed');
const oneCopy = speedDocs.reduce((sum, d) => sum + Buffer.byteLength(d.text, 'utf8'), 0);
const copies = Math.max(1, Math.ceil((TARGET_MB * 1e6) / oneCopy));
const all = [];
for (let c = 0; c < copies; c++)
  for (const d of speedDocs)
    all.push({ ...d, id: `c${c}/${d.id}`, path: `pages/c${c}/${d.path.slice(6)}` });
const kb = knowledgeBase(all);
const kbMegabytes = all.reduce((sum, d) => sum + Buffer.byteLength(d.text, 'utf8'), 0) / 1e6;
log(
  `speed: ${round(kbMegabytes, 1)} MB in ${kb.documents.length} pages (${copies} copies of the speed set) …`,
);

// Tokenizer throughput on the same text, beside MiniSearch's default tokenizer and term processing.
const texts = all.map((d) => d.text);
const defaultTokenize = MiniSearch.getDefault('tokenize');
const defaultProcess = MiniSearch.getDefault('processTerm');
const tokenizers = await interleave(
  {
    'tokenize (ours)': { run: () => texts.reduce((n, t) => n + search.tokenize(t).length, 0) },
    'MiniSearch default tokenize + processTerm': {
      run: () => texts.reduce((n, t) => n + defaultTokenize(t).map(defaultProcess).length, 0),
    },
  },
  { rounds: BUILD_ROUNDS, warmup: 1 },
);

// Index build: our warm() (chunking included) beside MiniSearch alone adding the same, precomputed
// chunks with the same options (tokenizer, fields).
const chunks = search.buildChunks(search.searchCorpus(kb.catalog, kb.table, new Map()));
// MiniSearch over the same chunks and file fields, with the same tokenizer (the default engine no
// longer uses MiniSearch: this is the yardstick the issue names).
const options = {
  content: {
    fields: ['content'],
    extractField: (chunk, field) => (field === 'id' ? chunk : chunks.textOf[chunk]),
    tokenize: search.tokenize,
    processTerm: (term) => term,
  },
  files: {
    fields: ['title', 'path', 'description', 'tags'],
    extractField: (page, field) => {
      const record = kb.table.pages[page];
      if (field === 'id') return page;
      if (field === 'tags') return record.tags.join('\n');
      return record[field] ?? undefined;
    },
    tokenize: search.tokenize,
    processTerm: (term) => term,
  },
};
const chunkIds = Array.from({ length: chunks.count }, (_, i) => i);
const pageIds = kb.table.pages.map((_, i) => i);
let built;
const builds = await interleave(
  {
    'engine.warm()': {
      run: async () => {
        built = search.createMemoryRanker(
          search.searchCorpus(kb.catalog, kb.table, new Map()),
          search.BM25F_DEFAULTS,
        );
        await built.warm();
        return 1;
      },
    },
    'MiniSearch alone (same chunks, tokens, fields)': {
      run: () => {
        const content = new MiniSearch(options.content);
        content.addAll(chunkIds);
        const files = new MiniSearch(options.files);
        files.addAll(pageIds);
        return content.documentCount + files.documentCount;
      },
    },
  },
  { rounds: BUILD_ROUNDS, warmup: 1 },
);

// Queries: each query through engine.search (reading the top 10 excerpts, as a page of results
// does) and through MiniSearch alone (the same two searches with the same options), interleaved per
// query (alternating which goes first) after a GC per round; median and p95 over every query of every
// round.
const alone = { content: new MiniSearch(options.content), files: new MiniSearch(options.files) };
alone.content.addAll(chunkIds);
alone.files.addAll(pageIds);
const speedQueries = [...queries.en.slice(0, 50), ...queries.zh.slice(0, 50)].map((q) => q.query);
const latency = { 'engine.search + top-10 excerpts': [], 'MiniSearch alone (same searches)': [] };
const contenders = {
  'engine.search + top-10 excerpts': async (q) => {
    const { hits } = await built.rank(request(q));
    let n = 0;
    for (const hit of hits.slice(0, 10)) n += hit.sourceExcerpt.length;
    return n + hits.length;
  },
  'MiniSearch alone (same searches)': async (q) =>
    alone.content.search(q).length + alone.files.search(q).length,
};
const order = Object.entries(contenders);
const reversed = [...order].reverse();
for (let r = 0; r < QUERY_ROUNDS + 1; r++) {
  gc();
  for (const [i, q] of speedQueries.entries()) {
    // Alternate which contender goes first, so neither always runs on caches the other warmed.
    for (const [name, run] of (i + r) % 2 === 0 ? order : reversed) {
      const start = process.hrtime.bigint();
      await run(q);
      if (r > 0) latency[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
}
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];
const queryTimes = Object.fromEntries(
  Object.entries(latency).map(([name, v]) => [
    name,
    { medianMs: round(median(v), 3), p95Ms: round(p95(v), 3), samples: v.length },
  ]),
);

// read_file of one small section beside catalog.read of it.
let reads;
if (agent !== undefined) {
  const source = agent.createCatalogSource(kb.catalog, {});
  const smallest = kb.documents.find((doc) => kb.catalog.sectionIds(doc.id).length > 2);
  const sectionId = kb.catalog.sectionIds(smallest.id)[1];
  const selection = { mode: 'self', sectionIds: [sectionId] };
  const direct = kb.catalog.read({ documentId: smallest.id, selection }).content;
  const viaSource = (
    await source.readFile({ fileId: smallest.id, sectionIds: [sectionId], mode: 'self' })
  ).content;
  if (direct !== viaSource)
    throw new Error('search bench: read_file content differs from catalog.read');
  reads = await interleave(
    {
      'source.readFile (self, one section)': {
        run: () =>
          source
            .readFile({ fileId: smallest.id, sectionIds: [sectionId], mode: 'self' })
            .then((o) => o.content.length),
        repeat: 2000,
      },
      'catalog.read (same selection)': {
        run: () => kb.catalog.read({ documentId: smallest.id, selection }).content.length,
        repeat: 2000,
      },
    },
    { rounds: QUERY_ROUNDS * 3 },
  );
}

// ---------------------------------------------------------------------------------------------------
const figures = [
  {
    figure: 'Chinese MRR@10 − English MRR@10 (absolute)',
    value: Math.abs(ours.zh.mrr - ours.en.mrr),
    target: 0.1,
    at: 'most',
  },
  {
    figure: 'English MRR@10 − baseline Chinese MRR@10',
    value: ours.en.mrr - base.zh.mrr,
    target: 0.2,
    at: 'least',
  },
  {
    figure: 'Chinese MRR@10 − baseline Chinese MRR@10',
    value: ours.zh.mrr - base.zh.mrr,
    target: 0.2,
    at: 'least',
  },
  {
    figure: 'index build: warm() / MiniSearch alone',
    value:
      builds['engine.warm()'].medianMs /
      builds['MiniSearch alone (same chunks, tokens, fields)'].medianMs,
    target: 1.2,
    at: 'most',
  },
  {
    figure: 'query median: engine / MiniSearch alone',
    value:
      queryTimes['engine.search + top-10 excerpts'].medianMs /
      queryTimes['MiniSearch alone (same searches)'].medianMs,
    target: 1.2,
    at: 'most',
  },
  ...(reads === undefined
    ? []
    : [
        {
          figure: 'read_file of one small section / catalog.read',
          value:
            reads['source.readFile (self, one section)'].medianMs /
            reads['catalog.read (same selection)'].medianMs,
          target: 2,
          at: 'most',
        },
      ]),
].map((f) => ({
  ...f,
  value: round(f.value, 3),
  met: f.at === 'least' ? f.value >= f.target : f.value <= f.target,
}));

const report = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  quality: {
    pages: qkb.documents.length,
    ours,
    baseline: base,
    baselineIs: 'MiniSearch defaults, one entry per page (title, full text)',
  },
  speed: {
    megabytes: round(kbMegabytes, 2),
    pages: kb.documents.length,
    chunks: chunks.count,
    tokenizer: Object.fromEntries(
      Object.entries(tokenizers).map(([n, r]) => [
        n,
        {
          medianMs: round(r.medianMs, 1),
          mbPerSecond: round(kbMegabytes / (r.medianMs / 1000), 1),
        },
      ]),
    ),
    build: Object.fromEntries(
      Object.entries(builds).map(([n, r]) => [
        n,
        { medianMs: round(r.medianMs, 1), minMs: round(r.minMs, 1), samples: r.samples },
      ]),
    ),
    query: queryTimes,
    read:
      reads === undefined
        ? `skipped: createCatalogSource not available (${agentFrom})`
        : Object.fromEntries(
            Object.entries(reads).map(([n, r]) => [n, { medianMs: round(r.medianMs, 5) }]),
          ),
  },
  figures,
  allTargetsMet: figures.every((f) => f.met),
  sink: sinkValue(),
};

if (json) {
  console.log(JSON.stringify(report));
} else {
  console.log(`Search bench — ${report.node}, ${report.cpu} (${report.cores} cores)\n`);
  console.log(
    `Quality: known-item queries on ${report.quality.pages} real pages (English: Rust book, tldr; Chinese: Vue docs, ES6 tutorial, tldr); baseline: ${report.quality.baselineIs}`,
  );
  printTable(
    ['en', 'zh'].flatMap((lang) => [
      {
        engine: 'ours',
        language: lang,
        queries: ours[lang].queries,
        'MRR@10': ours[lang].mrr,
        'recall@10': ours[lang].recall,
      },
      {
        engine: 'MiniSearch default tokenizer',
        language: lang,
        queries: base[lang].queries,
        'MRR@10': base[lang].mrr,
        'recall@10': base[lang].recall,
      },
    ]),
  );
  console.log(
    `\nSpeed: ${report.speed.megabytes} MB, ${report.speed.pages} pages, ${report.speed.chunks} chunks; build medians of ${BUILD_ROUNDS} interleaved rounds, queries ${speedQueries.length} × ${QUERY_ROUNDS} rounds`,
  );
  printTable([
    ...Object.entries(report.speed.tokenizer).map(([n, r]) => ({
      contender: n,
      'median ms': r.medianMs,
      'p95 ms': '',
      'MB/s': r.mbPerSecond,
    })),
    ...Object.entries(report.speed.build).map(([n, r]) => ({
      contender: n,
      'median ms': r.medianMs,
      'p95 ms': '',
      'MB/s': round(kbMegabytes / (r.medianMs / 1000), 1),
    })),
    ...Object.entries(report.speed.query).map(([n, r]) => ({
      contender: n,
      'median ms': r.medianMs,
      'p95 ms': r.p95Ms,
      'MB/s': '',
    })),
    ...(typeof report.speed.read === 'string'
      ? []
      : Object.entries(report.speed.read).map(([n, r]) => ({
          contender: n,
          'median ms': r.medianMs,
          'p95 ms': '',
          'MB/s': '',
        }))),
  ]);
  if (typeof report.speed.read === 'string') console.log(`read_file: ${report.speed.read}`);
  console.log('');
  printTable(
    figures.map((f) => ({
      figure: f.figure,
      value: f.value,
      target: `${f.at === 'least' ? '>=' : '<='} ${f.target}`,
      met: f.met ? 'yes' : 'MISSED',
    })),
  );
}
