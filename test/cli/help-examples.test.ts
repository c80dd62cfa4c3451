/**
 * The examples `serve --help` and `mcp --help` print work as printed: the `--base-path` and
 * `--access-file` examples of `serve` on a real `serve`, and the client configuration of `mcp` started
 * as a client would start it (its command is the package's bin, run here as `node dist/cli.js`).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_HELP, SERVE_HELP } from '../../src/cli/help.js';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { getJson, startServe } from '../helpers/cli-serve.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-help-examples-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

describe('the --help examples work as printed', () => {
  it('serve: --base-path /openapi/v2 and the --access-file JSON', async () => {
    const basePath = SERVE_HELP.match(/--base-path p .*such as (\/\S+)/)?.[1];
    const access = SERVE_HELP.match(/such as (\{"[^}]*\})/)?.[1];
    expect([basePath, access]).toEqual(['/openapi/v2', '{"s3cret": ["handbook"]}']);
    const root = await tempRoot();
    const dir = await writeHandbook(root); // a folder named `handbook`: the ID the example names
    const file = join(root, 'access.json');
    await writeFile(file, access!);
    const { url } = await startServe([
      dir,
      '--port',
      '0',
      '--quiet',
      '--base-path',
      basePath!,
      '--access-file',
      file,
    ]);
    expect(url).toMatch(/\/openapi\/v2\/knowledge-bases\/handbook$/);
    const token = Object.keys(JSON.parse(access!) as object)[0]!;
    expect((await getJson(`${url}/tree`, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await getJson(`${url}/tree`)).status).toBe(401);
  });

  it('mcp: the client configuration, with the folder for its absolute path', async () => {
    const line = MCP_HELP.split('\n').find((l) => l.trimStart().startsWith('{ "mcpServers"'));
    const config = JSON.parse(line!) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = Object.values(config.mcpServers)[0]!;
    const bin = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: object }).bin;
    expect(Object.keys(bin)).toContain(server.command);
    expect(server.args).toEqual(['mcp', '/absolute/path/to/knowledge']);
    const dir = await writeHandbook(await tempRoot());
    const mcp = await connectMcp(
      server.args.slice(1).map((arg) => (arg.startsWith('/') ? dir : arg)),
    );
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_files');
    await mcp.close();
  });
});
