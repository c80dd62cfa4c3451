/**
 * `serve --watch` under a bounded loopback load while files are rewritten, good and broken (issue 20
 * item 2): no request fails, and no response mixes two revisions (each `activeContentRevision` comes
 * with one content and one status of the rewritten file, whatever response carries it).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { replaceFile } from '../helpers/tree.js';
import { startServe } from '../helpers/cli-serve.js';
import { waitFor } from '../helpers/waitFor.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

const BROKEN = 'Broken.\n<!-- agent-section:open -->\nNever closed.\n';
const WORKERS = 8;
const MAX_REQUESTS = 1_500;
const MAX_MS = 25_000;

describe('serve --watch under load', () => {
  it('answers every request through 12 rewrites (4 broken), each response from one revision', async () => {
    const root = await tempRoot();
    await writeTree(root, {
      'kb/live.md': 'Version 0.\n',
      'kb/other.md': 'Other page.\n',
    });
    // Load, not limits, is what this test is about: serve's default limit per address is off.
    const { cli, url } = await startServe(
      ['kb', '--port', '0', '--watch', '--quiet', '--rate-limit', '0'],
      {
        cwd: root,
        timeoutMs: 60_000,
      },
    );
    const started = Date.now();
    let sent = 0;
    let writing = true;
    const failures: string[] = [];
    // What each revision served: the content of live.md and its status, from every response.
    const contentOf = new Map<string, string>();
    const statusOf = new Map<string, string>();
    const note = (map: Map<string, string>, revision: string, value: string, what: string) => {
      const seen = map.get(revision);
      if (seen === undefined) map.set(revision, value);
      else if (seen !== value)
        failures.push(
          `${what} of ${revision}: ${JSON.stringify(seen)} and ${JSON.stringify(value)}`,
        );
    };
    const worker = async (n: number): Promise<void> => {
      while (writing && sent < MAX_REQUESTS && Date.now() - started < MAX_MS) {
        sent++;
        const read = n % 2 === 0;
        const target = read ? `${url}/files/live/content` : `${url}/files/live`;
        try {
          const response = await fetch(target);
          const body = (await response.json()) as Record<string, unknown>;
          if (response.status !== 200) {
            failures.push(`${target}: ${response.status} ${JSON.stringify(body)}`);
            continue;
          }
          if (read) {
            const file = body['file'] as { activeContentRevision: string };
            note(contentOf, file.activeContentRevision, body['content'] as string, 'content');
          } else {
            note(
              statusOf,
              body['activeContentRevision'] as string,
              body['generatedOutputStatus'] as string,
              'status',
            );
          }
        } catch (error) {
          failures.push(`${target}: ${String(error)}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));

    const versions: string[] = [];
    for (let k = 1; k <= 12; k++) {
      const text = k % 3 === 0 ? BROKEN : `Version ${k}.\n`;
      await replaceFile(join(root, 'kb', 'live.md'), text);
      if (text !== BROKEN) versions.push(`Version ${k}.`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The last edit is good and is served.
    await replaceFile(join(root, 'kb', 'live.md'), 'Version final.\n');
    await waitFor(
      async () => {
        const body = (await (await fetch(`${url}/files/live/content`)).json()) as {
          content?: string;
        };
        return body.content === 'Version final.' ? true : undefined;
      },
      { what: () => `the final version; stderr:\n${cli.stderr()}` },
    );
    writing = false;
    await load;

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(WORKERS * 4);
    expect(sent).toBeLessThanOrEqual(MAX_REQUESTS + WORKERS);
    // Served contents were only good versions, never the broken text.
    for (const content of contentOf.values())
      expect(['Version 0.', ...versions, 'Version final.']).toContain(content);
    // A revision served with a broken live.md says so, and one with a good one does not.
    expect(
      [...statusOf.values()].every((s) => s === 'current_available' || s === 'previous_available'),
    ).toBe(true);
    expect(cli.stderr()).toMatch(/served from its last good version/);
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  }, 90_000);
});
