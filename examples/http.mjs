// Knowledge Kit's read-only HTTP endpoint, for agents that can run `curl` but cannot register tools
// (a third-party skill, a hosted assistant, a sandboxed script). The app's backend is the control
// point: `access` maps each caller to the knowledge bases they may read. This starts a server on the
// bundled example knowledge, prints the knowledge-base URL and four `curl` commands an agent would
// run, runs the same requests through the client, shows a 401 and a 404, and stops. Run it with
// `npm run example:http`.
//
//   node examples/http.mjs --serve   keep serving (Ctrl-C stops), to try the curl commands yourself
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource, isKnowledgeToolError } from 'knowledge-kit/agent';
import {
  createKnowledgeClient,
  createKnowledgeHandler,
  createMemoryRateLimiter,
} from 'knowledge-kit/http';
import { serveKnowledge } from 'knowledge-kit/http/node';

// 1. The app compiles its knowledge as usual (see examples/knowledge.mjs) into a source.
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
const handbook = createCatalogSource(defineKnowledgeCatalog(documents), { id: 'handbook', files });

// 2. The control point. A real app checks the token against its own store; here, one user, Ada,
//    may read `handbook`. Other knowledge bases (`finance`, say) exist for other users only.
const users = new Map([
  [
    'token-of-ada',
    { name: 'Ada', knowledgeBases: { handbook: { source: handbook, title: 'Product handbook' } } },
  ],
]);
const handler = createKnowledgeHandler({
  basePath: '/openapi/v2',
  access: (request) => {
    const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
    const user = token === undefined ? undefined : users.get(token);
    return user === undefined ? null : { knowledgeBases: user.knowledgeBases };
  },
  authenticateHeader: 'Bearer realm="knowledge"',
  rateLimit: createMemoryRateLimiter({
    capacity: 60,
    refillPerSecond: 10,
    key: (r) => r.headers.get('authorization') ?? 'anonymous',
  }),
});

// 3. Serve it on loopback.
const served = await serveKnowledge({ handler, port: process.argv.includes('--serve') ? 8787 : 0 });
const KNOWLEDGE_BASE_URL = `${served.url}/openapi/v2/knowledge-bases/handbook`;
const auth = 'Authorization: Bearer token-of-ada';
console.log(`=== Knowledge-base URL (for Ada) ===\n${KNOWLEDGE_BASE_URL}\n`);

// 4. The four commands, as an agent would run them.
const client = createKnowledgeClient({
  baseUrl: KNOWLEDGE_BASE_URL,
  headers: { authorization: 'Bearer token-of-ada' },
});
const question = 'When does a cursor go stale, and what should the agent do then?';
const tree = await client.listTree({ limit: 50 });
// A page to read by ID: the first file under pages/ (the root holds index.md and directories).
const someFile = (await client.listTree({ parentPath: 'pages' })).items.find(
  (item) => item.entryType === 'file',
);
console.log('=== The curl commands an agent runs ===');
console.log(`export KNOWLEDGE_BASE_URL=${KNOWLEDGE_BASE_URL}`);
console.log(`curl -sS -G "$KNOWLEDGE_BASE_URL/tree" --data-urlencode "limit=50" -H "${auth}"`);
console.log(
  `curl -sS "$KNOWLEDGE_BASE_URL/files/${encodeURIComponent(someFile.fileId)}/content" -H "${auth}"`,
);
console.log(
  `curl -sS -G "$KNOWLEDGE_BASE_URL/files/content" --data-urlencode "path=index.md" -H "${auth}"`,
);
console.log(
  `curl -sS -G "$KNOWLEDGE_BASE_URL/search" --data-urlencode "query=${question}" -H "${auth}"\n`,
);

console.log('=== The same requests through createKnowledgeClient ===');
console.log(
  `GET /tree?limit=50 → ${tree.items.map((i) => `${i.path}${i.entryType === 'directory' ? '/' : ''}`).join(', ')} (revision ${tree.activeContentRevision})`,
);
const byId = await client.readFile({ fileId: someFile.fileId });
console.log(
  `GET /files/${encodeURIComponent(someFile.fileId)}/content → ${byId.file.path}, ${byId.content.length} characters`,
);
const index = await client.readFile({ path: 'index.md' });
console.log(
  `GET /files/content?path=index.md → ${index.content.split('\n')[0]} (${index.content.length} characters)`,
);
const found = await client.searchFiles({ query: question });
console.log(`GET /search?query=… → ${found.searchStatus}, ${found.items.length} candidates:`);
for (const item of found.items.slice(0, 3))
  console.log(`  ${item.score.toFixed(2)}  ${item.path}  → ${item.readActions.fileContentById}`);
// Candidates are not evidence: follow the top one's readAction and cite its snapshot id.
const evidence = await client.follow(found.items[0].readActions.fileContentById);
console.log(`follow → ${evidence.file.path}, snapshot ${evidence.file.snapshotId}\n`);

// 5. What a caller without access sees.
console.log('=== Without access ===');
const anonymous = await fetch(`${KNOWLEDGE_BASE_URL}/tree`);
console.log(
  `no credentials: ${anonymous.status} WWW-Authenticate: ${anonymous.headers.get('www-authenticate')}`,
);
console.log(`  ${await anonymous.text()}`);
try {
  // `finance` is another team's knowledge base: Ada gets the same 404 as for one that does not exist.
  const finance = createKnowledgeClient({
    baseUrl: `${served.url}/openapi/v2/knowledge-bases/finance`,
    headers: { authorization: 'Bearer token-of-ada' },
  });
  await finance.listTree();
} catch (error) {
  if (!isKnowledgeToolError(error)) throw error;
  console.log(`a knowledge base Ada may not read: ${error.httpStatus} ${error.code}`);
  console.log(`  ${JSON.stringify(error.toJSON())}`);
}

if (process.argv.includes('--serve')) {
  console.log(`\nServing on ${served.url} until Ctrl-C.`);
  process.once('SIGINT', () => served.close().then(() => process.exit(0)));
} else {
  await served.close();
  console.log('\nServer stopped.');
}
