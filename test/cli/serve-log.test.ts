/** The request log of `serve`: a text line per request, `--log json`, `--quiet`, and their usage errors. */
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { getJson, requestLog, startServe } from '../helpers/cli-serve.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

describe.concurrent('the request log of serve', () => {
  it('one text line per request by default; --log json one object per line; --quiet none', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    const runs = await Promise.all(
      [[], ['--log', 'json'], ['--quiet']].map(async (extra) => {
        const { cli, url } = await startServe(['kb', '--port', '0', ...extra], { cwd: root });
        for (let i = 0; i < 3; i++)
          expect((await getJson(`${url}/tree?limit=${i + 1}`)).status).toBe(200);
        cli.child.kill('SIGINT');
        await cli.exited;
        return cli.stderr();
      }),
    );
    const [text, json, quiet] = runs as [string, string, string];
    expect(requestLog(text).map((entry) => entry.path)).toEqual(
      [1, 2, 3].map((n) => `/knowledge-bases/kb/tree?limit=${n}`),
    );
    const objects = linesOf(json)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects.map((o) => [o['method'], o['path'], o['status']])).toEqual(
      [1, 2, 3].map((n) => ['GET', `/knowledge-bases/kb/tree?limit=${n}`, 200]),
    );
    for (const o of objects) {
      expect(typeof o['ms']).toBe('number');
      expect(Number.isNaN(Date.parse(String(o['time'])))).toBe(false);
    }
    expect(requestLog(json)).toEqual([]);
    expect(requestLog(quiet)).toEqual([]);
    expect(quiet).not.toContain('/knowledge-bases/kb/tree');
  });

  it('--log bogus and --quiet with --log are usage errors (exit 2, one line)', async () => {
    const root = await tempRoot();
    for (const args of [
      ['--log', 'xml'],
      ['--quiet', '--log', 'json'],
    ]) {
      const result = await runCli(['serve', root, '--port', '0', ...args]);
      expect(result.code).toBe(2);
      expect(linesOf(result.stderr)).toHaveLength(1);
    }
  });
});
