// `npm run bench:bigpage` (and last in `npm run bench`): one very large page in a static bundle.
// A page of BIGPAGE_MB megabytes (default 50; prose in sections of about 64 KB, generated in a temp
// folder, never committed) is exported once; then, each in a fresh process so nothing is kept or
// warmed, the static source over the folder (`readBundleDirectory`) answers:
// - `read_file` (the first part, as an agent reads a page), `get_file`, and a `search_files` whose hit
//   is the page (its excerpt reads the page's text);
// - for each: the first call's time, the longest the event loop was blocked meanwhile, the peak
//   resident memory over the process's before the call (as a multiple of the page's bytes), then a
//   second call's time.
// Also what the default `maxFileBytes` (64 MiB) does to a page above it. Not part of npm test.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource, createStaticSource } from 'knowledge-kit/agent';
import { exportKnowledgeBundle, readBundleDirectory } from 'knowledge-kit/node';
import { prng } from './corpus.mjs';
import { printTable, round } from './harness.mjs';

const WORDS =
  'renewal notice parcel invoice warehouse ledger customer account refund policy shipment carrier tariff quota audit schedule region archive record index batch status'.split(
    ' ',
  );

/** A page of about `bytes` bytes: `##` sections of about 64 KB of prose, one rare word at the end. */
function bigPage(bytes, seed) {
  const random = prng(seed);
  const parts = ['# Big page', ''];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    const section = [`## Section ${n++}`, ''];
    let chars = 0;
    while (chars < 64 * 1024) {
      const words = [];
      for (let i = 0; i < 60; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
      const line = `${words.join(' ')}.`;
      section.push(line, '');
      chars += line.length + 2;
    }
    parts.push(...section);
    size += chars;
  }
  parts.push('## Last section', '', 'The zanzibarite clause ends the page.', '');
  return parts.join('\n');
}

/** The peak resident set of this process so far (`VmHWM`), in bytes. */
const peakRss = () =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

/** In a fresh process: one call on the bundle at `dir`, measured. */
async function child(dir, call, pageBytes) {
  const source = createStaticSource({ read: readBundleDirectory(dir) });
  const calls = {
    read_file: () => source.readFile({ fileId: 'big' }),
    get_file: () => source.getFile({ fileId: 'big' }),
    search_files: () => source.searchFiles({ query: 'zanzibarite clause' }),
  };
  await source.listTree({}); // the manifest and files.json: not the page's cost
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let start = performance.now();
  const answer = await calls[call]();
  const first = performance.now() - start;
  loop.disable();
  const peak = peakRss();
  start = performance.now();
  await calls[call]();
  const again = performance.now() - start;
  if (call === 'search_files' && answer.items[0]?.path !== 'pages/big.md')
    throw new Error('the search missed the big page');
  return {
    call,
    'first ms': round(first, 0),
    'longest block ms': round(loop.max / 1e6, 0),
    'peak RSS / page': round((peak - before) / pageBytes, 1),
    'again ms': round(again, 0),
  };
}

if (process.argv[2] === '--child') {
  const [, , , dir, call, pageBytes] = process.argv;
  console.log(JSON.stringify(await child(dir, call, Number(pageBytes))));
} else {
  const megabytes = Number(process.env.BIGPAGE_MB ?? 50);
  const text = bigPage(megabytes * 1e6, 7);
  const pageBytes = Buffer.byteLength(text);
  const dir = await mkdtemp(join(tmpdir(), 'kk-bench-bigpage-'));
  try {
    let start = performance.now();
    const documents = [
      parseKnowledgeDocument({ id: 'big', revision: 'r1', text }),
      parseKnowledgeDocument({ id: 'small', revision: 'r1', text: '# Small\n\nA small page.\n' }),
    ];
    const source = createCatalogSource(defineKnowledgeCatalog(documents), {
      id: 'bench',
      files: { big: { path: 'pages/big.md' }, small: { path: 'pages/small.md' } },
    });
    await exportKnowledgeBundle(source, { out: dir, id: 'bench' });
    const exportS = (performance.now() - start) / 1000;
    const rows = [];
    for (const call of ['read_file', 'get_file', 'search_files']) {
      const run = spawnSync(
        process.execPath,
        ['--expose-gc', fileURLToPath(import.meta.url), '--child', dir, call, String(pageBytes)],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      );
      if (run.status !== 0) throw new Error(`${call}: ${run.stderr}`);
      rows.push(JSON.parse(run.stdout.trim().split('\n').pop()));
    }
    console.log(
      `\nOne page of ${round(pageBytes / 1e6, 1)} MB in a static bundle (export ${round(exportS, 1)} s), each call in a fresh process\n`,
    );
    printTable(rows);
    // Over the default cap: refused as a file of the bundle, never held.
    start = performance.now();
    const capped = createStaticSource({
      read: readBundleDirectory(dir),
      maxFileBytes: Math.floor(pageBytes / 2),
    });
    const refused = await capped.readFile({ fileId: 'big' }).then(
      () => 'served',
      (error) => error.code,
    );
    console.log(
      `\nWith maxFileBytes under the page's size: ${refused} in ${round(performance.now() - start, 0)} ms.`,
    );
  } finally {
    // BIGPAGE_KEEP=1 leaves the bundle for a profiler (`node --cpu-prof bench/bigpage.mjs --child …`).
    if (process.env.BIGPAGE_KEEP === '1') console.log(`\nBundle kept at ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}
