// The servers of `bench/http.mjs`, in a child process of their own so that serving and load generation
// do not share one event loop. Started with `fork` (an IPC channel); not meant to be run by hand.
//
// Two servers, both on 127.0.0.1 and an ephemeral port:
// - Knowledge Kit: `createKnowledgeHandler` over the bundled example knowledge (loaded as
//   examples/agent.mjs loads it), mounted at /openapi/v2, with an `access` hook that checks a bearer
//   token, served by `serveKnowledge`.
// - The floor: a bare `node:http` server answering every request with one fixed JSON body, the exact
//   bytes of the small `read_file` the bench reads from Knowledge Kit.
//
// Messages: the child sends `{ type: 'ready', … }` once both listen; the parent sends `{ type: 'gc' }`
// before each run (answered `{ type: 'gc-done' }`; the child's CPU clock starts there), `{ type: 'cpu' }`
// after it (answered `{ type: 'cpu', micros }`: this process's user + system CPU time since the gc), and
// `{ type: 'stop' }` at the end.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource } from 'knowledge-kit/agent';
import { createKnowledgeHandler } from 'knowledge-kit/http';
import { serveKnowledge } from 'knowledge-kit/http/node';

if (typeof process.send !== 'function') {
  console.error(
    'bench/http-server.mjs is started by bench/http.mjs (node --expose-gc bench/http.mjs).',
  );
  process.exit(2);
}

const BASE_PATH = '/openapi/v2';
const KB_ID = 'example';
const KB_PATH = `${BASE_PATH}/knowledge-bases/${KB_ID}`;
/** The small `read_file` of the bench: one section's own text (`self`), about 1 KB of JSON. */
const SMALL_READ = { fileId: 'exploration', sectionIds: ['flow'], mode: 'self' };

// 1. The example knowledge, as examples/agent.mjs loads it.
const folder = new URL('../examples/knowledge/', import.meta.url);
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
const source = createCatalogSource(defineKnowledgeCatalog(documents), { id: KB_ID, files });
await source.warm?.();

// 2. Knowledge Kit's endpoint: one caller, one bearer token, fresh for this run.
const token = randomBytes(16).toString('hex');
const authorization = `Bearer ${token}`;
const grants = { knowledgeBases: { [KB_ID]: { source, title: 'Example knowledge' } } };
const handler = createKnowledgeHandler({
  basePath: BASE_PATH,
  authenticateHeader: 'Bearer realm="knowledge"',
  access: (request) => (request.headers.get('authorization') === authorization ? grants : null),
});
const served = await serveKnowledge({ handler });

// 3. The floor: the same bytes as the small read_file's JSON body, from a bare node:http server.
const small = await source.readFile(SMALL_READ, { actionBase: KB_PATH, knowledgeBaseId: KB_ID });
const floorBody = Buffer.from(JSON.stringify(small), 'utf8');
const floor = createServer((request, response) => {
  request.resume();
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': floorBody.length,
  });
  response.end(floorBody);
});
await new Promise((resolve, reject) => {
  floor.once('error', reject);
  floor.listen(0, '127.0.0.1', resolve);
});

process.send({
  type: 'ready',
  knowledge: { origin: served.url, knowledgeBasePath: KB_PATH, authorization },
  floor: { origin: `http://127.0.0.1:${floor.address().port}` },
  smallRead: { ...SMALL_READ, jsonBytes: floorBody.length },
});

let mark = process.cpuUsage();
process.on('message', async (message) => {
  if (message?.type === 'gc') {
    globalThis.gc?.();
    mark = process.cpuUsage();
    process.send({ type: 'gc-done' });
  } else if (message?.type === 'cpu') {
    const used = process.cpuUsage(mark);
    process.send({ type: 'cpu', micros: used.user + used.system });
  } else if (message?.type === 'stop') {
    floor.closeAllConnections();
    await Promise.all([served.close(), new Promise((resolve) => floor.close(resolve))]);
    process.exit(0);
  }
});
// The parent went away without saying stop: do not outlive it.
process.on('disconnect', () => process.exit(0));
