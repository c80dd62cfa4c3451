/**
 * The commands that read knowledge take a folder or `--database` through one option table: every flag
 * `serve` documents works on a knowledge store too (each tested on the built bin, over PGlite, several
 * to one server where their checks do not meet), the flags that read a folder are refused there in
 * one line, and `search`, `read` and `outline` on a
 * published knowledge base print what they print on its folder.
 */
import { request } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_FLAGS } from '../../src/cli/flags.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { linesOf, requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { getJson, requestLog, startServe, type Served } from '../helpers/cli-serve.js';
import { copyPgliteFolder, freshPgliteFolder } from '../helpers/pglite-folder.js';
import { connectHttp } from '../mcp/clients.js';
import { expectSameOutput } from '../helpers/versions.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-db-' });
useRunningClis();

const cli = cliInProcess;

const TREE = {
  'guide.md':
    '# Guide\n\nHow to start.\n\n<!-- agent-section:setup -->\n## Setup\n\nInstall it, then run it.\n\n<!-- agent-section:setup.check -->\n### Check\n\nRun the check.\n<!-- /agent-section:setup.check -->\n<!-- /agent-section:setup -->\n',
  'faq/billing.md': '# Billing\n\nSee [the guide](../guide.md) to install it.\n',
};

let dir = '';
/** The published database's folder: no process keeps it open. */
let published = '';
let url = '';
/** A copy of the published database, for a `serve` of its own: its `pglite:` URL. */
const copy = async (): Promise<string> =>
  `pglite:${await copyPgliteFolder(published, await folder())}`;
beforeAll(async () => {
  dir = await folder(TREE);
  published = await freshPgliteFolder(await folder());
  url = `pglite:${published}`;
  const docs = await cli(['publish', dir, '--database', url, '--kb', 'docs']);
  expect(docs.stderr).toBe('');
  expect(docs.code).toBe(0);
  const other = await cli(['publish', dir, '--database', url, '--kb', 'alt', '--schema', 'other']);
  expect(other.code).toBe(0);
}, 120_000);

/**
 * Starts `serve …args`, waiting longer than usual for its URL: the tests of the flags start several at
 * once, each opening PGlite (seconds of CPU on a loaded machine).
 */
const serve = (args: readonly string[]): Promise<Served> => startServe(args, {}, 45_000);

/** Stops a running `serve` with SIGTERM and checks it exits 0 (PGlite takes one process at a time). */
async function stop(served: Served): Promise<string> {
  served.cli.child.kill('SIGTERM');
  expect((await served.cli.exited).code).toBe(0);
  return served.cli.stderr();
}

describe.concurrent('serve --database takes every flag serve documents', () => {
  beforeAll(requireBuiltCli);

  it('every flag of serve is in this file: those for a folder are refused, the others tested', () => {
    const serveFlags = SOURCE_FLAGS.filter((flag) => flag.commands.includes('serve'));
    expect(serveFlags.filter((flag) => flag.source === 'folder').map((f) => f.name)).toEqual([
      'id',
      'watch',
      'include',
      'exclude',
      'follow-links',
      'link-root',
      'version',
      'default-version',
    ]);
    expect(serveFlags.filter((flag) => flag.source !== 'folder').map((f) => f.name)).toEqual([
      'port',
      'host',
      'allowed-host',
      'allowed-origin',
      'base-path',
      'token-file',
      'access-file',
      'max-chars',
      'cursor-key-file',
      'text',
      'rate-limit',
      'quiet',
      'log',
      'database',
      'schema',
      'no-mcp',
    ]);
  });

  // Each test below starts its own `serve` (several flags at once where their checks do not meet),
  // on its own copy of the published database, so the tests run side by side.

  it('--rate-limit and -q: each client address limited on a store too, and no request log', async () => {
    const served = await serve([
      '--database',
      await copy(),
      '--port',
      '0',
      '--rate-limit',
      '1',
      '-q',
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await getJson(`${served.url}/tree`)).status);
    const stderr = await stop(served);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses).toContain(429);
    expect(requestLog(stderr)).toEqual([]);
  }, 60_000);

  it('--port, --host, --database, --max-chars and --no-mcp: serves on that address, read_file parts of that size, no MCP endpoint; the log one line per request', async () => {
    const served = await serve([
      '--database',
      await copy(),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--max-chars',
      '20',
      '--no-mcp',
    ]);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/knowledge-bases\/docs$/);
    expect((await getJson(`${served.url}/tree`)).status).toBe(200);
    const read = await getJson(`${served.url}/files/content?path=pages/guide.md`);
    expect(read.status).toBe(200);
    const body = read.body as { file: { contentRange: { start: number; end: number } } };
    expect(body.file.contentRange.end - body.file.contentRange.start).toBeLessThanOrEqual(20);
    expect(served.cli.stdout()).not.toContain('KNOWLEDGE_MCP_URL');
    const response = await fetch(`${served.url}/mcp`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    const stderr = await stop(served);
    expect(requestLog(stderr)).toEqual([
      { method: 'GET', path: '/knowledge-bases/docs/tree', status: 200 },
      {
        method: 'GET',
        path: '/knowledge-bases/docs/files/content?path=pages/guide.md',
        status: 200,
      },
      { method: 'POST', path: '/knowledge-bases/docs/mcp', status: 405 },
    ]);
  }, 60_000);

  it('--allowed-host, --allowed-origin and --quiet: the store served on loopback answers those, refuses others, and logs no request', async () => {
    const served = await serve([
      '--database',
      await copy(),
      '--port',
      '0',
      '--quiet',
      '--allowed-host',
      'kb.example',
      '--allowed-origin',
      'https://app.example',
    ]);
    /** The status of a GET of the tree with these headers (Host set by hand, as a rebound name). */
    const statusWith = (headers: Record<string, string>): Promise<number | undefined> =>
      new Promise((resolve, reject) => {
        const target = new URL(`${served.url}/tree`);
        const sent = request(target, { headers }, (answer) => {
          answer.resume();
          answer.on('end', () => resolve(answer.statusCode));
        });
        sent.on('error', reject);
        sent.end();
      });
    const port = new URL(served.url).port;
    expect(await statusWith({ Host: `kb.example:${port}` })).toBe(200);
    expect(await statusWith({ Host: `rebound.example:${port}` })).toBe(403);
    expect(await statusWith({ Origin: 'https://app.example' })).toBe(200);
    expect(await statusWith({ Origin: 'https://evil.example' })).toBe(403);
    expect((await getJson(`${served.url}/tree`)).status).toBe(200);
    const stderr = await stop(served);
    expect(requestLog(stderr)).toEqual([]);
    expect(stderr).toMatch(/SIGTERM, stopping/);
  }, 60_000);

  it('--cursor-key-file and --log json: two servers with one key accept each other’s cursors; one JSON object a line', async () => {
    const key = join(await folder(), 'key');
    await writeFile(key, 'a-secret-of-sixteen-bytes-or-more\n');
    const args = ['--port', '0', '--cursor-key-file', key, '--max-chars', '20', '--log', 'json'];
    // Two copies of the database: both servers run at once.
    const [first, second] = await Promise.all([
      copy().then((database) => serve(['--database', database, ...args])),
      copy().then((database) => serve(['--database', database, ...args])),
    ]);
    const part = (await getJson(`${first.url}/files/content?path=pages/guide.md`)).body as {
      nextCursor: string;
    };
    const cursor = encodeURIComponent(part.nextCursor);
    const next = await getJson(`${second.url}/files/content?cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect((await getJson(`${second.url}/tree?limit=5`)).status).toBe(200);
    const [firstLog, secondLog] = (await Promise.all([stop(first), stop(second)])).map((stderr) =>
      linesOf(stderr)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
    expect(firstLog).toHaveLength(1);
    expect(firstLog![0]).toMatchObject({
      method: 'GET',
      path: '/knowledge-bases/docs/files/content?path=pages/guide.md',
      status: 200,
    });
    expect(secondLog).toHaveLength(2);
    expect(secondLog![1]).toMatchObject({
      method: 'GET',
      path: '/knowledge-bases/docs/tree?limit=5',
      status: 200,
    });
  }, 90_000);

  it('--base-path, --schema and --text: the store of that schema, its knowledge bases under the path, MCP tool results as JSON', async () => {
    const served = await serve([
      '--database',
      await copy(),
      '--port',
      '0',
      '--schema',
      'other',
      '--base-path',
      '/api/v2',
      '--text',
      'json',
    ]);
    expect(served.cli.stdout()).toMatch(/\(1 now: `alt`\)/);
    expect(served.url).toMatch(/\/api\/v2\/knowledge-bases\/alt$/);
    expect((await getJson(`${served.url}/tree`)).status).toBe(200);
    expect((await getJson(served.url.replace(/alt$/, 'docs/tree'))).status).toBe(404);
    expect((await getJson(served.url.replace('/api/v2', '') + '/tree')).status).toBe(404);
    const { client } = await connectHttp('sdk-v1', `${served.url}/mcp`);
    try {
      const reply = await client.callTool({ name: 'list_tree', arguments: { limit: 1 } });
      expect(reply.isError).toBe(false);
      expect(JSON.parse(reply.content[0]!.text!)).toEqual(reply.structuredContent);
    } finally {
      await client.close();
    }
    await stop(served);
  }, 60_000);

  it('--token-file: one token reads every knowledge base', async () => {
    const token = join(await folder(), 'token');
    await writeFile(token, 's3cret\n');
    const served = await serve(['--database', await copy(), '--port', '0', '--token-file', token]);
    expect(served.cli.stdout()).toContain(`export KNOWLEDGE_TOKEN="$(cat ${token})"`);
    expect((await getJson(`${served.url}/tree`)).status).toBe(401);
    expect((await getJson(`${served.url}/tree`, { authorization: 'Bearer s3cret' })).status).toBe(
      200,
    );
    await stop(served);
  }, 60_000);

  it('--access-file: each token reads the knowledge bases it names', async () => {
    const access = join(await folder(), 'access.json');
    await writeFile(access, JSON.stringify({ reader: ['docs'], other: ['elsewhere'] }));
    const served = await serve([
      '--database',
      await copy(),
      '--port',
      '0',
      '--access-file',
      access,
    ]);
    expect((await getJson(`${served.url}/tree`, { authorization: 'Bearer reader' })).status).toBe(
      200,
    );
    expect((await getJson(`${served.url}/tree`, { authorization: 'Bearer other' })).status).toBe(
      404,
    );
    await stop(served);
  }, 60_000);

  // Refused before the database opens: in process, as the bin runs the same code.
  it('--log text and --quiet together: one usage line, as on a folder', async () => {
    const result = await cli(['serve', '--database', url, '--quiet', '--log', 'text']);
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr)).toEqual([
      'knowledge-kit serve: --quiet logs no request, so it cannot go with --log; pick one.',
    ]);
  });

  it.each([
    ['--id', 'x'],
    ['--watch'],
    ['--include', '*.md'],
    ['--exclude', 'drafts/**'],
    ['--follow-links'],
    ['--link-root', '.'],
    ['--version', '3.x=.'],
    ['--default-version', '3.x'],
  ])('%s reads a folder: one usage line, naming it', async (...flag) => {
    const result = await cli(['serve', '--database', url, ...flag]);
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain(`${flag[0]} reads a folder`);
  });
});

describe('search, read and outline on a database print what they print on the folder', () => {
  const db = () => ['--database', url, '--kb', 'docs'];

  it('search: the same candidates, and commands that name the database', async () => {
    const onFolder = await cli(['search', dir, 'install', '--max-chars', '30']);
    const onStore = await cli(['search', ...db(), 'install', '--max-chars', '30']);
    expect(onFolder.code).toBe(0);
    expect(onStore.code).toBe(0);
    const body = (text: string) => linesOf(text).slice(0, -1);
    expect(body(onStore.stdout)).toEqual(body(onFolder.stdout));
    expect(linesOf(onStore.stdout).at(-1)).toBe(
      linesOf(onFolder.stdout)
        .at(-1)!
        .replace(`knowledge-kit read ${dir} `, `knowledge-kit read --database ${url} --kb docs `),
    );
    const json = await cli(['search', ...db(), 'install', '--json']);
    expectSameOutput(
      JSON.parse(json.stdout),
      JSON.parse((await cli(['search', dir, 'install', '--json'])).stdout),
    );
  }, 60_000);

  it('read: the same content, whole, by section and in parts', async () => {
    for (const extra of [[], ['--subtree', 'setup'], ['--self', 'setup']]) {
      const onFolder = await cli(['read', dir, 'guide', ...extra]);
      const onStore = await cli(['read', ...db(), 'guide', ...extra]);
      expect(onStore.code).toBe(0);
      expect(onStore.stdout).toBe(onFolder.stdout);
      expect(onStore.stderr).toMatch(/^snapshot \S+\n$/);
    }
    const part = await cli(['read', ...db(), 'guide', '--max-chars', '20']);
    expect(part.stdout).toBe((await cli(['read', dir, 'guide', '--max-chars', '20'])).stdout);
    const next = /--cursor (\S+)$/m.exec(part.stderr)![1]!;
    const second = await cli(['read', ...db(), 'guide', '--max-chars', '20', '--cursor', next]);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toBe(part.stdout);
    const missing = await cli(['read', ...db(), 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`knowledge-kit outline --database ${url} --kb docs`);
  }, 60_000);

  it('outline: the same tree and sizes', async () => {
    const onFolder = await cli(['outline', dir]);
    const onStore = await cli(['outline', ...db()]);
    expect(onStore.code).toBe(0);
    const sorted = (text: string) => linesOf(text).sort();
    expect(sorted(onStore.stdout)).toEqual(sorted(onFolder.stdout));
    type Outline = { documents: { id: string; chars: number; sections: unknown[] }[] };
    const byId = (text: string) =>
      Object.fromEntries(
        (JSON.parse(text) as Outline).documents.map((d) => [d.id, [d.chars, d.sections]]),
      );
    expect(byId((await cli(['outline', ...db(), '--json'])).stdout)).toEqual(
      byId((await cli(['outline', dir, '--json'])).stdout),
    );
  }, 60_000);

  it.each([
    [['search', '--database', 'pglite:x', 'query'], '--kb'],
    [['outline', '--schema', 's', '.'], '--schema goes with --database'],
    [['read', '--kb', 'docs', '.', 'guide'], '--kb goes with --database'],
    [
      ['outline', '--database', 'pglite:x', '--kb', 'docs', '--follow-links'],
      '--follow-links reads a folder',
    ],
  ])('%j: one usage line (exit 2) naming %s', async (args, says) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain(says);
  });
});
