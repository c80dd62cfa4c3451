/**
 * The MCP Inspector CLI (0.15, the newest that runs on Node 20) against `knowledge-kit mcp` on stdio and
 * `knowledge-kit serve` over Streamable HTTP. The Inspector is not a dev dependency (about 150 MB and
 * 180 packages); this file runs when `KNOWLEDGE_KIT_INSPECTOR` names its `mcp-inspector` bin:
 *
 *   npm install --prefix /tmp/inspector @modelcontextprotocol/inspector@0.15.0
 *   KNOWLEDGE_KIT_INSPECTOR=/tmp/inspector/node_modules/.bin/mcp-inspector npx vitest run test/mcp/inspector.test.ts
 */
import { execFile } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { startServe } from '../helpers/cli-serve.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const INSPECTOR = process.env['KNOWLEDGE_KIT_INSPECTOR'];
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-inspector-' });
useRunningClis();

/** Runs `mcp-inspector --cli …args` and parses the JSON it prints. */
function inspect(args: readonly string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(INSPECTOR!, ['--cli', ...args], { timeout: 60_000 }, (error, out, err) =>
      error
        ? reject(new Error(`${args.join(' ')}\n${out}\n${err}`, { cause: error }))
        : resolve(JSON.parse(out) as Record<string, unknown>),
    );
  });
}

describe.runIf(INSPECTOR !== undefined)('the MCP Inspector CLI 0.15', () => {
  let dir: string;
  beforeAll(async () => {
    await requireBuiltCli();
    dir = await writeHandbook(await tempRoot());
  });
  const stdio = () => [process.execPath, CLI_PATH, 'mcp', dir];

  it('over stdio: lists the tools, calls list_tree with --tool-arg limit=1 (a string), shows NOT_FOUND, lists and reads resources', async () => {
    const { tools } = (await inspect([...stdio(), '--method', 'tools/list'])) as {
      tools: { name: string }[];
    };
    expect(tools).toHaveLength(6);
    const tree = (await inspect([
      ...stdio(),
      ...['--method', 'tools/call', '--tool-name', 'list_tree', '--tool-arg', 'limit=1'],
    ])) as { isError?: boolean; structuredContent: { items: unknown[] } };
    expect(tree.isError).not.toBe(true);
    expect(tree.structuredContent.items).toHaveLength(1);
    const missing = (await inspect([
      ...stdio(),
      ...['--method', 'tools/call', '--tool-name', 'read_file', '--tool-arg', 'fileId=nope'],
    ])) as { isError: boolean; content: { text: string }[] };
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0]!.text).error.code).toBe('NOT_FOUND');
    const { resources } = (await inspect([...stdio(), '--method', 'resources/list'])) as {
      resources: { uri: string }[];
    };
    expect(resources.map((r) => r.uri)).toContain('knowledge:///pages/guide.md');
    const { contents } = (await inspect([
      ...stdio(),
      ...['--method', 'resources/read', '--uri', 'knowledge:///pages/guide.md'],
    ])) as { contents: { text: string }[] };
    expect(contents[0]!.text).toContain('# Returns guide');
  }, 120_000);

  it('over Streamable HTTP (knowledge-kit serve, no token: Inspector 0.15 sends no headers)', async () => {
    const served = await startServe([dir, '--port', '0', '--quiet']);
    try {
      const { tools } = (await inspect([
        `${served.url}/mcp`,
        ...['--transport', 'http', '--method', 'tools/list'],
      ])) as { tools: unknown[] };
      expect(tools).toHaveLength(6);
    } finally {
      served.cli.child.kill('SIGTERM');
    }
  }, 120_000);
});
