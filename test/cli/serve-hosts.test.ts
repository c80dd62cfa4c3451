/**
 * `knowledge-kit serve` on loopback (the default) refuses a request for a foreign `Host` or from a
 * foreign `Origin` (a page on a domain rebound to 127.0.0.1), and answers what `--allowed-host` and
 * `--allowed-origin` allow. A real spawned `serve`, requests through `node:http` with those headers.
 */
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { startServe } from '../helpers/cli-serve.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();
beforeAll(requireBuiltCli);

/** The status of a GET of `url` sent with exactly `headers` (`Host` included). */
function statusOf(url: string, headers: Readonly<Record<string, string>>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: target.hostname, port: target.port, path: target.pathname, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('serve on loopback checks Host and Origin', () => {
  it('refuses a rebound Host and a foreign Origin, and answers the allowed ones', async () => {
    const dir = await writeHandbook(await tempRoot());
    const { url } = await startServe([
      dir,
      '--port',
      '0',
      '--allowed-host',
      'kb.internal',
      '--allowed-origin',
      'https://app.example',
    ]);
    const tree = `${url}/tree`;
    const own = new URL(url).host;
    expect(await statusOf(tree, { host: own })).toBe(200);
    expect(await statusOf(tree, { host: 'evil.example' })).toBe(403);
    expect(await statusOf(tree, { host: own, origin: 'http://evil.example' })).toBe(403);
    expect(await statusOf(tree, { host: 'kb.internal:8787', origin: 'https://app.example' })).toBe(
      200,
    );
  });
});
