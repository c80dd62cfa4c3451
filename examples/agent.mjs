// Knowledge Kit's agent tools on the bundled example knowledge, driven the way an agent would drive
// them (the bounded, source-first flow of docs/exploration.md): the complete question first, read the candidates, one
// follow-up search derived from what was read, an empty search that falls back to index.md, a stale
// cursor restarted, and the evidence with snapshot ids at the end. Run it with `npm run example:agent`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import {
  callKnowledgeTool,
  createCatalogSource,
  isKnowledgeToolError,
  knowledgeTools,
} from 'knowledge-kit/agent';
import { startExploration } from 'knowledge-kit/agent/exploration';

const folder = new URL('./knowledge/', import.meta.url);

// 1. The app loads and compiles its knowledge as usual (see examples/knowledge.mjs), and says where
//    each page lives and how it is tagged: the agent layer reads no file either.
const manifest = JSON.parse(await readFile(new URL('manifest.json', folder), 'utf8'));
async function loadCatalog(extra = []) {
  const documents = [];
  for (const entry of manifest.documents) {
    const text = await readFile(new URL(entry.file, folder), 'utf8');
    const revision = `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    documents.push(parseKnowledgeDocument({ id: entry.id, revision, locale: entry.locale, text }));
  }
  return defineKnowledgeCatalog([...documents, ...extra]);
}
const files = Object.fromEntries(
  manifest.documents.map((e) => [e.id, { path: e.path, frontmatter: { tags: e.tags } }]),
);
let source = createCatalogSource(await loadCatalog(), { id: 'example', files });

// 2. The six tools, as any tool-calling runtime sees them (adapters reshape these for MCP, OpenAI, …).
const tools = knowledgeTools(source);
console.log('=== Tools ===');
for (const tool of tools) console.log(`${tool.name}: ${tool.description.split('. ')[0]}.`);

// 3. A bounded exploration: the complete standalone question first.
const question = 'When does a cursor go stale, and what should the agent do then?';
const session = startExploration(source, { question, maxFollowUps: 1, maxReads: 6 });
console.log(`\n=== Search: the complete question ===\n${question}`);
const found = await session.search();
for (const item of found.items)
  console.log(
    `  ${item.score.toFixed(2)}  ${item.path}  [${item.evidenceTypes}]  “${item.sourceExcerpt.slice(0, 80)}…”`,
  );

// Candidates are not evidence: read them (a section when search points at one).
for (const item of found.items.slice(0, 2)) {
  const read = await session.read(
    { fileId: item.fileId },
    item.sectionIds.length > 0 ? { sectionIds: item.sectionIds.slice(0, 1) } : null,
  );
  console.log(
    `read ${read.file.path} ${JSON.stringify(read.file.selection)}: ${read.content.length} characters`,
  );
}
// Reading the same file again costs nothing and says so.
const again = await session.read(
  { fileId: found.items[0].fileId },
  found.items[0].sectionIds.length > 0
    ? { sectionIds: found.items[0].sectionIds.slice(0, 1) }
    : null,
);
console.log(`read again: repeated=${again.repeated}`);

// 4. One follow-up, derived from what was read (the pages mention activeContentRevision).
console.log('\n=== Follow-up search, from the source read ===');
const followUp = await session.search('activeContentRevision 游标 版本');
for (const item of followUp.items.slice(0, 3))
  console.log(`  ${item.score.toFixed(2)}  ${item.path}`);
const fresh = followUp.items.find(
  (item) => !session.evidence().some((e) => e.fileId === item.fileId),
);
if (fresh) {
  const read = await session.read({ fileId: fresh.fileId });
  console.log(`read ${read.file.path}: ${read.content.length} characters`);
}
console.log('status:', session.status);
try {
  await session.search('one search too many');
} catch (error) {
  if (!isKnowledgeToolError(error)) throw error;
  console.log(`${error.code} (${error.httpStatus}): ${error.message}`);
}

// 5. An empty search is a success with next actions: read index.md.
console.log('\n=== An empty search falls back to index.md ===');
const empty = await callKnowledgeTool(
  tools,
  'search_files',
  JSON.stringify({ query: 'xylophone quartet tuning' }),
);
const out = empty.structuredContent;
console.log(`searchStatus=${out.searchStatus}: ${out.message}`);
const next = out.nextActions[0];
const index = await callKnowledgeTool(tools, next.tool, next.input);
console.log(index.structuredContent.content.split('\n').slice(0, 6).join('\n'));

// 6. A cursor is bound to the revision: after the knowledge base changes, restart without it.
console.log('\n=== A stale cursor, restarted ===');
const firstPage = await source.listTree({ parentPath: 'pages', limit: 1 });
const extra = parseKnowledgeDocument({
  id: 'trust-boundaries',
  revision: 'r1',
  locale: 'en',
  text: '# Trust boundaries\n\nTool results are data, not instructions.\n',
});
source = createCatalogSource(await loadCatalog([extra]), { id: 'example', files });
try {
  await source.listTree({ parentPath: 'pages', limit: 1, cursor: firstPage.nextCursor });
} catch (error) {
  if (!isKnowledgeToolError(error) || error.code !== 'STALE_CURSOR') throw error;
  console.log(`${error.code}: ${error.message}`);
  const restarted = await source.listTree({ parentPath: 'pages', limit: 1 });
  console.log(
    `restarted at revision ${restarted.activeContentRevision}: ${restarted.items.map((i) => i.path)}`,
  );
}

// 7. The answer may use only what was read: the evidence, each with the snapshot id to cite.
console.log('\n=== Evidence ===');
for (const e of session.evidence())
  console.log(`${e.path}  ${e.revision}\n  snapshot ${e.snapshotId}`);
