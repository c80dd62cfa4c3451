/**
 * `knowledge-kit serve` stops within a few seconds of SIGTERM while MCP `subscriptions/listen` streams
 * are open (their keep-alive pings never end them). A real spawned `serve`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { startServe } from '../helpers/cli-serve.js';
import { openListen } from '../helpers/listen.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();
beforeAll(requireBuiltCli);

describe('serve and SIGTERM', () => {
  it('stops within a few seconds with listen streams open', async () => {
    const dir = await writeHandbook(await tempRoot());
    const { cli, url } = await startServe([dir, '--port', '0', '--quiet']);
    for (let id = 1; id <= 3; id++) {
      const { first } = await openListen(`${url}/mcp`, {}, id);
      expect(first).toContain('notifications/subscriptions/acknowledged');
    }
    const started = performance.now();
    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(code).toBe(0);
    expect(cli.stderr()).toContain('SIGTERM, stopping');
  });
});
