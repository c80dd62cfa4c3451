// A static knowledge bundle: export the bundled example knowledge as files (`exportKnowledgeBundle`,
// what `knowledge-kit export` runs), serve the folder with a plain static file server, and answer a
// question from the bundle alone: an agent without tools reads llms.txt; one with tools gets the six
// tools from `createStaticSource`, which fetches only the files each call needs.
// Run it with `npm run example:static`; `node examples/static.mjs --bundle <dir> --question <q>`
// serves a bundle exported before (CI exports examples/handbook with the command line and asks it).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource, createStaticSource } from 'knowledge-kit/agent';
import { exportKnowledgeBundle } from 'knowledge-kit/node';

const { values } = parseArgs({
  options: { bundle: { type: 'string' }, question: { type: 'string' } },
});
const question =
  values.question ?? 'When does a cursor go stale, and what should the agent do then?';

// 1. Export (unless a bundle is given): the app's catalog source, written as files.
let dir = values.bundle;
let temp;
if (dir === undefined) {
  const folder = new URL('./knowledge/', import.meta.url);
  const manifest = JSON.parse(await readFile(new URL('manifest.json', folder), 'utf8'));
  const documents = [];
  for (const entry of manifest.documents) {
    const text = await readFile(new URL(entry.file, folder), 'utf8');
    const revision = `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    documents.push(parseKnowledgeDocument({ id: entry.id, revision, locale: entry.locale, text }));
  }
  const files = Object.fromEntries(
    manifest.documents.map((e) => [e.id, { path: e.path, frontmatter: { tags: e.tags } }]),
  );
  const source = createCatalogSource(defineKnowledgeCatalog(documents), { id: 'example', files });
  temp = await mkdtemp(join(tmpdir(), 'kk-static-example-'));
  dir = join(temp, 'kb');
  const exported = await exportKnowledgeBundle(source, { out: dir, id: 'example' });
  console.log(
    `=== Exported ${exported.manifest.counts.pages} pages to ${dir}: ${exported.written.length} files ===`,
  );
}

// 2. Any static host serves it; here a plain node:http file server on loopback that logs each GET.
const root = resolve(dir);
const fetched = [];
const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
  const file = join(root, ...path.split('/'));
  fetched.push(path);
  try {
    if (!file.startsWith(root + sep)) throw new Error('outside');
    response.writeHead(200).end(await readFile(file));
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const baseUrl = `http://127.0.0.1:${server.address().port}/`;

try {
  // 3. An agent without tools starts with llms.txt (then _index/files.json, then the pages).
  const llms = await (await fetch(new URL('llms.txt', baseUrl))).text();
  console.log(`\n=== llms.txt (first lines) ===\n${llms.split('\n').slice(0, 6).join('\n')}`);

  // 4. An agent with tools: the same six tools as over the live source, from the files alone.
  const source = createStaticSource({ baseUrl });
  fetched.length = 0;
  console.log(`\n=== search_files: ${question} ===`);
  const found = await source.searchFiles({ query: question, limit: 3 });
  for (const item of found.items)
    console.log(`  ${item.score.toFixed(2)}  ${item.path}  “${item.sourceExcerpt.slice(0, 70)}…”`);
  console.log(`  (fetched ${fetched.length} files: ${fetched.join(', ')})`);
  const top = found.items[0];
  if (top === undefined) throw new Error(`no page answers ${JSON.stringify(question)}`);

  // Candidates are not evidence: read the page (the section search pointed at, when it did).
  const page = await source.readFile(
    top.sectionIds.length > 0
      ? { fileId: top.fileId, sectionIds: top.sectionIds.slice(0, 1) }
      : { fileId: top.fileId },
  );
  console.log(`\n=== Evidence: ${page.file.path}, snapshot ${page.file.snapshotId} ===`);
  console.log(page.content.slice(0, 600));
} finally {
  await new Promise((done) => server.close(done));
  if (temp !== undefined) await rm(temp, { recursive: true, force: true });
}
