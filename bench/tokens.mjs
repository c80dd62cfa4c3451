// What a model reads over MCP, in tokens of a real tokenizer (gpt-tokenizer, o200k_base: the
// encoding of current OpenAI models; other vendors' tokenizers differ by a few percent, not by the
// ratios measured here). Today's wire format (`text: 'json'`, the tools' full output schemas) against
// the default (compact text, lean output schemas), on the same server and the same calls:
//
// - tools/list: the tools as a client receives them (names, descriptions, both schemas, annotations);
// - a ten-candidate search: the text block of `search_files` with `limit: 10`;
// - a page read: the text block of `read_file` on the best candidate, against the page's own tokens;
//   and the same over every page of the folder (all read texts against all pages).
//
//   node bench/tokens.mjs [folder] [question]     (default: this repository's docs/ folder)
//   npm run bench:tokens
//
// Goals: the search answer at most half of today's tokens, a read within 5% of the page's own
// tokens, tools/list under 3,000 tokens.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { countTokens } from 'gpt-tokenizer';
import { createCatalogSource } from 'knowledge-kit/agent';
import { createKnowledgeMcpServer } from 'knowledge-kit/mcp';
import { loadKnowledgeDirectory } from 'knowledge-kit/node';

const folder = process.argv[2] ?? fileURLToPath(new URL('../docs/', import.meta.url));
const question = process.argv[3] ?? 'When does a cursor go stale and what should the agent do?';

const { catalog, files, linkRoot } = await loadKnowledgeDirectory(folder);
const source = createCatalogSource(catalog, { id: 'bench', files, linkRoot });
await source.warm?.({});

/** A connected in-memory client of a server made with `options`. */
async function connect(options) {
  const server = createKnowledgeMcpServer(source, { name: 'bench', version: '1.0.0', ...options });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

/** The text a model reads of a tool result: its text blocks. */
const textOf = (result) => result.content.map((block) => block.text).join('\n');

/** Tokens of the figures for one wire format. */
async function measure(options) {
  const client = await connect(options);
  const { tools } = await client.listTools();
  const search = await client.callTool({
    name: 'search_files',
    arguments: { query: question, limit: 10 },
  });
  if (search.isError) throw new Error(`search_files failed: ${textOf(search)}`);
  const { items } = search.structuredContent;
  const read = await client.callTool({ name: 'read_file', arguments: { fileId: items[0].fileId } });
  if (read.isError) throw new Error(`read_file failed: ${textOf(read)}`);
  // Every page, read whole in parts: what the reads cost against what the pages hold.
  let readTokens = 0;
  let pageTokens = 0;
  for (const id of catalog.ids) {
    let cursor;
    do {
      const part = await client.callTool({
        name: 'read_file',
        arguments: cursor === undefined ? { fileId: id } : { cursor },
      });
      readTokens += countTokens(textOf(part));
      pageTokens += countTokens(part.structuredContent.content);
      cursor = part.structuredContent.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  await client.close();
  return {
    toolsList: countTokens(JSON.stringify(tools)),
    outputSchemas: countTokens(JSON.stringify(tools.map((tool) => tool.outputSchema))),
    candidates: items.length,
    search: countTokens(textOf(search)),
    read: countTokens(textOf(read)),
    page: countTokens(read.structuredContent.content),
    readPath: read.structuredContent.file.path,
    allReads: readTokens,
    allPages: pageTokens,
  };
}

const today = await measure({ text: 'json', outputSchemas: 'full' });
const after = await measure({});
const percent = (value, of) => `${((100 * value) / of - 100).toFixed(1)}%`;
const rows = [
  ['tools/list', today.toolsList, after.toolsList, '< 3,000', after.toolsList < 3000],
  ['  of which output schemas', today.outputSchemas, after.outputSchemas, '', undefined],
  [
    `search_files, ${after.candidates} candidates`,
    today.search,
    after.search,
    `<= ${Math.floor(today.search / 2)}`,
    after.search <= today.search / 2,
  ],
  [
    `read_file ${after.readPath} (page: ${after.page})`,
    `${today.read} (+${percent(today.read, today.page)})`,
    `${after.read} (+${percent(after.read, after.page)})`,
    '<= +5%',
    after.read <= after.page * 1.05,
  ],
  [
    `every page read (pages: ${after.allPages})`,
    `${today.allReads} (+${percent(today.allReads, today.allPages)})`,
    `${after.allReads} (+${percent(after.allReads, after.allPages)})`,
    '<= +5%',
    after.allReads <= after.allPages * 1.05,
  ],
];
console.log(
  `MCP tokens (o200k_base) on ${folder}, ${catalog.ids.length} pages; question: ${question}`,
);
console.log('| what the model reads | today (text json, full schemas) | default | goal | met |');
console.log('|---|---:|---:|---|---|');
for (const [what, before, now, goal, met] of rows)
  console.log(
    `| ${what} | ${before} | ${now} | ${goal} | ${met === undefined ? '' : met ? 'yes' : 'no'} |`,
  );
