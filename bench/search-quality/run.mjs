// `npm run bench:search-quality`: how well `search_files` finds what people ask, beside the engines a
// user would pick instead, each given the same pages, in one run, on real documentation read in place
// from ../shared/corpus/markdown (beside the repository; SEARCH_QUALITY_CORPUS overrides it).
//
//   node bench/search-quality/run.mjs          tables
//   node bench/search-quality/run.mjs --json   one JSON object (add --queries for every query's
//                                              reciprocal rank per engine)
//
// Two evaluations per language:
//   natural-language questions written by reading the pages (questions.en.json, questions.zh.json),
//     each with its kind and a `tune` or `heldout` half fixed in the file;
//   known-item queries generated from the pages' own prose (known-items.mjs, fixed seed);
// and short queries by style on docs sites' folders (styles.en.json, styles.zh.json: names, keywords,
// comparisons, troubleshooting), graded 1-3, halves fixed by a hash of folder and query. Every
// style, the questions and the known items are printed with MRR@5, MRR@10 and nDCG@5 per half.
// Metrics at 10: MRR, nDCG (binary relevance), recall. Also each engine's index build time and mean
// query time (same machine, same run; each timed pass runs each query on every engine in turn; a
// query's time is its median over SEARCH_QUALITY_QUERY_ROUNDS passes, 5), the mean over the
// natural-language questions beside the peer the issue names (MiniSearch default for English,
// MiniSearch with CJK bigrams for Chinese), for knowledge-kit's whole `searchFiles` call and for
// its engine alone. Needs `dist/` (`npm run bench:search-quality` runs tsup first). Environment:
// SEARCH_QUALITY_KNOWN (known items per folder, 60), SEARCH_QUALITY_BUILD_ROUNDS (builds per index,
// median, 1), SEARCH_QUALITY_QUERY_ROUNDS (timed passes, 5).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKnowledgeDirectory } from 'knowledge-kit/node';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource } from 'knowledge-kit/agent';
import { median, printTable, round } from '../harness.mjs';
import {
  TOP,
  knowledgeKit,
  lunrEngine,
  miniSearchBigrams,
  miniSearchDefault,
  miniSearchTitleBoost,
  pgliteEngine,
  pgliteStoreEngine,
} from './engines.mjs';
import { knownItemQueries } from './known-items.mjs';

const json = process.argv.includes('--json');
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const corpus = path.resolve(
  root,
  process.env.SEARCH_QUALITY_CORPUS ?? path.join('..', 'shared', 'corpus', 'markdown'),
);
const KNOWN_PER_FOLDER = Number(process.env.SEARCH_QUALITY_KNOWN ?? 60);
const BUILD_ROUNDS = Math.max(1, Number(process.env.SEARCH_QUALITY_BUILD_ROUNDS ?? 1));
const QUERY_ROUNDS = Math.max(1, Number(process.env.SEARCH_QUALITY_QUERY_ROUNDS ?? 5));
const SEED = 20261201;
const log = (line) => {
  if (!json) console.error(line);
};

if (!existsSync(corpus)) {
  console.log(`search-quality bench: no corpus at ${corpus}; skipped (nothing measured).`);
  process.exit(0);
}

const sets = ['en', 'zh'].map((lang) =>
  JSON.parse(readFileSync(path.join(here, `questions.${lang}.json`), 'utf8')),
);
// Short queries by style (names, keywords, comparisons, troubleshooting), graded, on the docs sites'
// folders beside the questions' folders (styles.en.json, styles.zh.json).
const styleSets = ['en', 'zh'].map((lang) =>
  JSON.parse(readFileSync(path.join(here, `styles.${lang}.json`), 'utf8')),
);
/** FNV-1a (32 bits) of a string's UTF-8 bytes: the style sets' halves. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// ---------------------------------------------------------------------------------------------------
// Folders: loaded as a user would load them.

/** Headings of a Markdown body outside fences, `{#id}` and inline code marks removed, lower case. */
function headings(body) {
  const out = [];
  let fence = null;
  for (const line of body.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = null;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) out.push(normalizeHeading(h[1]));
  }
  return out;
}
const normalizeHeading = (text) =>
  text
    .replace(/\{#[^}]*\}/g, '')
    .replace(/<sup[^>]*>(<\/sup>)?/g, '')
    .replace(/[`*_\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * Load `dir` with `loadKnowledgeDirectory`. If the folder as a whole is refused, each file is loaded
 * alone (an `include` of that one file), the refused ones skipped and counted, and the documents put
 * into one catalog.
 */
async function loadFolder(dir, exclude = []) {
  // The loader takes `exclude` only non-empty.
  const without = (list) => (list.length === 0 ? {} : { exclude: list });
  try {
    return { loaded: await loadKnowledgeDirectory(dir, without(exclude)), skipped: [] };
  } catch (error) {
    if (!Array.isArray(error?.issues)) throw error;
    const bad = new Set(error.issues.map((i) => i.file).filter(Boolean));
    const files = {};
    const paths = {};
    const documents = [];
    const skipped = [...bad].sort();
    const all = await loadKnowledgeDirectory(dir, without([...exclude, ...skipped])).catch(
      () => undefined,
    );
    if (all !== undefined) return { loaded: all, skipped };
    // Still refused (a problem spanning files): load one file at a time.
    const { readdirSync } = await import('node:fs');
    const list = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.md'));
    for (const file of list.map((f) => String(f).split(path.sep).join('/')).sort()) {
      try {
        const one = await loadKnowledgeDirectory(dir, { include: [file], ...without(exclude) });
        for (const doc of one.documents) documents.push(doc);
        Object.assign(files, one.files);
        Object.assign(paths, one.paths);
      } catch {
        if (!skipped.includes(file)) skipped.push(file);
      }
    }
    return { loaded: { catalog: defineKnowledgeCatalog(documents), files, paths }, skipped };
  }
}

const folders = [];
// Every folder once: the questions' folders (with known items) and the style sets' folders.
const folderSpecs = [];
for (const set of sets)
  for (const [name, rel] of Object.entries(set.folders))
    folderSpecs.push({ name, rel, exclude: [], lang: set.language, known: true });
for (const set of styleSets)
  for (const [name, spec] of Object.entries(set.folders)) {
    const same = folderSpecs.find((f) => f.name === name);
    if (same !== undefined) {
      if (same.rel !== spec.dir)
        throw new Error(`styles.${set.language}.json: folder ${name} is ${same.rel} elsewhere`);
      continue;
    }
    folderSpecs.push({
      name,
      rel: spec.dir,
      exclude: spec.exclude ?? [],
      lang: set.language,
      known: false,
    });
  }
{
  for (const { name, rel, exclude, lang, known } of folderSpecs) {
    const set = { language: lang };
    const dir = path.join(corpus, rel);
    if (!existsSync(dir)) {
      console.log(`search-quality bench: no folder ${dir}; skipped (nothing measured).`);
      process.exit(0);
    }
    const started = performance.now();
    const { loaded, skipped } = await loadFolder(dir, exclude);
    const loadMs = performance.now() - started;
    const pathOf = (id) => loaded.paths[id];
    const pages = Object.keys(loaded.paths)
      .sort()
      .map((id) => ({
        id: loaded.paths[id],
        title: loaded.files[id]?.title ?? '',
        body: loaded.catalog.read({
          documentId: id,
          selection: { mode: 'document' },
          maxChars: Number.MAX_SAFE_INTEGER,
        }).content,
      }));
    folders.push({
      name,
      rel,
      dir,
      lang: set.language,
      loaded,
      pathOf,
      pages,
      skipped,
      loadMs,
      known,
    });
    log(
      `${name} (${rel}): ${pages.length} pages loaded in ${round(loadMs, 0)} ms` +
        (skipped.length > 0 ? `, ${skipped.length} refused and skipped` : ''),
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Queries: the question sets (checked against the pages) and the generated known items.

const queries = [];
for (const set of sets) {
  const seen = new Set();
  for (const q of set.questions) {
    const where = `questions.${set.language}.json ${q.id}`;
    const folder = folders.find((f) => f.name === q.folder);
    if (folder === undefined) throw new Error(`${where}: unknown folder ${q.folder}`);
    if (seen.has(q.id)) throw new Error(`${where}: duplicate id`);
    seen.add(q.id);
    if (!set.kinds.includes(q.kind)) throw new Error(`${where}: unknown kind ${q.kind}`);
    if (q.half !== 'tune' && q.half !== 'heldout') throw new Error(`${where}: half ${q.half}`);
    if (!Array.isArray(q.relevant) || q.relevant.length === 0)
      throw new Error(`${where}: no relevant page`);
    for (const p of q.relevant) {
      const page = folder.pages.find((x) => x.id === p);
      if (page === undefined) throw new Error(`${where}: no page ${p} in ${folder.rel}`);
      if (q.section !== undefined && p === q.relevant[0]) {
        if (!headings(page.body).includes(normalizeHeading(q.section)))
          throw new Error(`${where}: no heading "${q.section}" in ${p}`);
      }
    }
    queries.push({
      set: 'natural',
      lang: set.language,
      folder: q.folder,
      id: q.id,
      kind: q.kind,
      half: q.half,
      query: q.query,
      relevant: q.relevant,
      // Graded for the style table: the first page 3, the others 2.
      grades: new Map(q.relevant.map((p, i) => [p, i === 0 ? 3 : 2])),
      section: q.section,
    });
  }
  // The rule of the halves, checked: alternate by position within each language's file.
  set.questions.forEach((q, i) => {
    const want = i % 2 === 0 ? 'tune' : 'heldout';
    if (q.half !== want)
      throw new Error(`questions.${set.language}.json ${q.id}: half ${q.half}, rule says ${want}`);
  });
}
let seedOffset = 0;
for (const folder of folders.filter((f) => f.known)) {
  const items = knownItemQueries(folder.pages, folder.lang, KNOWN_PER_FOLDER, SEED + seedOffset++);
  items.forEach((item, i) =>
    queries.push({
      set: 'known',
      lang: folder.lang,
      folder: folder.name,
      id: `${folder.name}-k${i + 1}`,
      kind: 'known-item',
      half: null,
      query: item.query,
      relevant: item.relevant,
      grades: new Map(item.relevant.map((p) => [p, 3])),
    }),
  );
}
// The style sets: each judgment checked against the pages, the halves against the hash rule.
for (const set of styleSets) {
  const seen = new Set();
  for (const q of set.queries) {
    const where = `styles.${set.language}.json ${q.id}`;
    const folder = folders.find((f) => f.name === q.folder);
    if (folder === undefined) throw new Error(`${where}: unknown folder ${q.folder}`);
    if (seen.has(q.id)) throw new Error(`${where}: duplicate id`);
    seen.add(q.id);
    if (!set.styles.includes(q.style)) throw new Error(`${where}: unknown style ${q.style}`);
    const want = fnv1a(`${q.folder}\n${q.query}`) % 2 === 0 ? 'tune' : 'heldout';
    if (q.half !== want) throw new Error(`${where}: half ${q.half}, the hash rule says ${want}`);
    const grades = new Map(Object.entries(q.judgments));
    if (![...grades.values()].includes(3)) throw new Error(`${where}: no page graded 3`);
    for (const [p, g] of grades) {
      if (![1, 2, 3].includes(g)) throw new Error(`${where}: grade ${g} of ${p} is not 1, 2 or 3`);
      if (!folder.pages.some((x) => x.id === p))
        throw new Error(`${where}: no page ${p} in ${folder.rel}`);
    }
    queries.push({
      set: 'style',
      lang: set.language,
      folder: q.folder,
      id: q.id,
      kind: q.style,
      half: q.half,
      query: q.query,
      // Relevant for MRR and recall: the pages graded 2 or 3.
      relevant: [...grades].filter(([, g]) => g >= 2).map(([p]) => p),
      grades,
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Run every engine on every folder it supports.

/**
 * Graded figures at 5 and 10: reciprocal rank of the first page graded 2 or 3 (MRR@5, MRR@10), and
 * nDCG@5 with gain 2^grade - 1 over the ideal order of the judged pages.
 */
function graded(ranked, grades) {
  let rr5 = 0;
  let rr10 = 0;
  let dcg = 0;
  ranked.slice(0, TOP).forEach((p, i) => {
    const g = grades.get(p) ?? 0;
    if (g >= 2 && rr10 === 0) {
      rr10 = 1 / (i + 1);
      if (i < 5) rr5 = rr10;
    }
    if (i < 5) dcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  const ideal = [...grades.values()]
    .sort((a, b) => b - a)
    .slice(0, 5)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  return { rr5, rr10, ndcg5: dcg / ideal };
}

function scores(ranked, relevant) {
  const top = ranked.slice(0, TOP);
  const want = new Set(relevant);
  let rr = 0;
  let dcg = 0;
  let found = 0;
  top.forEach((p, i) => {
    if (!want.has(p)) return;
    if (rr === 0) rr = 1 / (i + 1);
    dcg += 1 / Math.log2(i + 2);
    found++;
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(want.size, TOP); i++) ideal += 1 / Math.log2(i + 2);
  return { rr, ndcg: dcg / ideal, recall: found / want.size };
}

// SEARCH_QUALITY_ENGINES: a comma-separated subset of engine names (for quick iterations).
const only = process.env.SEARCH_QUALITY_ENGINES?.split(',').map((s) => s.trim());
// An engine runs when its name contains one of them (`MiniSearch` runs both MiniSearch engines;
// names such as `MiniSearch, default` hold a comma themselves).
const wanted = (name) => only === undefined || only.some((o) => o !== '' && name.includes(o));
const engines = [
  knowledgeKit,
  miniSearchDefault,
  miniSearchBigrams,
  miniSearchTitleBoost,
  lunrEngine,
].filter((e) => wanted(e.name));
const pg = wanted('PostgreSQL FTS (PGlite)') ? await pgliteEngine() : undefined;
if (pg !== undefined) engines.push(pg);
else if (only === undefined) log('PGlite not installed: PostgreSQL full text skipped');
// The PostgreSQL store runs when asked for by name only (SEARCH_QUALITY_ENGINES=store): it publishes
// every folder first, and ranks as `knowledge-kit` does.
const store = only?.some((o) => o === 'store' || o.includes('PostgreSQL store'))
  ? await pgliteStoreEngine()
  : undefined;
if (store !== undefined) engines.push(store);

const results = []; // { engine, query, rr, ndcg, recall, ms }
const extraTimes = []; // { engine, query, ms }: extra timings (not scored)
const builds = []; // { engine, folder, lang, ms }
for (const folder of folders) {
  const here = engines.filter((engine) => engine.languages.includes(folder.lang));
  const mine = queries.filter((q) => q.folder === folder.name);
  const built = [];
  for (const engine of here) {
    log(`${engine.name} on ${folder.name} …`);
    // Index build: the median of BUILD_ROUNDS builds (default 1), each after a GC when exposed.
    const times = [];
    let index;
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      globalThis.gc?.();
      const started = performance.now();
      index = await engine.build(folder);
      times.push(performance.now() - started);
    }
    builds.push({ engine: engine.name, folder: folder.name, lang: folder.lang, ms: median(times) });
    // The first pass is scored (and warms the engine up).
    const ranked = [];
    for (const q of mine) ranked.push(await index.search(q.query));
    const rows = mine.map((q, i) => ({
      engine: engine.name,
      query: q,
      ms: 0,
      ...scores(ranked[i], q.relevant),
      ...graded(ranked[i], q.grades),
    }));
    results.push(...rows);
    built.push({ index, rows, name: engine.name });
  }
  // The timed passes, engines side by side: each query on every engine (and every extra timing an
  // engine offers, such as knowledge-kit's engine without the tool around it) in turn, the order
  // rotating from query to query and round to round, so that a busy moment of a shared machine falls
  // on all of them. QUERY_ROUNDS passes; a query's time is its median over them.
  // The style queries are scored, not timed (the speed figures stay those of the questions and
  // known items).
  const timedQueries = mine.filter((q) => q.set !== 'style');
  const timers = built.flatMap(({ index, rows: all, name }) => {
    const rows = all.filter((r) => r.query.set !== 'style');
    return [
      { run: (q) => index.search(q), rows },
      ...Object.entries(index.timed ?? {}).map(([label, run]) => {
        const extra = timedQueries.map((q) => ({ engine: `${name}, ${label}`, query: q, ms: 0 }));
        extraTimes.push(...extra);
        return { run, rows: extra };
      }),
    ];
  });
  const samples = timers.map(() => timedQueries.map(() => []));
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    globalThis.gc?.();
    for (let i = 0; i < timedQueries.length; i++) {
      for (let k = 0; k < timers.length; k++) {
        const at = (i + k + round) % timers.length;
        const t = performance.now();
        await timers[at].run(timedQueries[i].query);
        samples[at][i].push(performance.now() - t);
      }
    }
  }
  timers.forEach((timer, at) =>
    timer.rows.forEach((row, i) => {
      row.ms = median(samples[at][i]);
      row.minMs = Math.min(...samples[at][i]);
    }),
  );
}
await pg?.close();
await store?.close();

// ---------------------------------------------------------------------------------------------------
// Sections (issue 22 item 4). The corpus has no anchor lines, so its pages have no sections; here each
// page is given one section per heading (anchor lines added around it, nested by heading level,
// outside fenced code), and for every question whose answer is one section, knowledge-kit is asked
// the question: is the first of the answer page's `sectionIds` the section under that heading?

/** A page body with anchor lines around each heading's section; and section ID → heading. */
function withAnchors(body) {
  const out = [];
  const heading = new Map();
  const open = []; // { id, level }
  let fence = null;
  let n = 0;
  for (const line of body.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = null;
      out.push(line);
      continue;
    }
    if (f) fence = f[1];
    const h = fence === null ? /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (h) {
      const level = h[1].length;
      while (open.length > 0 && open[open.length - 1].level >= level)
        out.push('', `<!-- /agent-section:${open.pop().id} -->`, '');
      const id = `s${++n}`;
      heading.set(id, normalizeHeading(h[2]));
      open.push({ id, level });
      out.push('', `<!-- agent-section:${id} -->`, '');
    }
    out.push(line);
  }
  while (open.length > 0) out.push('', `<!-- /agent-section:${open.pop().id} -->`, '');
  return { text: out.join('\n'), heading };
}

const sectionRuns = [];
if (wanted('knowledge-kit')) {
  for (const folder of folders) {
    const mine = queries.filter(
      (q) => q.folder === folder.name && q.set === 'natural' && q.section !== undefined,
    );
    if (mine.length === 0) continue;
    const headingOf = new Map();
    const documents = Object.keys(folder.loaded.paths)
      .sort()
      .map((id) => {
        const body = folder.loaded.catalog.read({
          documentId: id,
          selection: { mode: 'document' },
          maxChars: Number.MAX_SAFE_INTEGER,
        }).content;
        const { text, heading } = withAnchors(body);
        try {
          const document = parseKnowledgeDocument({ id, revision: 'r1', text });
          headingOf.set(id, heading);
          return document;
        } catch {
          // Anchor lines the page cannot take (its own comments look like anchors): no sections.
          headingOf.set(id, new Map());
          return parseKnowledgeDocument({ id, revision: 'r1', text: body });
        }
      });
    const source = createCatalogSource(defineKnowledgeCatalog(documents), {
      id: `${folder.name}-sections`,
      files: folder.loaded.files,
    });
    await source.warm();
    for (const q of mine) {
      const out = await source.searchFiles({ query: q.query, limit: TOP });
      const at = out.items.findIndex((item) => folder.pathOf(item.fileId) === q.relevant[0]);
      const item = out.items[at];
      const want = normalizeHeading(q.section);
      const first = item?.sectionIds?.[0];
      sectionRuns.push({
        lang: folder.lang,
        half: q.half,
        found: at !== -1,
        top: at === 0,
        firstIsIt: first !== undefined && headingOf.get(item.fileId).get(first) === want,
        listed:
          item !== undefined &&
          item.sectionIds.some((id) => headingOf.get(item.fileId).get(id) === want),
      });
    }
  }
}
const sectionViews = Object.fromEntries(
  ['en', 'zh'].map((lang) => {
    const all = sectionRuns.filter((r) => r.lang === lang);
    const found = all.filter((r) => r.found);
    const share = (list, key) =>
      list.length === 0 ? null : round(list.filter((r) => r[key]).length / list.length, 3);
    return [
      lang,
      {
        questions: all.length,
        pageInTop10: found.length,
        firstSectionIsIt: share(found, 'firstIsIt'),
        sectionListed: share(found, 'listed'),
        firstSectionIsItTune: share(
          found.filter((r) => r.half === 'tune'),
          'firstIsIt',
        ),
        firstSectionIsItHeldout: share(
          found.filter((r) => r.half === 'heldout'),
          'firstIsIt',
        ),
      },
    ];
  }),
);

// ---------------------------------------------------------------------------------------------------
// Report.

const mean = (list, key) =>
  list.length === 0 ? null : list.reduce((s, r) => s + r[key], 0) / list.length;
function summary(engine, filter) {
  const list = results.filter((r) => r.engine === engine && filter(r.query));
  if (list.length === 0) return null;
  return {
    queries: list.length,
    mrr: round(mean(list, 'rr'), 3),
    ndcg: round(mean(list, 'ndcg'), 3),
    recall: round(mean(list, 'recall'), 3),
    meanQueryMs: round(mean(list, 'ms'), 3),
  };
}
const kinds = [...new Set(sets.flatMap((s) => s.kinds))];
const views = {};
for (const lang of ['en', 'zh']) {
  views[lang] = {};
  for (const engine of engines) {
    const e = engine.name;
    const langBuilds = builds.filter((b) => b.engine === e && b.lang === lang);
    views[lang][e] = {
      natural: {
        all: summary(e, (q) => q.lang === lang && q.set === 'natural'),
        tune: summary(e, (q) => q.lang === lang && q.set === 'natural' && q.half === 'tune'),
        heldout: summary(e, (q) => q.lang === lang && q.set === 'natural' && q.half === 'heldout'),
        byKind: Object.fromEntries(
          kinds.map((k) => [
            k,
            summary(e, (q) => q.lang === lang && q.set === 'natural' && q.kind === k),
          ]),
        ),
      },
      known: summary(e, (q) => q.lang === lang && q.set === 'known'),
      buildMs:
        langBuilds.length === 0
          ? null
          : round(
              langBuilds.reduce((s, b) => s + b.ms, 0),
              1,
            ),
      meanQueryMs: summary(e, (q) => q.lang === lang && q.set !== 'style')?.meanQueryMs ?? null,
    };
  }
}

// By style (the style sets, the questions and the known items), per half: MRR@5, MRR@10, nDCG@5.
const STYLES = ['name', 'keyword', 'comparison', 'troubleshooting', 'question', 'known item'];
const styleOf = (q) =>
  q.set === 'style' ? q.kind : q.set === 'natural' ? 'question' : 'known item';
function styleSummary(engine, lang, style, half) {
  const list = results.filter(
    (r) =>
      r.engine === engine &&
      r.query.lang === lang &&
      styleOf(r.query) === style &&
      (half === 'all' || r.query.half === half),
  );
  if (list.length === 0) return null;
  return {
    queries: list.length,
    mrr5: round(mean(list, 'rr5'), 3),
    mrr10: round(mean(list, 'rr10'), 3),
    ndcg5: round(mean(list, 'ndcg5'), 3),
  };
}
const styleViews = Object.fromEntries(
  ['en', 'zh'].map((lang) => [
    lang,
    Object.fromEntries(
      engines.map((e) => [
        e.name,
        Object.fromEntries(
          STYLES.map((style) => [
            style,
            Object.fromEntries(
              ['tune', 'heldout', 'all'].map((half) => [
                half,
                styleSummary(e.name, lang, style, half),
              ]),
            ),
          ]),
        ),
      ]),
    ),
  ]),
);

// Speed (issue 22 item 3): mean query over the natural-language questions and over the known items,
// every timed contender (engines and extra timings), and the ratio to the peer the issue names.
const PEER = { en: 'MiniSearch, default', zh: 'MiniSearch, CJK bigrams' };
const QUERY_TARGET = 1.5;
const timedRows = [...results, ...extraTimes];
const contenders = [...new Set(timedRows.map((r) => r.engine))];
const meanMs = (engine, lang, set, key = 'ms') => {
  const list = timedRows.filter(
    (r) => r.engine === engine && r.query.lang === lang && r.query.set === set,
  );
  return list.length === 0 ? null : round(mean(list, key), 3);
};
const speed = Object.fromEntries(
  ['en', 'zh'].map((lang) => {
    const rows = contenders.map((engine) => ({
      engine,
      naturalMs: meanMs(engine, lang, 'natural'),
      knownMs: meanMs(engine, lang, 'known'),
      // The least disturbed pass of each query: what the work costs when the machine is busy.
      naturalMinMs: meanMs(engine, lang, 'natural', 'minMs'),
    }));
    const peer = rows.find((r) => r.engine === PEER[lang]);
    const ratios = rows
      .filter((r) => r.engine.startsWith('knowledge-kit') && r.naturalMs !== null)
      .map((r) => ({
        engine: r.engine,
        peer: PEER[lang],
        ratio: peer?.naturalMs ? round(r.naturalMs / peer.naturalMs, 3) : null,
        ratioOfMins: peer?.naturalMinMs ? round(r.naturalMinMs / peer.naturalMinMs, 3) : null,
        target: QUERY_TARGET,
      }));
    return [lang, { rows, ratios }];
  }),
);

const counts = Object.fromEntries(
  ['en', 'zh'].map((lang) => [
    lang,
    {
      natural: queries.filter((q) => q.lang === lang && q.set === 'natural').length,
      tune: queries.filter((q) => q.lang === lang && q.set === 'natural' && q.half === 'tune')
        .length,
      heldout: queries.filter((q) => q.lang === lang && q.set === 'natural' && q.half === 'heldout')
        .length,
      known: queries.filter((q) => q.lang === lang && q.set === 'known').length,
    },
  ]),
);

if (json) {
  console.log(
    JSON.stringify(
      {
        corpus,
        folders: folders.map((f) => ({
          name: f.name,
          folder: f.rel,
          lang: f.lang,
          pages: f.pages.length,
          skipped: f.skipped,
          loadMs: round(f.loadMs, 1),
        })),
        counts,
        knownItemSeed: SEED,
        builds: builds.map((b) => ({ ...b, ms: round(b.ms, 1) })),
        results: views,
        styles: styleViews,
        speed: { queryRounds: QUERY_ROUNDS, ...speed },
        sections: sectionViews,
        // With --queries: every query's reciprocal rank per engine, to study misses (on `tune`).
        ...(process.argv.includes('--queries')
          ? {
              queries: queries.map((q) => ({
                id: q.id,
                lang: q.lang,
                folder: q.folder,
                kind: q.kind,
                half: q.half,
                query: q.query,
                relevant: q.relevant,
                rr: Object.fromEntries(
                  results.filter((r) => r.query === q).map((r) => [r.engine, round(r.rr, 3)]),
                ),
              })),
            }
          : {}),
      },
      null,
      2,
    ),
  );
} else {
  const dash = '—';
  const cell = (s, key) => (s === null || s === undefined ? dash : s[key].toFixed(3));
  for (const lang of ['en', 'zh']) {
    const c = counts[lang];
    const fs = folders.filter((f) => f.lang === lang);
    console.log(`\n## ${lang}: ${fs.map((f) => `${f.rel} (${f.pages.length} pages)`).join(', ')}`);
    console.log(
      `\nNatural-language questions: ${c.natural} (tune ${c.tune}, heldout ${c.heldout}); MRR@10 / nDCG@10 / recall@10\n`,
    );
    printTable(
      engines.map((e) => {
        const v = views[lang][e.name].natural;
        const row = { engine: e.name };
        for (const part of ['all', 'tune', 'heldout'])
          row[part] =
            v[part] === null
              ? dash
              : ['mrr', 'ndcg', 'recall'].map((k) => cell(v[part], k)).join(' / ');
        return row;
      }),
    );
    for (const half of ['tune', 'heldout', 'all']) {
      const count = (style) =>
        queries.filter(
          (q) =>
            q.lang === lang &&
            styleOf(q) === style &&
            (half === 'all' || style === 'known item' || q.half === half),
        ).length;
      const shown = STYLES.filter((style) => count(style) > 0);
      console.log(
        `\nBy style, ${half === 'all' ? 'both halves' : `${half} half`} (known items have no half: all of them); MRR@5 / MRR@10 / nDCG@5 (graded)\n`,
      );
      printTable(
        engines.map((e) => {
          const row = { engine: e.name };
          for (const style of shown) {
            const v = styleViews[lang][e.name][style][style === 'known item' ? 'all' : half];
            row[`${style} (${count(style)})`] =
              v === null
                ? dash
                : `${v.mrr5.toFixed(3)} / ${v.mrr10.toFixed(3)} / ${v.ndcg5.toFixed(3)}`;
          }
          return row;
        }),
      );
    }
    console.log(`\nMRR@10 by kind of question (both halves)\n`);
    printTable(
      engines.map((e) => {
        const v = views[lang][e.name].natural.byKind;
        const row = { engine: e.name };
        for (const k of kinds) {
          const n = queries.filter((q) => q.lang === lang && q.set === 'natural' && q.kind === k);
          row[`${k} (${n.length})`] = cell(v[k], 'mrr');
        }
        return row;
      }),
    );
    console.log(`\nKnown-item queries: ${c.known}; and speed\n`);
    printTable(
      engines.map((e) => {
        const v = views[lang][e.name];
        return {
          engine: e.name,
          'MRR@10': cell(v.known, 'mrr'),
          'nDCG@10': cell(v.known, 'ndcg'),
          'recall@10': cell(v.known, 'recall'),
          'index build ms': v.buildMs === null ? dash : v.buildMs.toFixed(0),
        };
      }),
    );
    console.log(
      `\nMean query ms (each query's median of ${QUERY_ROUNDS} side-by-side passes), and the natural-language mean against ${PEER[lang]} (target <= ${QUERY_TARGET})\n`,
    );
    const ms = (x) => (x === null ? dash : x.toFixed(3));
    printTable(
      speed[lang].rows.map((r) => {
        const found = speed[lang].ratios.find((x) => x.engine === r.engine);
        const ratio = found?.ratio;
        return {
          contender: r.engine,
          'natural-language': ms(r.naturalMs),
          'known items': ms(r.knownMs),
          'natural / peer':
            ratio === undefined || ratio === null
              ? ''
              : `${ratio.toFixed(2)}x ${ratio <= QUERY_TARGET ? 'met' : 'MISSED'}`,
          'natural, fastest pass': ms(r.naturalMinMs),
          'fastest / peer': found?.ratioOfMins == null ? '' : `${found.ratioOfMins.toFixed(2)}x`,
        };
      }),
    );
  }
  console.log(
    `\nSections (knowledge-kit, pages given one section per heading): of the questions whose answer is one section and whose page is in the top 10, how often the page's first sectionId is that section\n`,
  );
  printTable(
    ['en', 'zh'].map((lang) => {
      const v = sectionViews[lang];
      const f = (x) => (x === null ? '—' : x.toFixed(3));
      return {
        language: lang,
        questions: v.questions,
        'page in top 10': v.pageInTop10,
        'first section is it': f(v.firstSectionIsIt),
        'tune / heldout': `${f(v.firstSectionIsItTune)} / ${f(v.firstSectionIsItHeldout)}`,
        'listed (of 3)': f(v.sectionListed),
      };
    }),
  );
  console.log(
    `\nIndex build: knowledge-kit = createCatalogSource + warm() on the loaded catalog (loading: ${folders
      .map((f) => `${f.name} ${round(f.loadMs, 0)} ms`)
      .join(
        ', ',
      )}); peers = indexing the same title+body pages. knowledge-kit's query is the whole searchFiles call (ten items with excerpts, read actions and a cursor; the peers return ten IDs); "engine only" is its search engine alone answering one page of ten hits, no excerpt read.`,
  );
}
