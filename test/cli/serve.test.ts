/**
 * `knowledge-kit serve` on the built bin, checked with real HTTP requests: the printed URL and curl
 * commands, the routes answering as the in-process source, bearer tokens, `--base-path` and `--id`,
 * one log line per request, SIGTERM, a port in use, a folder with problems, and `--watch` reloads that
 * fail (the last good version stays) and succeed.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { replaceFile } from '../helpers/tree.js';
import { loadInProcess } from '../helpers/cli-inProcess.js';
import {
  documentIdOf,
  folderName,
  HANDBOOK,
  renderFile,
  section,
  treeOf,
  writeHandbook,
} from '../helpers/cli-knowledge.js';
import { parseProblemLine } from '../helpers/cli-problems.js';
import { getJson, HAS_CURL, httpContext, requestLog, startServe } from '../helpers/cli-serve.js';
import { waitFor } from '../helpers/waitFor.js';
import { expectSameOutput } from '../helpers/versions.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();
beforeAll(requireBuiltCli);

/** A fresh copy of the handbook in `<temp>/handbook`. */
const handbook = async (): Promise<string> => writeHandbook(await tempRoot());

const GUIDE = HANDBOOK[0]!;
const guideId = documentIdOf(GUIDE);
const QUERY = 'when do parcels arrive';

/**
 * Runs the printed `export` lines and then the printed `curl` line number `index` as one `sh` script,
 * as a user pasting them into a terminal would, and parses what curl prints.
 */
function runPrinted(stdout: string, index: number, cwd: string): Promise<unknown> {
  const lines = linesOf(stdout);
  const script = [
    ...lines.filter((line) => line.startsWith('export ')),
    lines.filter((line) => line.startsWith('curl '))[index]!.replace('<your question>', QUERY),
  ].join('\n');
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', script], { cwd, timeout: 10_000 }, (error, out, err) =>
      error ? reject(new Error(`${script}\n${err}`, { cause: error })) : resolve(JSON.parse(out)),
    );
  });
}

describe.concurrent('serve', () => {
  it('prints the knowledge-base URL (named after the folder) and four curl commands; the routes answer as the in-process source; one log line per request; SIGTERM exits 0', async () => {
    const dir = await handbook();
    const id = folderName(dir);
    const { cli, url } = await startServe([dir, '--port', '0']);
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/knowledge-bases/${id}$`));
    const curls = linesOf(cli.stdout()).filter((line) => line.startsWith('curl '));
    expect(curls).toHaveLength(4);
    expect(
      curls.map((line) =>
        line
          .match(/"\$KNOWLEDGE_BASE_URL(\/[^"]*)"/)?.[1]
          ?.replace(/\/files\/[^/]+\/content$/, '/files/{fileId}/content'),
      ),
    ).toEqual(['/tree', '/files/{fileId}/content', '/files/content', '/search']);

    const { source } = await loadInProcess(dir);
    const context = httpContext(id);
    const calls = [
      { route: '/tree?limit=50', expected: () => source.listTree({ limit: 50 }, context) },
      {
        route: `/files/${guideId}/content`,
        expected: () => source.readFile({ fileId: guideId }, context),
      },
      {
        route: '/files/content?path=index.md',
        expected: () => source.readFile({ path: 'index.md' }, context),
      },
      {
        route: `/search?query=${encodeURIComponent(QUERY)}`,
        expected: () => source.searchFiles({ query: QUERY }, context),
      },
    ];
    for (const call of calls) {
      const response = await getJson(`${url}${call.route}`);
      expect(response.status, call.route).toBe(200);
      expectSameOutput(response.body, await call.expected(), call.route);
    }
    const missing = await getJson(`${url}/files/no-such-file/content`);
    expect(missing.status).toBe(404);

    const log = await waitFor(
      () => {
        const entries = requestLog(cli.stderr());
        return entries.length >= calls.length + 1 ? entries : undefined;
      },
      { what: () => `a log line per request; stderr:\n${cli.stderr()}` },
    );
    const path = new URL(url).pathname;
    expect(log).toEqual([
      ...calls.map((call) => ({ method: 'GET', path: `${path}${call.route}`, status: 200 })),
      { method: 'GET', path: `${path}/files/no-such-file/content`, status: 404 },
    ]);

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stderr()).toContain('SIGTERM');
  });

  it.skipIf(!HAS_CURL)(
    'the printed export and curl lines run in a shell as printed and answer as the in-process source',
    async () => {
      const dir = await handbook();
      const id = folderName(dir);
      const { cli } = await startServe([dir, '--port', '0']);
      const { source } = await loadInProcess(dir);
      const context = httpContext(id);
      const curls = linesOf(cli.stdout()).filter((line) => line.startsWith('curl '));
      const fileId = decodeURIComponent(curls[1]!.match(/\/files\/([^/]+)\/content/)![1]!);
      const outputs = await Promise.all(
        curls.map((_, index) => runPrinted(cli.stdout(), index, dir)),
      );
      expectSameOutput(
        outputs,
        JSON.parse(
          JSON.stringify([
            await source.listTree({ limit: 50 }, context),
            await source.readFile({ fileId }, context),
            await source.readFile({ path: 'index.md' }, context),
            await source.searchFiles({ query: QUERY }, context),
          ]),
        ),
      );
    },
  );

  // Fails today: the URL is printed unquoted (`export KNOWLEDGE_BASE_URL=…/docs%20(v2)` is a shell
  // syntax error, as are `'`, `!`, `*` that encodeURIComponent keeps) and `$(cat my token.txt)` splits the path.
  it.skipIf(!HAS_CURL)(
    'the printed lines still run in a shell when the folder name and the token file path need quoting',
    async () => {
      const root = await tempRoot();
      const dir = join(root, 'docs (v2)');
      await writeTree(dir, treeOf(HANDBOOK));
      await writeFile(join(root, 'my token.txt'), 'token-1234\n');
      const { cli } = await startServe(
        ['docs (v2)', '--port', '0', '--token-file', 'my token.txt'],
        { cwd: root },
      );
      const { source } = await loadInProcess(dir);
      expectSameOutput(
        await runPrinted(cli.stdout(), 0, root),
        JSON.parse(JSON.stringify(await source.listTree({ limit: 50 }, httpContext('docs (v2)')))),
      );
    },
  );

  it('--token-file: 401 with WWW-Authenticate without a token or with a wrong one, 200 with the Bearer token; --base-path and --id shape the URL', async () => {
    const dir = await handbook();
    const tokenFile = join(dir, '..', 'token.txt');
    const token = 's3cr3t-Token_42';
    await writeFile(tokenFile, `${token}\n`);
    const { cli, url } = await startServe([
      dir,
      '--port',
      '0',
      '--token-file',
      tokenFile,
      '--base-path',
      '/api',
      '--id',
      'docs',
    ]);
    const origin = new URL(url).origin;
    expect(url).toBe(`${origin}/api/knowledge-bases/docs`);
    expect(cli.stdout()).toContain(`export KNOWLEDGE_TOKEN="$(cat ${tokenFile})"`);
    const curls = linesOf(cli.stdout()).filter((line) => line.startsWith('curl '));
    expect(
      curls.every((line) => line.endsWith(' -H "Authorization: Bearer $KNOWLEDGE_TOKEN"')),
    ).toBe(true);

    for (const headers of [
      {},
      { authorization: `Bearer ${token}x` },
      { authorization: `Bearer ${token.slice(0, -1)}` },
      { authorization: token },
      { authorization: `Basic ${token}` },
    ]) {
      const denied = await getJson(`${url}/tree`, headers);
      expect(denied.status, JSON.stringify(headers)).toBe(401);
      expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    }
    const allowed = await getJson(`${url}/tree`, { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    // The scheme name is case-insensitive; the token is not.
    expect((await getJson(`${url}/tree`, { authorization: `bearer ${token}` })).status).toBe(200);
    expect(
      (await getJson(`${url}/tree`, { authorization: `Bearer ${token.toUpperCase()}` })).status,
    ).toBe(401);
    const { source } = await loadInProcess(dir, 'docs');
    expectSameOutput(
      allowed.body,
      JSON.parse(JSON.stringify(await source.listTree({}, httpContext('docs', '/api')))),
    );
    // Without the base path, or under the folder's name, there is no such knowledge base.
    for (const other of [
      `${origin}/knowledge-bases/docs/tree`,
      `${origin}/api/knowledge-bases/${folderName(dir)}/tree`,
    ]) {
      expect((await getJson(other, { authorization: `Bearer ${token}` })).status, other).not.toBe(
        200,
      );
    }
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('a port in use: exit 2 with one line naming the port', async () => {
    const dir = await handbook();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      const result = await runCli(['serve', dir, '--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
      expect(result.stderr).toContain(`port ${port}`);
      expect(result.stderr).toContain('in use');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('a folder with a broken file: serves the others, names it on stderr, lists it as unavailable', async () => {
    const root = await tempRoot();
    await writeTree(root, {
      'bad/doc.md': '# Doc\n<!-- /agent-section:stray -->\n',
      'bad/ok.md': '# Ok\n\nFine.\n',
    });
    const { cli, url } = await startServe(['bad', '--port', '0'], { cwd: root });
    expect(cli.stdout()).toContain('Serving 1 document from `bad`');
    expect(
      linesOf(cli.stderr())
        .map((line) => parseProblemLine(line))
        .filter((p) => p !== undefined)
        .map((p) => [p.file, p.code]),
    ).toEqual([['bad/doc.md', 'UNEXPECTED_CLOSE']]);
    expect(cli.stderr()).toContain('1 file in `bad` has problems (1 file not served');
    const tree = (await getJson(`${url}/tree?parentPath=pages`)).body as {
      items: { path: string; contentAvailable: boolean; generatedOutputStatus: string }[];
    };
    expect(tree.items.map((i) => [i.path, i.contentAvailable, i.generatedOutputStatus])).toEqual([
      ['pages/doc.md', false, 'unavailable'],
      ['pages/ok.md', true, 'current_available'],
    ]);
    const read = await getJson(`${url}/files/content?path=pages%2Fdoc.md`);
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).toContain('doc.md:2:1');
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('--host 0.0.0.0 without a token: a warning, and a loopback URL that answers instead of 0.0.0.0; with a token, no warning', async () => {
    const dir = await handbook();
    const open = await startServe([dir, '--port', '0', '--host', '0.0.0.0']);
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/knowledge-bases\//);
    expect(open.cli.stdout()).not.toContain('0.0.0.0');
    await open.cli.stderrMatch(
      /^knowledge-kit serve: warning: --host 0\.0\.0\.0 answers other machines, and without --token-file anyone/m,
    );
    expect((await getJson(`${open.url}/tree`)).status).toBe(200);
    open.cli.child.kill('SIGTERM');
    expect((await open.cli.exited).code).toBe(0);

    const root = await tempRoot();
    const tokenFile = join(root, 'token');
    await writeFile(tokenFile, 'secret-token\n');
    const closed = await startServe([
      dir,
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--token-file',
      tokenFile,
    ]);
    expect(closed.cli.stderr()).not.toContain('warning');
    closed.cli.child.kill('SIGTERM');
    expect((await closed.cli.exited).code).toBe(0);
  });

  it('bad --port / --base-path / --token-file exit 2', async () => {
    const root = await tempRoot();
    const dir = await handbook();
    const results = await Promise.all([
      runCli(['serve', dir, '--port', '65536']),
      runCli(['serve', dir, '--port', '0', '--base-path', 'api']),
      runCli(['serve', dir, '--port', '0', '--token-file', join(root, 'no-such-token')]),
    ]);
    for (const result of results) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
    }
  });

  it('--watch: a broken edit keeps serving the last good version of that file and says why on stderr; a good one is served next', async () => {
    const dir = await handbook();
    const { cli, url } = await startServe([dir, '--port', '0', '--watch']);
    expect(cli.stdout()).toContain('watching for changes');
    const contentUrl = `${url}/files/${guideId}/content`;
    const before = (await getJson(contentUrl)).body as { content: string };
    expect(before.content).toContain('Customers may return an item within 30 days');

    const broken = {
      ...GUIDE,
      parts: [...GUIDE.parts, '<!-- agent-section:half-written -->', 'BROKEN VERSION'],
    };
    await replaceFile(join(dir, GUIDE.path), renderFile(broken));
    await cli.stderrMatch(/served from its last good version/);
    const problem = linesOf(cli.stderr())
      .map((line) => parseProblemLine(line))
      .find((p) => p !== undefined);
    expect(problem).toMatchObject({ file: join(dir, GUIDE.path), code: 'UNCLOSED_SECTION' });
    const during = await getJson(contentUrl);
    expect(during.status).toBe(200);
    expect((during.body as { content: string }).content).toBe(before.content);
    const status = await getJson(`${url}/files/${guideId}`);
    expect(status.body).toMatchObject({ generatedOutputStatus: 'previous_available' });

    const fixed = {
      ...GUIDE,
      parts: [...GUIDE.parts, section('added', 'NEW VERSION: exchanges are free.')],
    };
    await replaceFile(join(dir, GUIDE.path), renderFile(fixed));
    const after = await waitFor(
      async () => {
        const response = await getJson(contentUrl);
        const body = response.body as { content?: string };
        return response.status === 200 && body.content?.includes('NEW VERSION') ? body : undefined;
      },
      { what: () => `the new content; stderr:\n${cli.stderr()}` },
    );
    expect(after.content).not.toContain('BROKEN VERSION');
    const { source } = await loadInProcess(dir);
    expectSameOutput(
      after,
      JSON.parse(
        JSON.stringify(await source.readFile({ fileId: guideId }, httpContext(folderName(dir)))),
      ),
    );
    expect(cli.stderr()).toMatch(/reloaded/);
    // The reloaded source was swapped in with its search index built: a search finds the new words.
    const found = await getJson(`${url}/search?query=${encodeURIComponent('exchanges are free')}`);
    expect(found.status).toBe(200);
    expect((found.body as { items: { fileId: string }[] }).items[0]?.fileId).toBe(guideId);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });
});
