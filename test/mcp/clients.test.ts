/**
 * The real MCP clients against the real server, on the built bin: the SDK v1 and v2 clients over stdio
 * (`knowledge-kit mcp`) and over Streamable HTTP (`knowledge-kit serve` on a loopback port, with and
 * without a token; the v2 client also on the 2026-07-28 protocol). Every tool, an error of each kind,
 * string scalars, resources.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_TOOL_NAMES } from '../../src/agent/index.js';
import { linesOf, requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { continuity } from '../helpers/tools-mcp.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { startServe, type Served } from '../helpers/cli-serve.js';
import { connectHttp, connectStdio, textJson, type ClientKind, type Connected } from './clients.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-mcp-clients-' });
useRunningClis();
beforeAll(requireBuiltCli);

const TOKEN = 's3cret-mcp-token';

/** One successful call of each tool, some with integers and booleans as strings. */
const CALLS: Record<(typeof KNOWLEDGE_TOOL_NAMES)[number], Record<string, unknown>> = {
  search_files: { query: 'refund to the original card', limit: '3', rerank: 'false' },
  read_file: { path: 'pages/guide.md' },
  list_tree: { limit: '1' },
  get_file: { fileId: 'guide' },
  read_related: { fileId: 'guide', limit: '5' },
  expand_graph: { fileId: 'guide', depth: '1' },
};

/** An error of each kind the tools answer to a client's mistake, and the code it must show. */
const ERRORS: readonly { name: string; arguments: Record<string, unknown>; code: string }[] = [
  { name: 'get_file', arguments: { fileId: 'no-such-file' }, code: 'NOT_FOUND' },
  { name: 'read_file', arguments: { path: 'pages/none.md' }, code: 'NOT_FOUND' },
  { name: 'search_files', arguments: { query: '   ' }, code: 'INVALID_ARGUMENT' },
  { name: 'list_tree', arguments: { limit: 'ten' }, code: 'INVALID_ARGUMENT' },
  { name: 'list_tree', arguments: { limit: '5.0' }, code: 'INVALID_ARGUMENT' },
  { name: 'search_files', arguments: { query: 'refund', rerank: 'yes' }, code: 'INVALID_ARGUMENT' },
  { name: 'list_tree', arguments: { cursor: 'not-a-cursor' }, code: 'INVALID_CURSOR' },
];

/** What every client on every transport must see. */
function exercise(connect: () => Promise<Connected>, readActions = false): void {
  let connected: Connected;
  beforeAll(async () => {
    connected = await connect();
  }, 30_000);
  afterAll(async () => connected?.client.close());

  it('lists the six tools and calls each (integers and booleans as strings too): success with structuredContent, and the compact text holding its IDs, paths, cursors and snapshotId', async () => {
    const { client } = connected;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...KNOWLEDGE_TOOL_NAMES].sort());
    for (const [name, args] of Object.entries(CALLS)) {
      const reply = await client.callTool({ name, arguments: args });
      expect(reply.isError, `${name}: ${JSON.stringify(reply)}`).toBe(false);
      expect(reply.content, name).toHaveLength(1);
      const text = reply.content[0]!.text!;
      for (const value of continuity(reply.structuredContent, [
        'fileId',
        'path',
        'nextCursor',
        'snapshotId',
      ]))
        expect(text, `${name}: ${value}`).toContain(value);
      // Read-action URLs only where a client can fetch them: over HTTP.
      expect(text.includes('readActions: '), name).toBe(
        readActions && JSON.stringify(reply.structuredContent).includes('"readActions"'),
      );
    }
    const read = await client.callTool({ name: 'read_file', arguments: CALLS.read_file });
    const { content } = read.structuredContent as { content: string };
    expect(read.content[0]!.text!.endsWith(`\n\n${content}`)).toBe(true);
    const tree = await client.callTool({ name: 'list_tree', arguments: { limit: '1' } });
    expect((tree.structuredContent as { items: unknown[] }).items).toHaveLength(1);
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

  it('lists the pages and index.md as resources with the template, and reads one as read_file does', async () => {
    const { client } = connected;
    const { resources } = await client.listResources();
    const byName = new Map(resources.map((resource) => [resource.name, resource]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(['index.md', 'pages/guide.md', 'pages/notes.md']),
    );
    expect(byName.get('pages/guide.md')).toMatchObject({
      uri: 'knowledge:///pages/guide.md',
      title: 'Returns guide',
      mimeType: 'text/markdown',
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'knowledge:///{+path}',
    ]);
    const read = await client.callTool({
      name: 'read_file',
      arguments: { path: 'pages/guide.md' },
    });
    const content = (read.structuredContent as { content: string }).content;
    const { contents } = await client.readResource({ uri: 'knowledge:///pages/guide.md' });
    expect(contents.map((c) => [c.uri, c.mimeType, c.text])).toEqual([
      ['knowledge:///pages/guide.md', 'text/markdown', content],
    ]);
    expect(byName.get('pages/guide.md')!.size).toBe(Buffer.byteLength(content));
    await expect(client.readResource({ uri: 'knowledge:///pages/none.md' })).rejects.toThrow(
      /NOT_FOUND/,
    );
  });
}

describe.each(['sdk-v1', 'sdk-v2'] as const)('%s over stdio (knowledge-kit mcp)', (kind) => {
  exercise(async () => connectStdio(kind, [await writeHandbook(await tempRoot())]));
});

/** `serve` on the handbook, with `--token-file` when `token`. */
async function serveHandbook(token: boolean): Promise<Served> {
  const dir = await writeHandbook(await tempRoot());
  const args = [dir, '--port', '0', '--quiet'];
  if (token) {
    const file = join(dir, '..', 'token');
    await writeFile(file, `${TOKEN}\n`);
    args.push('--token-file', file);
  }
  return startServe(args);
}

/** The MCP URL and client configuration `serve` printed. */
function printedMcp(served: Served): { url: string; config: unknown } {
  const lines = linesOf(served.cli.stdout());
  const url = lines.find((line) => line.startsWith('export KNOWLEDGE_MCP_URL='))!.slice(25);
  const config = JSON.parse(lines.find((line) => line.startsWith('{"mcpServers"'))!) as unknown;
  return { url, config };
}

const HTTP_KINDS: readonly ClientKind[] = ['sdk-v1', 'sdk-v2', 'sdk-v2-2026'];

describe.each([false, true])('over Streamable HTTP (knowledge-kit serve, token: %s)', (token) => {
  let served: Served;
  let mcp: { url: string; config: unknown };
  beforeAll(async () => {
    served = await serveHandbook(token);
    mcp = printedMcp(served);
  }, 30_000);
  afterAll(() => {
    served?.cli.child.kill('SIGTERM');
  });

  it('prints the MCP URL under the knowledge base and a client configuration with the token header', () => {
    expect(mcp.url).toBe(`${served.url}/mcp`);
    expect(mcp.config).toEqual({
      mcpServers: {
        handbook: {
          type: 'http',
          url: mcp.url,
          ...(token ? { headers: { Authorization: 'Bearer ${KNOWLEDGE_TOKEN}' } } : {}),
        },
      },
    });
  });

  /** The headers of the printed configuration, `${KNOWLEDGE_TOKEN}` expanded as a client would. */
  const headers = (): Record<string, string> => (token ? { Authorization: `Bearer ${TOKEN}` } : {});

  for (const kind of HTTP_KINDS) {
    describe(kind, () => {
      exercise(() => connectHttp(kind, mcp.url, headers()), true);
    });
  }

  it.runIf(token)('refuses every client without the token (401)', async () => {
    for (const kind of HTTP_KINDS)
      await expect(connectHttp(kind, mcp.url), kind).rejects.toThrow(/401|nauthorized/);
  });
});

describe.each(['sdk-v1', 'sdk-v2'] as const)('%s over stdio with --text json', (kind) => {
  it('gets the structuredContent serialised as the text block', async () => {
    const { client } = await connectStdio(kind, [
      await writeHandbook(await tempRoot()),
      '--text',
      'json',
    ]);
    try {
      for (const [name, args] of Object.entries(CALLS)) {
        const reply = await client.callTool({ name, arguments: args });
        expect(reply.isError, name).toBe(false);
        expect(textJson(reply), name).toEqual(reply.structuredContent);
      }
    } finally {
      await client.close();
    }
  });
});

describe('knowledge-kit mcp --text', () => {
  it('refuses a value other than compact or json: exit 2, one line naming the flag and the values', async () => {
    const result = await runCli(['mcp', await writeHandbook(await tempRoot()), '--text', 'yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'knowledge-kit mcp: --text is compact (the default, written for the model) or json (the structuredContent as text), not `yaml`.',
    );
    expect(result.stdout).toBe('');
  });
});

describe('knowledge-kit serve --no-mcp', () => {
  it('prints no MCP lines and answers 405 at /mcp', async () => {
    const dir = await writeHandbook(await tempRoot());
    const served = await startServe([dir, '--port', '0', '--quiet', '--no-mcp']);
    try {
      expect(served.cli.stdout()).not.toContain('KNOWLEDGE_MCP_URL');
      const response = await fetch(`${served.url}/mcp`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(405);
    } finally {
      served.cli.child.kill('SIGTERM');
    }
  });
});
