// A reader process of `npm run bench:postgres` (bench/postgres.mjs forks it): a replica that knows
// nothing but the database, its schema and a knowledge base. Two modes, from the message it gets:
// - `measure`: p50/p99 of each kind of call over `calls` calls, the heap after a GC and the RSS (before
//   any search, then after the searches when `search` is set), sent back as one message;
// - `watch`: calls in a loop on one connection of its own until told to stop, checking that every
//   answer is one whole revision (every page it shows carries the same edition, and a revision always
//   shows the same edition), then sends its counts.
import { createPostgresSource } from 'knowledge-kit/postgres';
import { requireGc, round } from './harness.mjs';

const gc = requireGc();
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const memory = () => {
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapMB: round(heapUsed / 1e6, 1), rssMB: round(rss / 1e6, 1) };
};

/** The edition a text or title carries (`edition 3`), or `undefined`. */
const editionIn = (text) => /edition (\d+)/.exec(text)?.[1];

async function measure({ url, schema, knowledgeBase, size, calls, search, words }) {
  const pg = (await import('pg')).default;
  const db = new pg.Pool({ connectionString: url, max: 2 });
  const source = createPostgresSource(db, { knowledgeBase, schema });
  const page = (i) => `p${(i * 7919) % size}`;
  const time = async (fn) => {
    await fn(0); // the pool's connections and the first plans
    const times = [];
    for (let i = 1; i <= calls; i++) {
      const start = performance.now();
      await fn(i);
      times.push(performance.now() - start);
    }
    return `${round(percentile(times, 50), 2)}/${round(percentile(times, 99), 2)}`;
  };
  const before = memory();
  // A deep page of the biggest directory: the cursor of its page at offset ~ half its files.
  const dir = 'pages/p10';
  let deep;
  let offset = 0;
  let at = await source.listTree({ parentPath: dir, limit: 50 });
  while (at.nextCursor !== null && offset < size / 200) {
    deep = at.nextCursor;
    offset += 50;
    at = await source.listTree({ parentPath: dir, limit: 50, cursor: deep });
  }
  const out = {
    read_file: await time((i) => source.readFile({ fileId: page(i) })),
    get_file: await time((i) => source.getFile({ fileId: page(i + 1) })),
    'list_tree root': await time(() => source.listTree({})),
    'list_tree deep page': await time(() =>
      source.listTree({ parentPath: dir, limit: 50, ...(deep ? { cursor: deep } : {}) }),
    ),
    expand_graph: await time((i) => source.expandGraph({ fileId: page(i + 2), depth: 2 })),
    'index.md': await time(() =>
      source.readFile({ path: 'index.md' }).then(
        (r) => r.content.length,
        (e) => e.code,
      ),
    ),
    ...before,
  };
  if (search) {
    // search_files on the stored index: the first call of the process, then three kinds of query.
    let t = performance.now();
    await source.searchFiles({ query: 'renewal notice window' });
    out['first search ms'] = Math.round(performance.now() - t);
    // A word in about ten pages at every size (its postings do not grow with the pages).
    out['search rare word'] = await time(() => source.searchFiles({ query: 'xylograph' }));
    // One page's own token: few postings, but its head ("pa") lists every page's token.
    out['search page token'] = await time((i) =>
      source.searchFiles({ query: `page${(i * 7919) % size}` }),
    );
    // Two words of every page: postings that grow with the pages.
    out['search common words'] = await time((i) =>
      source.searchFiles({ query: `${words[i % words.length]} refund` }),
    );
    const after = memory();
    out['heapMB after search'] = after.heapMB;
    out['rssMB after search'] = after.rssMB;
  }
  await db.end();
  return out;
}

async function watch({ url, schema, knowledgeBase, size }) {
  const pg = (await import('pg')).default;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const source = createPostgresSource(db, { knowledgeBase, schema });
  const editionOf = new Map();
  const counts = { calls: 0, failures: 0, mixed: 0, revisions: 0, firstFailure: null };
  let stop = false;
  process.once('message', () => (stop = true));
  process.send({ ready: true });
  const check = (revision, editions) => {
    const set = new Set(editions.filter((e) => e !== undefined));
    const known = editionOf.get(revision);
    if (set.size !== 1 || (known !== undefined && !set.has(known))) counts.mixed++;
    else if (known === undefined) editionOf.set(revision, [...set][0]);
  };
  for (let i = 0; !stop; i++) {
    try {
      const fileId = `p${(i * 7919) % size}`;
      const read = await source.readFile({ fileId });
      check(read.file.activeContentRevision, [editionIn(read.content), editionIn(read.file.title)]);
      const tree = await source.listTree({ parentPath: 'pages/p10', limit: 20 });
      check(
        tree.activeContentRevision,
        tree.items.map((item) => editionIn(item.title)),
      );
      const file = await source.getFile({ fileId });
      check(file.activeContentRevision, [editionIn(file.title)]);
      counts.calls += 3;
    } catch (error) {
      counts.failures++;
      counts.firstFailure ??= `${error.code ?? ''} ${error.message}`;
    }
  }
  counts.revisions = editionOf.size;
  await db.end();
  return counts;
}

process.once('message', async (task) => {
  const result = task.mode === 'measure' ? await measure(task) : await watch(task);
  process.send({ result }, () => process.exit(0));
});
