// `npm run bench:static`: static bundles (docs/static.md) at a few sizes. For each knowledge base —
// generated pages (STATIC_BENCH_PAGES, comma-separated, default 1000,10000; bench/corpus.mjs's
// section-dense Markdown, about 2 KB a page, each linking to 3 others) and the real documentation of
// the search bench's corpus when it is there — it reports:
// - the export's time, and the bundle's bytes over the source Markdown's bytes (and its search index's);
// - per query (STATIC_BENCH_QUERIES, default 40: known-item questions from the pages' own sentences),
//   what a first visitor fetches from a static file server on loopback (a fresh source: manifest,
//   search manifest, dictionary, postings and page shards, hit pages): requests and bytes, as sent and
//   gzipped (what a CDN sends), median and 95th percentile;
// - the median time of a query: the static source over loopback, first visit (nothing kept) and
//   again (its shards kept), beside the in-memory engine (`createCatalogSource`) on the same pages;
// - the median time of one `get_file`, `read_file` (a whole small page) and `list_tree` (a window of
//   20 in a page folder) on a source over the bundle's folder (`readBundleDirectory`) whose revision
//   is already indexed: a call should cost what it touches, so these stay flat as the pages grow.
// Not part of npm test. Figures and what they mean: docs/static.md, docs/performance.md.
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource, createStaticSource } from 'knowledge-kit/agent';
import { exportKnowledgeBundle, readBundleDirectory } from 'knowledge-kit/node';
import { generateDenseCorpus, prng } from './corpus.mjs';
import { median, printTable, round } from './harness.mjs';
import { loadCorpus } from './search-corpus.mjs';

const sizes = (process.env.STATIC_BENCH_PAGES ?? '1000,10000').split(',').map(Number);
const queryCount = Number(process.env.STATIC_BENCH_QUERIES ?? 40);

/** A static file server on loopback that counts requests and bytes (as sent, and gzipped). */
async function serve(dir) {
  const root = resolve(dir);
  const gz = new Map();
  const stats = { requests: 0, bytes: 0, gzip: 0 };
  const server = createServer(async (request, response) => {
    stats.requests++;
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = join(root, ...path.split('/'));
    if (!file.startsWith(root + sep)) return response.writeHead(404).end();
    try {
      const body = await readFile(file);
      stats.bytes += body.length;
      if (!gz.has(file)) gz.set(file, gzipSync(body).length);
      stats.gzip += gz.get(file);
      response.writeHead(200, { 'content-length': body.length }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    stats,
    reset: () => Object.assign(stats, { requests: 0, bytes: 0, gzip: 0 }),
    close: () => new Promise((done) => (server.closeAllConnections(), server.close(done))),
  };
}

/** Generated pages: section-dense Markdown, a title, links to 3 other pages. */
function generated(size) {
  const pages = [];
  for (let n = 0; n < size; n++) {
    const links = [1, 2, 3]
      .map((k) => (n * 31 + k * 977) % size)
      .filter((m) => m !== n)
      .map((m) => `[page ${m}](/pages/g${String(m).slice(0, 2)}/p${m}.md)`);
    const body = generateDenseCorpus(2000, 1000 + n);
    pages.push({
      id: `p${n}`,
      path: `pages/g${String(n).slice(0, 2)}/p${n}.md`,
      text: `# Page ${n}\n\nSee ${links.join(', ')}.\n\n${body}\n`,
    });
  }
  return pages;
}

/** Known-item questions: 3 to 8 words (or 6 to 16 characters) of a random page's own prose line. */
function questions(pages, count, seed) {
  const random = prng(seed);
  const out = [];
  for (let attempt = 0; out.length < count && attempt < count * 50; attempt++) {
    const page = pages[Math.floor(random() * pages.length)];
    const lines = page.text
      .split('\n')
      .filter((l) => l.length > 20 && !/^\s*(<!--|```|~~~|[#|>-])/.test(l));
    if (lines.length === 0) continue;
    const line = lines[Math.floor(random() * lines.length)];
    const words = line.split(/\s+/).filter(Boolean);
    if (words.length >= 4) {
      const n = 3 + Math.floor(random() * 6);
      const at = Math.floor(random() * Math.max(1, words.length - n));
      out.push(words.slice(at, at + n).join(' '));
    } else {
      const n = 6 + Math.floor(random() * 11);
      const at = Math.floor(random() * Math.max(1, line.length - n));
      out.push(line.slice(at, at + n));
    }
  }
  return out;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

async function measure(name, pages) {
  const documents = [];
  const files = {};
  let sourceBytes = 0;
  for (const p of pages) {
    try {
      documents.push(parseKnowledgeDocument({ id: p.id, revision: 'r1', text: p.text }));
      files[p.id] = { path: p.path };
      sourceBytes += Buffer.byteLength(p.text);
    } catch {
      // A corpus file the core refuses is left out.
    }
  }
  const reference = createCatalogSource(defineKnowledgeCatalog(documents), { id: 'bench', files });
  const dir = await mkdtemp(join(tmpdir(), 'kk-bench-static-'));
  try {
    let start = performance.now();
    const exported = await exportKnowledgeBundle(reference, { out: dir, id: 'bench' });
    const exportMs = performance.now() - start;
    let bundleBytes = 0;
    let searchBytes = 0;
    for (const path of exported.written) {
      const size = (await readFile(join(dir, ...path.split('/')))).length;
      bundleBytes += size;
      if (path.startsWith('_index/search/')) searchBytes += size;
    }
    const server = await serve(dir);
    const asked = questions(pages, queryCount, 24);
    const requests = [];
    const bytes = [];
    const gzip = [];
    const cold = [];
    const warm = [];
    const memory = [];
    const kept = createStaticSource({ baseUrl: server.url });
    await reference.warm?.();
    for (const query of asked) {
      // A first visitor: a fresh source keeps nothing.
      const fresh = createStaticSource({ baseUrl: server.url });
      server.reset();
      start = performance.now();
      const got = await fresh.searchFiles({ query });
      cold.push(performance.now() - start);
      requests.push(server.stats.requests);
      bytes.push(server.stats.bytes);
      gzip.push(server.stats.gzip);
      await kept.searchFiles({ query });
      start = performance.now();
      await kept.searchFiles({ query });
      warm.push(performance.now() - start);
      start = performance.now();
      const want = await reference.searchFiles({ query });
      memory.push(performance.now() - start);
      if (JSON.stringify(got.items) !== JSON.stringify(want.items))
        throw new Error(`${name}: the static source ranked ${JSON.stringify(query)} differently`);
    }
    await server.close();
    // One call's cost once the revision is indexed, on pages spread over the knowledge base.
    const local = createStaticSource({ read: readBundleDirectory(dir) });
    const ids = documents.map((d) => d.id);
    const folders = [
      ...new Set(Object.values(files).map((f) => f.path.slice(0, f.path.lastIndexOf('/')))),
    ];
    const perCall = async (call) => {
      await call(0);
      const times = [];
      for (let i = 1; i <= 60; i++) {
        start = performance.now();
        await call(i);
        times.push(performance.now() - start);
      }
      return round(median(times), 2);
    };
    const pick = (i) => ids[(i * 7919) % ids.length];
    const getFileMs = await perCall((i) => local.getFile({ fileId: pick(i) }));
    const readFileMs = await perCall((i) => local.readFile({ fileId: pick(i) }));
    const listTreeMs = await perCall((i) =>
      local.listTree({ parentPath: folders[i % folders.length], limit: 20 }),
    );
    return {
      'knowledge base': name,
      pages: documents.length,
      'export s': round(exportMs / 1000, 1),
      'bundle/source': round(bundleBytes / sourceBytes, 2),
      'search index/source': round(searchBytes / sourceBytes, 2),
      'requests/query p50': median(requests),
      'KB/query p50': round(median(bytes) / 1024, 0),
      'KB/query p95': round(percentile(bytes, 0.95) / 1024, 0),
      'gzip KB/query p50': round(median(gzip) / 1024, 0),
      'gzip KB/query p95': round(percentile(gzip, 0.95) / 1024, 0),
      'first-visit ms': round(median(cold), 1),
      'kept-shards ms': round(median(warm), 2),
      'in-memory ms': round(median(memory), 2),
      'get_file ms': getFileMs,
      'read_file ms': readFileMs,
      'list_tree ms': listTreeMs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const size of sizes) rows.push(await measure(`generated ${size}`, generated(size)));
const real = loadCorpus('speed');
if (real !== undefined)
  rows.push(
    await measure(
      'real docs (search corpus)',
      real.map((d) => ({ id: d.id, path: d.path, text: d.text })),
    ),
  );
else console.error('static bench: no search corpus (set SEARCH_CORPUS); real docs skipped.');
console.log('\nStatic bundles: size, and what one query fetches from a static server (loopback)\n');
printTable(rows);
