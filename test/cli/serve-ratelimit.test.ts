/**
 * `knowledge-kit serve` limits each client address by default (20 calls a second, bursts of 80);
 * `--rate-limit n` changes it and `--rate-limit 0` turns it off. A real spawned `serve`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { startServe } from '../helpers/cli-serve.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();
beforeAll(requireBuiltCli);

/** The statuses of `n` GETs of `url`, one after another. */
async function statuses(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await fetch(url);
    await response.arrayBuffer();
    out.push(response.status);
  }
  return out;
}

describe('serve rate limit', () => {
  it('limits by default: a burst well past 80 calls gets 429', async () => {
    const dir = await writeHandbook(await tempRoot());
    const { url } = await startServe([dir, '--port', '0', '--quiet']);
    // Five waves of 60 at once, so that the refill (20 a second) cannot keep up whatever the
    // machine's load. Two waves' sockets together (a wave may open new ones while the last wave's
    // are not yet back in the client's pool) stay under the 128 connections an address may hold:
    // waves of 100 sometimes went over it, and the server closed the extra sockets.
    const got: number[] = [];
    for (let wave = 0; wave < 5; wave++)
      got.push(
        ...(await Promise.all(
          Array.from({ length: 60 }, async () => {
            const response = await fetch(`${url}/tree`);
            await response.arrayBuffer();
            return response.status;
          }),
        )),
      );
    expect(got.filter((s) => s === 200).length).toBeGreaterThanOrEqual(80);
    expect(got).toContain(429);
  });

  it('--rate-limit 1 allows a burst of 4; --rate-limit 0 none at all', async () => {
    const dir = await writeHandbook(await tempRoot());
    const one = await startServe([dir, '--port', '0', '--quiet', '--rate-limit', '1']);
    const got = await statuses(`${one.url}/tree`, 6);
    expect(got.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(got[5]).toBe(429);
    const off = await startServe([dir, '--port', '0', '--quiet', '--rate-limit', '0']);
    expect((await statuses(`${off.url}/tree`, 100)).every((s) => s === 200)).toBe(true);
  });

  it('refuses a --rate-limit that is not a whole number', async () => {
    const dir = await writeHandbook(await tempRoot());
    const result = await runCli(['serve', dir, '--rate-limit', 'fast']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--rate-limit must be a whole number');
  });
});
