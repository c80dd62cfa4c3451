// Knowledge Kit's six tools as an MCP server, on the bundled example knowledge.
//
//   node examples/mcp-server.mjs              serve on stdio (point an MCP client at this command)
//   node examples/mcp-server.mjs --self-test  connect an in-memory client, list the tools, call two, exit
//
// `npm run example:mcp` builds and runs the self-test. On stdio, stdout carries the protocol: log to stderr.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { createCatalogSource } from 'knowledge-kit/agent';
import { createKnowledgeMcpServer } from 'knowledge-kit/mcp';

// 1. The app compiles its knowledge as usual and says where each page lives and how it is tagged.
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

// 2. One call gives an unconnected MCP server with the tools registered (schemas, annotations, policy).
const server = createKnowledgeMcpServer(source, {
  name: 'knowledge-kit-example',
  version: '1.0.0',
});

if (process.argv.includes('--self-test')) {
  // 3a. A client in the same process, over the SDK's in-memory transport.
  const { Client } = await import('@modelcontextprotocol/client');
  const { InMemoryTransport } = await import('@modelcontextprotocol/server');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'self-test', version: '1.0.0' });
  await client.connect(clientTransport);

  const { tools } = await client.listTools();
  console.log('=== tools/list ===');
  for (const tool of tools)
    console.log(`${tool.name} (${tool.title}) readOnly=${tool.annotations?.readOnlyHint}`);

  console.log('\n=== search_files ===');
  const search = await client.callTool({
    name: 'search_files',
    arguments: { query: 'When does a cursor go stale?' },
  });
  for (const item of search.structuredContent.items.slice(0, 3))
    console.log(`${item.score.toFixed(3)}  ${item.path}  ${item.sourceExcerpt}`);

  console.log('\n=== read_file (the first candidate) ===');
  const read = await client.callTool({
    name: 'read_file',
    arguments: { fileId: search.structuredContent.items[0].fileId },
  });
  console.log(
    `snapshot ${read.structuredContent.file.snapshotId}: ${read.structuredContent.content.length} characters`,
  );

  console.log('\n=== an error result ===');
  const missing = await client.callTool({ name: 'get_file', arguments: { fileId: 'agent-tool' } });
  // An error result carries the error JSON as its text (no structuredContent, so every client shows it).
  console.log(
    `isError=${missing.isError}`,
    JSON.stringify(JSON.parse(missing.content[0].text).error),
  );

  await client.close();
  await server.close();
  if (search.isError || read.isError || !missing.isError) process.exitCode = 1;
} else {
  // 3b. Serve on stdio until the client closes the pipe.
  const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  await server.connect(new StdioServerTransport());
  console.error(
    'knowledge-kit-example MCP server on stdio; tools: search_files, read_file, list_tree, get_file, read_related, expand_graph',
  );
}
