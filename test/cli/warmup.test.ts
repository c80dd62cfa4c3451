/**
 * `serve` and `mcp` build the search index when they start (issue 21 item 12), in the background,
 * and say on stderr when it is ready; searches then answer. (What a search meets while the index is
 * still being built is tested over loopback in test/http/warm-up.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { getJson, startServe } from '../helpers/cli-serve.js';
import { waitFor } from '../helpers/waitFor.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-warm-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

const READY = /^knowledge-kit (serve|mcp): search index ready in \d+\.\d s$/m;

describe.concurrent('the search index at start', () => {
  it('serve builds it at start and says so on stderr; a search then answers 200', async () => {
    const dir = await writeHandbook(await tempRoot());
    const { cli, url } = await startServe([dir, '--port', '0', '--quiet']);
    await cli.stderrMatch(READY, 15_000);
    expect((await getJson(`${url}/search?query=parcels`)).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('mcp builds it at start and says so on stderr', async () => {
    const dir = await writeHandbook(await tempRoot());
    const connection = await connectMcp([dir]);
    await waitFor(() => READY.exec(connection.stderr()) ?? undefined, {
      timeoutMs: 15_000,
      what: () => `mcp's stderr to say the index is ready: ${connection.stderr()}`,
    });
    const found = await connection.client.callTool({
      name: 'search_files',
      arguments: { query: 'parcels' },
    });
    expect(found.isError).toBe(false);
  });
});
