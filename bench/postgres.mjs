// `npm run bench:postgres`: the PostgreSQL store at a few sizes, on the server at KK_POSTGRES_URL
// (in a schema it drops at the end), or on PGlite in process without it (publishing only: PGlite
// serves one connection, so there are no reader processes).
//
// For each size (POSTGRES_BENCH_PAGES, comma-separated, default 1000,10000; the issue's run is
// 1000,10000,100000) of generated pages of about 1 KB in 4 sections, each linking to 3 others:
// - publish time and pages per second (one transaction);
// - a reader process (bench/postgres-reader.mjs, a replica knowing only the database) times
//   POSTGRES_BENCH_CALLS calls (default 100) of each kind: `read_file` and `get_file` of a page,
//   `list_tree` of the root and of a page half-way through a 1,000-file directory (by cursor),
//   `expand_graph` depth 2, `index.md` (refused as too large beyond ~200 pages: the cost of reading the
//   stored text and refusing it); its heap after a GC and its RSS, which must not grow with the pages;
//   and, up to POSTGRES_BENCH_SEARCH_MAX pages (default: every size), `search_files` on the stored
//   index: the first call, then a word in about ten pages (`xylograph`, postings that do not grow),
//   one page's own token (`page123`: few postings, but its head lists every page's token), and two
//   words of every page (postings that grow with the pages), with the heap and RSS after them;
// - two reader processes on two connections of their own call `read_file`, `list_tree` and `get_file`
//   in a loop while the next edition of every page is published: every answer must be one revision
//   (all its pages of one edition), none may fail.
// Not part of npm test. Figures and what they mean: docs/postgres.md.
import { fork } from 'node:child_process';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { migrateKnowledgeStore, publishKnowledge } from 'knowledge-kit/postgres';
import { printTable, round } from './harness.mjs';

const url = process.env.KK_POSTGRES_URL;
const positive = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, not ${process.env[name]}`);
  return value;
};
const sizes = (process.env.POSTGRES_BENCH_PAGES ?? '1000,10000').split(',').map((v, i) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 10)
    throw new Error(`POSTGRES_BENCH_PAGES: item ${i} is ${JSON.stringify(v)}, not a count ≥ 10`);
  return n;
});
const calls = positive('POSTGRES_BENCH_CALLS', 100);
const searchMax = positive('POSTGRES_BENCH_SEARCH_MAX', Number.MAX_SAFE_INTEGER);
const WORDS =
  'alpha beta gamma delta renewal invoice shipping refund account token notice window'.split(' ');

/** Page `n` of `size` at `edition`: a title, a lead, links to 3 other pages, four sections. */
function page(n, size, edition) {
  const word = (k) => WORDS[(n * 7 + k * 13) % WORDS.length];
  const links = [1, 2, 3]
    .map((k) => (n * 31 + k * 977) % size)
    .filter((m) => m !== n)
    .map((m) => `[page ${m}](/${pathOf(`p${m}`)})`);
  const sections = [0, 1, 2, 3].map(
    (s) =>
      `<!-- agent-section:s${s} -->\n## Part ${s} ${word(s)}\n\n${Array.from({ length: 30 }, (_, k) => word(k + s)).join(' ')} page${n}.\n<!-- /agent-section:s${s} -->`,
  );
  // About ten pages at every size hold a rare word.
  const rare = n % Math.ceil(size / 10) === 0 ? ' A xylograph.' : '';
  return `# Page ${n} edition ${edition} ${word(1)}\n\nLead ${word(2)} ${word(3)} of page ${n}, edition ${edition}.${rare} See ${links.join(', ')}.\n\n${sections.join('\n\n')}\n`;
}
/** Pages in directories by the first three characters of their ID: pages/p1 … pages/p99. */
const pathOf = (id) => `pages/${id.slice(0, 3)}/${id}.md`;
const files = (id) => ({ path: pathOf(id) });
const catalogOf = (size, edition) =>
  defineKnowledgeCatalog(
    Array.from({ length: size }, (_, n) =>
      parseKnowledgeDocument({
        id: `p${n}`,
        revision: `r${n}e${edition}`,
        text: page(n, size, edition),
      }),
    ),
  );

/** Run a reader process with `task`; resolves to its result. `onReady` is called when it is watching. */
function reader(task, onReady) {
  const child = fork(new URL('./postgres-reader.mjs', import.meta.url), {
    execArgv: ['--expose-gc'],
  });
  const done = new Promise((resolve, reject) => {
    child.on('message', (message) => {
      if (message.ready) onReady?.(child);
      if (message.result) resolve(message.result);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`reader exited with ${code}`));
    });
  });
  child.send(task);
  return { child, done };
}

const db =
  url === undefined
    ? new (await import('@electric-sql/pglite')).PGlite()
    : new (await import('pg')).default.Pool({ connectionString: url, max: 2 });
const schema = `kk_bench_${process.pid}`;
const rows = [];
try {
  await migrateKnowledgeStore(db, { schema });
  for (const size of sizes) {
    const knowledgeBase = `bench-${size}`;
    let catalog = catalogOf(size, 1);
    let start = performance.now();
    await publishKnowledge(db, { knowledgeBase, catalog, files, schema });
    const publishMs = performance.now() - start;
    catalog = undefined;
    const row = {
      pages: size,
      'publish s': round(publishMs / 1000, 2),
      'pages/s': Math.round(size / (publishMs / 1000)),
    };
    if (url !== undefined) {
      const task = { url, schema, knowledgeBase, size, calls };
      Object.assign(
        row,
        size <= searchMax ? {} : { 'first search ms': '-', 'heapMB after search': '-' },
        await reader({ ...task, mode: 'measure', search: size <= searchMax, words: WORDS }).done,
      );
      // Two replicas reading while the next edition is published.
      catalog = catalogOf(size, 2);
      const watchers = [];
      let ready = 0;
      const allReady = new Promise((resolve) => {
        for (let i = 0; i < 2; i++)
          watchers.push(reader({ ...task, mode: 'watch' }, () => ++ready === 2 && resolve()));
      });
      await allReady;
      start = performance.now();
      await publishKnowledge(db, { knowledgeBase, catalog, files, schema });
      row['publish s under 2 readers'] = round((performance.now() - start) / 1000, 2);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a few reads of the new edition
      for (const w of watchers) w.child.send('stop');
      const counts = await Promise.all(watchers.map((w) => w.done));
      row['reader calls'] = counts.map((c) => c.calls).join('+');
      row['mixed/failed'] = counts.map((c) => `${c.mixed}/${c.failures}`).join(', ');
      row['revisions seen'] = counts.map((c) => c.revisions).join(', ');
      for (const c of counts) if (c.firstFailure) row['first failure'] = c.firstFailure;
      catalog = undefined;
    }
    rows.push(row);
    console.error(JSON.stringify(row));
  }
} finally {
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await (url === undefined ? db.close() : db.end());
}
printTable(rows);
