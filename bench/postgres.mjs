// `npm run bench:postgres`: the PostgreSQL store at a few sizes, on PGlite (in process) or, with
// KK_POSTGRES_URL=postgres://…, on that server (in a schema it drops at the end). For each size
// (POSTGRES_BENCH_PAGES, default 1000,10000 generated pages of about 1 KB in 4 sections): publish time
// and pages per second; p50/p99 of `read_file` of a random page, `get_file` and `list_tree` of the
// root (ms, each over POSTGRES_BENCH_CALLS calls, default 100); the first `search_files` of the
// revision (it builds the in-process engine) and p50 of the next ones; the heap after a GC.
// Not part of npm test. Figures and what they mean: docs/postgres.md.
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from 'knowledge-kit/postgres';
import { printTable, round } from './harness.mjs';

const url = process.env.KK_POSTGRES_URL;
const sizes = (process.env.POSTGRES_BENCH_PAGES ?? '1000,10000').split(',').map(Number);
const calls = Number(process.env.POSTGRES_BENCH_CALLS ?? 100);
const WORDS =
  'alpha beta gamma delta renewal invoice shipping refund account token notice window'.split(' ');

/** A generated page: a title, a lead and four sections of words chosen by `n`. */
function page(n) {
  const word = (k) => WORDS[(n * 7 + k * 13) % WORDS.length];
  const sections = [0, 1, 2, 3].map(
    (s) =>
      `<!-- agent-section:s${s} -->\n## Part ${s} ${word(s)}\n\n${Array.from({ length: 30 }, (_, k) => word(k + s)).join(' ')} page${n}.\n<!-- /agent-section:s${s} -->`,
  );
  return `# Page ${n} ${word(1)}\n\nLead ${word(2)} ${word(3)} of page ${n}.\n\n${sections.join('\n\n')}\n`;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
async function timeCalls(fn) {
  const times = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  return { p50: round(percentile(times, 50), 2), p99: round(percentile(times, 99), 2) };
}

const db =
  url === undefined
    ? new (await import('@electric-sql/pglite')).PGlite()
    : new (await import('pg')).default.Pool({ connectionString: url, max: 4 });
const schema = `kk_bench_${process.pid}`;
const rows = [];
try {
  await migrateKnowledgeStore(db, { schema });
  for (const size of sizes) {
    const catalog = defineKnowledgeCatalog(
      Array.from({ length: size }, (_, n) =>
        parseKnowledgeDocument({ id: `p${n}`, revision: `r${n}`, text: page(n) }),
      ),
    );
    const files = (id) => ({ path: `pages/${id.slice(0, 3)}/${id}.md` });
    const knowledgeBase = `bench-${size}`;
    const start = performance.now();
    await publishKnowledge(db, { knowledgeBase, catalog, files, schema });
    const publishMs = performance.now() - start;
    const source = createPostgresSource(db, { knowledgeBase, schema });
    const read = await timeCalls((i) => source.readFile({ fileId: `p${(i * 7919) % size}` }));
    const get = await timeCalls((i) => source.getFile({ fileId: `p${(i * 104729) % size}` }));
    const tree = await timeCalls(() => source.listTree({}));
    let t = performance.now();
    await source.searchFiles({ query: 'renewal notice window' });
    const firstSearch = performance.now() - t;
    const search = await timeCalls((i) =>
      source.searchFiles({ query: `${WORDS[i % WORDS.length]} refund` }),
    );
    globalThis.gc?.();
    rows.push({
      database: url === undefined ? 'PGlite' : 'PostgreSQL',
      pages: size,
      'publish s': round(publishMs / 1000, 2),
      'pages/s': Math.round(size / (publishMs / 1000)),
      'read_file p50/p99': `${read.p50}/${read.p99}`,
      'get_file p50/p99': `${get.p50}/${get.p99}`,
      'list_tree p50/p99': `${tree.p50}/${tree.p99}`,
      'first search ms': Math.round(firstSearch),
      'search p50/p99': `${search.p50}/${search.p99}`,
      'heap MB': Math.round(process.memoryUsage().heapUsed / 1e6),
    });
  }
} finally {
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await (url === undefined ? db.close() : db.end());
}
printTable(rows);
