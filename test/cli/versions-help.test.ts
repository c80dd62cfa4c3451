/**
 * The versions examples of `--help` work as printed, in a folder holding `./docs` and `./docs-v2`:
 * `search`, `read` and `outline` read version `2.x` from `./docs-v2`, `serve` (on a free port) and
 * `mcp` serve both, `3.x` the default.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_HELP, OUTLINE_HELP, READ_HELP, SEARCH_HELP, SERVE_HELP } from '../../src/cli/help.js';
import { requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { getJson, startServe } from '../helpers/cli-serve.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-versions-help-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

/** The page `returns` with its window of `days` days. */
const returns = (days: number) =>
  `# Returns\n\n<!-- agent-section:window -->\n## Return window\n\nItems can be returned within ${days} days.\n<!-- /agent-section:window -->\n`;

/** A folder with `docs` (3.x, 60 days) and `docs-v2` (2.x, 30 days). */
async function cwd(): Promise<string> {
  const root = await tempRoot();
  await writeTree(root, { 'docs/returns.md': returns(60), 'docs-v2/returns.md': returns(30) });
  return root;
}

/** The arguments of the help's `knowledge-kit <command> --version …` example (double quotes kept together). */
function exampleOf(help: string, command: string): string[] {
  const line = help.split('\n').find((l) => l.startsWith(`  knowledge-kit ${command} --version `))!;
  expect(line, `${command} --help prints a versions example`).toBeDefined();
  return [...line.trim().matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
}

describe('the versions examples of --help work as printed', () => {
  it('search, read and outline read version 2.x from ./docs-v2', async () => {
    const dir = await cwd();
    const search = await runCli(exampleOf(SEARCH_HELP, 'search'), { cwd: dir });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('within 30 days');
    const read = await runCli(exampleOf(READ_HELP, 'read'), { cwd: dir });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('within 30 days');
    const outline = await runCli(exampleOf(OUTLINE_HELP, 'outline'), { cwd: dir });
    expect(outline.code, outline.stderr).toBe(0);
    expect(outline.stdout).toMatch(/^returns {2}\(returns\.md, /m);
  });

  it('serve (on a free port) and mcp serve both versions, 3.x the default', async () => {
    const dir = await cwd();
    const served = await startServe(
      [...exampleOf(SERVE_HELP, 'serve').slice(1), '--port', '0', '--quiet'],
      {
        cwd: dir,
      },
    );
    const root = await getJson(`${served.url}/tree`);
    expect(
      (root.body as { versions: { version: string; default: boolean }[] }).versions,
    ).toMatchObject([
      { version: '3.x', default: true },
      { version: '2.x', default: false },
    ]);
    served.cli.child.kill('SIGTERM');
    expect((await served.cli.exited).code).toBe(0);

    const mcp = await connectMcp(exampleOf(MCP_HELP, 'mcp').slice(1), dir);
    const found = await mcp.client.callTool({
      name: 'search_files',
      arguments: { query: 'return window' },
    });
    expect(JSON.stringify(found.structuredContent)).toContain('within 60 days');
    await mcp.close();
  });
});
