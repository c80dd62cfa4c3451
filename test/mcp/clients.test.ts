/**
 * The real MCP clients against the real server: the SDK v1 and v2 clients over stdio
 * (`knowledge-kit mcp` on dist/cli.js). Every tool, an error of each kind, string scalars.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_TOOL_NAMES } from '../../src/agent/index.js';
import { requireBuiltCli } from '../cli/helpers/cli.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { writeHandbook } from '../cli/helpers/knowledge.js';
import { connectStdio, textJson, type ClientKind, type Connected } from './clients.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-mcp-clients-' });
beforeAll(requireBuiltCli);

const KINDS: readonly ClientKind[] = ['sdk-v1', 'sdk-v2'];

/** One successful call of each tool. */
const CALLS: Record<(typeof KNOWLEDGE_TOOL_NAMES)[number], Record<string, unknown>> = {
  search_files: { query: 'refund to the original card' },
  read_file: { path: 'pages/guide.md' },
  list_tree: {},
  get_file: { fileId: 'guide' },
  read_related: { fileId: 'guide' },
  expand_graph: { fileId: 'guide', depth: 1 },
};

/** An error of each kind the tools answer to a client's mistake, and the code it must show. */
const ERRORS: readonly { name: string; arguments: Record<string, unknown>; code: string }[] = [
  { name: 'get_file', arguments: { fileId: 'no-such-file' }, code: 'NOT_FOUND' },
  { name: 'read_file', arguments: { path: 'pages/none.md' }, code: 'NOT_FOUND' },
  { name: 'search_files', arguments: { query: '   ' }, code: 'INVALID_ARGUMENT' },
  { name: 'list_tree', arguments: { limit: 'ten' }, code: 'INVALID_ARGUMENT' },
  { name: 'list_tree', arguments: { cursor: 'not-a-cursor' }, code: 'INVALID_CURSOR' },
];

describe.each(KINDS)('%s over stdio (knowledge-kit mcp)', (kind) => {
  let connected: Connected;
  beforeAll(async () => {
    const dir = await writeHandbook(await tempRoot());
    connected = await connectStdio(kind, [dir]);
  }, 30_000);
  afterAll(async () => connected?.client.close());

  it('lists the six tools and calls each: success with structuredContent equal to the text block', async () => {
    const { client } = connected;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...KNOWLEDGE_TOOL_NAMES].sort());
    for (const [name, args] of Object.entries(CALLS)) {
      const reply = await client.callTool({ name, arguments: args });
      expect(reply.isError, `${name}: ${JSON.stringify(reply)}`).toBe(false);
      expect(reply.structuredContent, name).toEqual(textJson(reply));
    }
  });

  it('shows every tool error as the client received it: isError, our code and message in the text', async () => {
    const { client } = connected;
    for (const call of ERRORS) {
      const reply = await client.callTool({ name: call.name, arguments: call.arguments });
      const what = `${call.name} ${JSON.stringify(call.arguments)}`;
      expect(reply.isError, what).toBe(true);
      expect(reply.structuredContent, what).toBeUndefined();
      const body = textJson(reply) as {
        error: { code: string; message: string };
        requestId: string;
      };
      expect(body.error.code, what).toBe(call.code);
      expect(body.error.message.length, what).toBeGreaterThan(10);
      expect(typeof body.requestId, what).toBe('string');
    }
  });
});
