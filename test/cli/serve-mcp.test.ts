/**
 * `knowledge-kit serve`'s MCP endpoint (`{KB}/mcp`) as a client reaches it over Streamable HTTP: the
 * text block a tool result holds (`--text`), and cursors that outlive the process. `serve` signs tool
 * cursors and `resources/list` cursors with the key kept in the user's state folder (or
 * `--cursor-key-file`), so a client whose server restarted between two calls goes on where it was.
 * Real spawned `serve` processes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { startServe, type Served } from '../helpers/cli-serve.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { connectHttp, type RealClient } from '../mcp/clients.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-serve-mcp-' });
useRunningClis();
beforeAll(requireBuiltCli);

/** More pages than one `resources/list` page (50), each longer than one 40-code-point part. */
async function writeManyPages(root: string): Promise<string> {
  const dir = join(root, 'many');
  const files: Record<string, string> = {};
  for (let n = 1; n <= 60; n++) {
    const id = `p${String(n).padStart(2, '0')}`;
    files[`${id}.md`] =
      `# Page ${n}\n\nThe first paragraph of page ${n}.\n\nThe second paragraph of page ${n}, after it.\n`;
  }
  await writeTree(dir, files);
  return dir;
}

const clients: RealClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** The SDK v1 client (which pages `resources/list` by hand) on the served knowledge base's MCP endpoint. */
async function connect(served: Served): Promise<RealClient> {
  const { client } = await connectHttp('sdk-v1', `${served.url}/mcp`);
  clients.push(client);
  return client;
}

/** Stops a `serve` with SIGTERM and waits for it. */
async function stop(served: Served): Promise<void> {
  served.cli.child.kill('SIGTERM');
  expect((await served.cli.exited).code).toBe(0);
}

const SERVE = ['--port', '0', '--quiet', '--rate-limit', '0'];

describe('serve --text', () => {
  it('json: a tool result holds its structuredContent serialised; by default the compact text', async () => {
    const dir = await writeManyPages(await tempRoot());
    for (const [flags, json] of [
      [['--text', 'json'], true],
      [[], false],
    ] as const) {
      const served = await startServe([dir, ...SERVE, ...flags]);
      const client = await connect(served);
      const reply = await client.callTool({ name: 'list_tree', arguments: { limit: 1 } });
      expect(reply.isError).toBe(false);
      const text = reply.content[0]!.text!;
      if (json) expect(JSON.parse(text)).toEqual(reply.structuredContent);
      else expect(text).toMatch(/^1 entries/);
      await client.close();
      clients.length = 0;
      await stop(served);
    }
  });

  it('refuses another value, and --text with --no-mcp: exit 2, one line naming the fix', async () => {
    const dir = await writeManyPages(await tempRoot());
    const bad = await runCli(['serve', dir, '--text', 'yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--text is compact .* or json .*, not `yaml`/);
    const both = await runCli(['serve', dir, '--text', 'json', '--no-mcp']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--no-mcp serves no MCP; pick one/);
  });
});

describe('serve cursors across a restart', () => {
  it('a restarted serve honours the read_file, list_tree and resources/list cursors it issued before; another key refuses them', async () => {
    const root = await tempRoot();
    const dir = await writeManyPages(root);
    const args = [dir, ...SERVE, '--max-chars', '40'];
    const first = await startServe(args);
    const before = await connect(first);
    const read = await before.callTool({ name: 'read_file', arguments: { fileId: 'p01' } });
    const readCursor = (read.structuredContent as { nextCursor: string | null }).nextCursor;
    const tree = await before.callTool({
      name: 'list_tree',
      arguments: { parentPath: 'pages', limit: 1 },
    });
    const treeCursor = (tree.structuredContent as { nextCursor: string | null }).nextCursor;
    const listed = await before.listResources();
    expect(listed.resources.length).toBeGreaterThanOrEqual(50);
    expect([readCursor, treeCursor, listed.nextCursor]).toEqual([
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);
    await stop(first);
    clients.length = 0;

    // The same state folder (the tests' own, as every command here inherits it): the same key.
    const second = await startServe(args);
    const after = await connect(second);
    const next = await after.callTool({ name: 'read_file', arguments: { cursor: readCursor } });
    expect(next.isError, JSON.stringify(next.content)).toBe(false);
    expect(next.structuredContent).toMatchObject({ file: { fileId: 'p01' } });
    const nextTree = await after.callTool({ name: 'list_tree', arguments: { cursor: treeCursor } });
    expect(nextTree.isError, JSON.stringify(nextTree.content)).toBe(false);
    const rest = await after.listResources({ cursor: listed.nextCursor! });
    expect(rest.resources.length).toBeGreaterThan(0);
    expect(rest.resources[0]!.uri).not.toBe(listed.resources[0]!.uri);
    await stop(second);
    clients.length = 0;

    const keyFile = join(root, 'other-key');
    await writeFile(keyFile, 'another key, of at least sixteen bytes\n');
    const third = await startServe([...args, '--cursor-key-file', keyFile]);
    const other = await connect(third);
    const refused = await other.callTool({ name: 'read_file', arguments: { cursor: readCursor } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/INVALID_CURSOR/);
    await expect(other.listResources({ cursor: listed.nextCursor! })).rejects.toThrow(
      /INVALID_CURSOR/,
    );
    await stop(third);
  });
});
