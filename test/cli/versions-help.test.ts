/**
 * The versions examples of `--help` work as printed, in a folder holding `./docs` and `./docs-v2`:
 * `search`, `read` and `outline` read version `2.x` from `./docs-v2`, `serve` (on a free port) and
 * `mcp` serve both, `3.x` the default.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_HELP, OUTLINE_HELP, READ_HELP, SEARCH_HELP, SERVE_HELP } from '../../src/cli/help.js';
import { requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { getJson, startServe } from '../helpers/cli-serve.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-versions-help-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

const KNOWLEDGE = fileURLToPath(new URL('../../examples/knowledge/', import.meta.url));
const PLANTED = 'In version two, a line is an anchor';

/** A folder with `docs` (3.x: the example knowledge) and `docs-v2` (2.x: a copy with a planted change). */
async function cwd(): Promise<string> {
  const root = await tempRoot();
  await cp(KNOWLEDGE, join(root, 'docs'), { recursive: true });
  await cp(KNOWLEDGE, join(root, 'docs-v2'), { recursive: true });
  const page = join(root, 'docs-v2', 'anchored-markdown.md');
  const text = await readFile(page, 'utf8');
  expect(text).toContain('A line is an anchor');
  await writeFile(page, text.replace('A line is an anchor', PLANTED));
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
    expect(search.stdout).toMatch(/^\S+ {2}pages\/anchored-markdown\.md /);
    const read = await runCli(exampleOf(READ_HELP, 'read'), { cwd: dir });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain(PLANTED);
    // The same read of the default version is 3.x's page.
    const args = exampleOf(READ_HELP, 'read');
    const of3 = await runCli([...args.slice(0, -3), args.at(-1)!], { cwd: dir });
    expect(of3.code, of3.stderr).toBe(0);
    expect(of3.stdout).not.toContain(PLANTED);
    expect(of3.stdout).toContain('A line is an anchor');
    const outline = await runCli(exampleOf(OUTLINE_HELP, 'outline'), { cwd: dir });
    expect(outline.code, outline.stderr).toBe(0);
    expect(outline.stdout).toMatch(/^anchored-markdown {2}\(anchored-markdown\.md, /m);
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
      name: 'read_file',
      arguments: { fileId: 'anchored-markdown' },
    });
    expect(JSON.stringify(found.structuredContent)).not.toContain(PLANTED);
    await mcp.close();
  });
});
