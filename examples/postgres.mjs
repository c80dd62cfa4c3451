// Knowledge in PostgreSQL with `knowledge-kit/postgres`: two knowledge bases published to one database,
// read back through the agent tools' source, a new revision published while a reader pages, and the
// stale cursor it then gets. It runs on PGlite (PostgreSQL in WebAssembly, in this process); with
// KK_POSTGRES_URL=postgres://… it runs on that server instead (in a schema it drops at the end).
// Run it with `npm run example:postgres`.
import { fileURLToPath } from 'node:url';
import { isKnowledgeToolError } from 'knowledge-kit/agent';
import { loadKnowledgeDirectory } from 'knowledge-kit/node';
import {
  createPostgresSource,
  listKnowledgeBases,
  migrateKnowledgeStore,
  publishKnowledge,
} from 'knowledge-kit/postgres';

const url = process.env.KK_POSTGRES_URL;
const schema = url === undefined ? 'knowledge_kit' : `kk_example_${process.pid}`;
const db =
  url === undefined
    ? new (await import('@electric-sql/pglite')).PGlite()
    : new (await import('pg')).default.Pool({ connectionString: url });
const heading = (title) => console.log(`\n=== ${title} ===`);

try {
  // 1. Once per deploy: the schema (idempotent, safe from several processes at once).
  heading('migrateKnowledgeStore');
  console.log(await migrateKnowledgeStore(db, { schema }));

  // 2. The publisher: each folder becomes a revision of its knowledge base, in one transaction.
  heading('publishKnowledge');
  const handbook = await loadKnowledgeDirectory(
    fileURLToPath(new URL('./handbook/', import.meta.url)),
  );
  const first = await publishKnowledge(db, {
    knowledgeBase: 'handbook',
    catalog: handbook.catalog,
    files: handbook.files,
    schema,
  });
  console.log(
    `handbook: ${first.activeContentRevision}, ${first.pages} pages, created ${first.created}`,
  );
  const again = await publishKnowledge(db, {
    knowledgeBase: 'handbook',
    catalog: handbook.catalog,
    files: handbook.files,
    schema,
  });
  console.log(`the same content again: ${again.activeContentRevision}, created ${again.created}`);
  const docs = await loadKnowledgeDirectory(
    fileURLToPath(new URL('./knowledge/', import.meta.url)),
  );
  const second = await publishKnowledge(db, {
    knowledgeBase: 'docs',
    catalog: docs.catalog,
    files: docs.files,
    title: 'Docs',
    schema,
  });
  console.log(`docs: ${second.activeContentRevision}, ${second.pages} pages`);
  for (const kb of await listKnowledgeBases(db, { schema }))
    console.log(`listed: ${kb.id} "${kb.title}" ${kb.activeContentRevision} (${kb.pages} pages)`);

  // 3. Every reader: a KnowledgeSource that reads the active revision on each call.
  heading('createPostgresSource');
  const source = createPostgresSource(db, { knowledgeBase: 'handbook', schema });
  const found = await source.searchFiles({ query: '签收时包装破损怎么办？' });
  console.log(`search: ${found.items.map((item) => item.path).join('; ')}`);
  const page = await source.readFile({ fileId: found.items[0].fileId });
  console.log(`read_file: ${page.file.path}, snapshot ${page.file.snapshotId}`);

  // 4. A publish between two pages of a listing: the next page's cursor is stale, never mixed.
  heading('A new revision while a reader pages');
  const tree = await source.listTree({ limit: 1 });
  await publishKnowledge(db, {
    knowledgeBase: 'handbook',
    catalog: handbook.catalog,
    files: handbook.files,
    revision: 'r2',
    schema,
  });
  try {
    await source.listTree({ limit: 1, cursor: tree.nextCursor });
  } catch (error) {
    if (!isKnowledgeToolError(error)) throw error;
    console.log(`next page: ${error.code} (start the listing again)`);
  }
  console.log(`now: ${(await source.listTree({})).activeContentRevision}`);
} finally {
  if (url !== undefined) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await (url === undefined ? db.close() : db.end());
}
