// `npm run bench` (dialect part): what reading docs-site dialects costs a folder's load. The `.md`
// folders of ../shared/corpus/markdown (read in place; skipped when absent) are loaded as a command
// loads them: read and parsed (`loadKnowledgeDirectory`), then given to `createCatalogSource`, whose
// file table takes each page's title and description, and searched once, which builds the search
// index from the pages' chunks. Once with the dialect scanner (`pageText`), once with it bypassed
// (its internal switch), interleaved round by round after a full GC; the ratio of the medians is the
// figure (target: at most 1.15).
//
// The switch lives inside the package's modules, so this bench bundles the sources it needs into one
// module of its own (esbuild, which tsup uses; under node_modules/.cache, removed after loading),
// instead of importing `dist/`.
//
//   node --expose-gc bench/dialect.mjs [--json]
//
// DIALECT_BENCH_ROUNDS (default 5) rounds after 2 warm-up rounds.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { interleave, printTable, requireGc, round } from './harness.mjs';

const json = process.argv.includes('--json');
const ROUNDS = Number(process.env.DIALECT_BENCH_ROUNDS ?? 5);
const CORPUS = fileURLToPath(new URL('../../shared/corpus/markdown', import.meta.url));
const TARGET = 1.15;
requireGc();
const log = (line) => {
  if (!json) console.error(line);
};

if (!existsSync(CORPUS)) {
  log(`dialect bench: no corpus at ${CORPUS}; skipped.`);
  process.exit(0);
}

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the package's node_modules, so the bundle's package imports resolve as the sources' do.
mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(path.join(root, 'node_modules/.cache/kk-dialect-bench-'));
const entry = path.join(out, 'entry.ts');
const bundle = path.join(out, 'bundle.mjs');
writeFileSync(
  entry,
  [
    `export { loadKnowledgeDirectory } from ${JSON.stringify(path.join(root, 'src/node/index.ts'))};`,
    `export { createCatalogSource } from ${JSON.stringify(path.join(root, 'src/agent/index.ts'))};`,
    `export { dialectScanning } from ${JSON.stringify(path.join(root, 'src/markdown/pageText.ts'))};`,
  ].join('\n'),
);
await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  outfile: bundle,
  logLevel: 'error',
});
const { loadKnowledgeDirectory, createCatalogSource, dialectScanning } = await import(
  pathToFileURL(bundle).href
);
rmSync(out, { recursive: true, force: true });

/** The corpus folders that hold only `.md` pages (the load time of today's folders). */
const folders = readdirSync(CORPUS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => path.join(CORPUS, e.name))
  .filter((dir) => !readdirSync(dir, { recursive: true }).some((f) => String(f).endsWith('.mdx')));

/** Load every folder, list its pages' titles, and search once (which builds the index). */
async function loadAll() {
  let pages = 0;
  for (const dir of folders) {
    const loaded = await loadKnowledgeDirectory(dir, { include: ['**/*.md'] });
    const source = createCatalogSource(loaded.catalog, { files: loaded.files });
    const result = await source.searchFiles({ query: 'configuration options', limit: 1 });
    pages += loaded.documents.length + result.items.length;
  }
  return pages;
}

log(`dialect: loading ${folders.length} .md folders of the corpus, with and without the scanner …`);
const times = await interleave(
  {
    'with the dialect scanner': {
      run: () => {
        dialectScanning.enabled = true;
        return loadAll();
      },
    },
    'scanner bypassed': {
      run: () => {
        dialectScanning.enabled = false;
        return loadAll();
      },
    },
  },
  { rounds: ROUNDS, warmup: 2 },
);
dialectScanning.enabled = true;

const value = times['with the dialect scanner'].medianMs / times['scanner bypassed'].medianMs;
const figure = {
  figure: 'load + index of the corpus .md folders: with the dialect scanner / bypassed',
  value: round(value, 3),
  target: `<= ${TARGET}`,
  met: value <= TARGET,
};
if (json) console.log(JSON.stringify({ times, figures: [figure] }));
else {
  printTable(
    Object.entries(times).map(([name, t]) => ({
      contender: name,
      'median ms': round(t.medianMs, 1),
      'min ms': round(t.minMs, 1),
    })),
  );
  printTable([figure]);
}
if (!figure.met) process.exitCode = 1;
