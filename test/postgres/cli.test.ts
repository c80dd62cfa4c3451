/**
 * `knowledge-kit publish`, in process: a folder published to the store (PGlite on a data folder, or the
 * server at `KK_POSTGRES_URL`) reads back as the catalog source over the same folder; the same folder
 * again changes nothing; a folder with problems, or a bad --database, publishes nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  createPostgresSource,
  listKnowledgeBases,
  migrateKnowledgeStore,
} from '../../src/postgres/index.js';
import { cliInProcess as cli, loadInProcess } from '../helpers/cli-inProcess.js';
import { requireBuiltCli, startCli, useRunningClis } from '../helpers/cli.js';
import { getJson, httpContext, startServe } from '../helpers/cli-serve.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { waitFor } from '../helpers/waitFor.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from '../helpers/postgres-database.js';
import { PGlite } from '@electric-sql/pglite';
import { copyPgliteFolder, freshPgliteFolder } from '../helpers/pglite-folder.js';
import { expectSameOutput } from '../helpers/versions.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-publish-' });
useMcpConnections();
useRunningClis();

const TREE = {
  'guide.md':
    '# Guide\n\nHow to start.\n\n<!-- agent-section:setup -->\n## Setup\n\nInstall it.\n<!-- /agent-section:setup -->\n',
  'faq/billing.md': '# Billing\n\nSee [the guide](../guide.md).\n',
};

/**
 * A PGlite data folder of its own (the commands open it themselves), holding `TREE` published as
 * `docs`: a copy of one folder published once, for the tests that start from that.
 */
let publishedDocs: Promise<{ readonly dir: string; readonly data: string }> | undefined;
async function docsDatabase(): Promise<{ readonly dir: string; readonly url: string }> {
  publishedDocs ??= (async () => {
    const dir = await folder(TREE);
    const data = await freshPgliteFolder(await folder());
    const published = await cli(['publish', dir, '--database', `pglite:${data}`, '--kb', 'docs']);
    expect(published.code).toBe(0);
    return { dir, data };
  })();
  const { dir, data } = await publishedDocs;
  return { dir, url: `pglite:${await copyPgliteFolder(data, await folder())}` };
}

/**
 * Where a test publishes: on the server, a schema of its own there (dropped by `close`); on PGlite,
 * the test's own data folder, which the command opens itself, so no database is opened here.
 */
async function target(
  name: string,
): Promise<{ readonly server: TestDatabase | undefined; readonly schema: string }> {
  if (POSTGRES_URL === undefined) return { server: undefined, schema: `kk_test_${name}` };
  const server = await openTestDatabase(name);
  return { server, schema: server.schema };
}

describe('knowledge-kit publish', () => {
  it('publishes a folder that reads back as the catalog source over it; again, it is unchanged', async () => {
    const dir = await folder(TREE);
    const { server, schema } = await target('cli');
    // PGlite on an empty data folder (the command makes the database itself), or the server the
    // suite runs on.
    const data = POSTGRES_URL === undefined ? await folder() : undefined;
    const url = data === undefined ? POSTGRES_URL! : `pglite:${data}`;
    const args = ['publish', dir, '--database', url, '--kb', 'docs', '--schema', schema];
    try {
      const first = await cli(args);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const { source: reference } = await loadInProcess(dir, 'docs');
      const revision = (await reference.listTree({})).activeContentRevision;
      expect(first.stdout).toBe(
        `published docs at revision ${JSON.stringify(revision)} (2 pages)\n`,
      );
      const again = await cli(args);
      expect(again).toEqual({
        code: 0,
        stdout: `unchanged docs at revision ${JSON.stringify(revision)} (2 pages)\n`,
        stderr: '',
      });
      const db = data === undefined ? server!.db : new PGlite(data);
      try {
        const store = createPostgresSource(db, { knowledgeBase: 'docs', schema });
        expectSameOutput(await store.listTree({}), await reference.listTree({}));
        expectSameOutput(
          await store.readFile({ path: 'pages/guide.md' }),
          await reference.readFile({ path: 'pages/guide.md' }),
        );
      } finally {
        if (data !== undefined) await (db as PGlite).close();
      }
    } finally {
      await server?.close();
    }
  });

  it('stores relationships of site-root links through the folder, or --link-root, as serve reads them', async () => {
    const dir = await folder({
      'learn/index.md': '# Learn\n\nRead [state](/learn/state) and [lists](/learn/lists.html).\n',
      'learn/state.md': '# State\n\nBack to [learn](/learn/).\n',
      'learn/lists.md': '# Lists\n',
    });
    const { server, schema } = await target('cli_link_root');
    const data = POSTGRES_URL === undefined ? await freshPgliteFolder(await folder()) : undefined;
    const url = data === undefined ? POSTGRES_URL! : `pglite:${data}`;
    const base = ['publish', dir, '--database', url, '--schema', schema];
    try {
      const site = await cli([...base, '--kb', 'site']);
      expect(site.stderr).toBe('');
      expect(site.code).toBe(0);
      // `/` stands for the folder `learn/` holds: every site-root link names no page.
      const learn = join(dir, 'learn');
      expect((await cli([...base, '--kb', 'learn', '--link-root', learn])).code).toBe(0);
      const bad = await cli([...base, '--kb', 'x', '--link-root', '/nowhere-near']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--link-root/);
      const db = data === undefined ? server!.db : new PGlite(data);
      try {
        const linked = async (kb: string) => {
          const store = createPostgresSource(db, { knowledgeBase: kb, schema });
          const related = await store.readRelated({ fileId: 'learn/index' });
          return related.items
            .filter((item) => item.relationType === 'links_to')
            .map((item) => item.fileId)
            .sort();
        };
        expect(await linked('site')).toEqual(['learn/lists', 'learn/state']);
        expect(await linked('learn')).toEqual([]);
        const { source: reference } = await loadInProcess(dir, 'site');
        const store = createPostgresSource(db, { knowledgeBase: 'site', schema });
        expect(await store.readRelated({ fileId: 'learn/index' })).toEqual(
          await reference.readRelated({ fileId: 'learn/index' }),
        );
      } finally {
        if (data !== undefined) await (db as PGlite).close();
      }
    } finally {
      await server?.close();
    }
  });

  it('publishes nothing from a folder with problems (exit 1), and refuses a bad --database (exit 2)', async () => {
    const dir = await folder({ 'broken.md': '<!-- agent-section:a -->\nno close\n' });
    const data = await freshPgliteFolder(await folder());
    const broken = await cli(['publish', dir, '--database', `pglite:${data}`, '--kb', 'x']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/UNCLOSED_SECTION/);
    expect(broken.stdout).toBe('');
    const db = new PGlite(data);
    try {
      await migrateKnowledgeStore(db);
      expect(await listKnowledgeBases(db)).toEqual([]);
    } finally {
      await db.close();
    }
    const good = await folder(TREE);
    const scheme = await cli(['publish', good, '--database', 'mysql://localhost/x']);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toMatch(/--database must be a PostgreSQL URL/);
    const missing = await cli(['publish', good]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/needs a folder and --database/);
  });

  it('`mcp --database` answers a line over 10 MB with a JSON-RPC error and goes on, as `mcp` on a folder does', async () => {
    await requireBuiltCli();
    const { url } = await docsDatabase();
    const running = startCli(['mcp', '--database', url, '--kb', 'docs']);
    await running.stderrMatch(/serving `docs`/, 30_000);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    running.child.stdin.write(`${'x'.repeat(10 * 1024 * 1024 + 1)}\n${initialize}\n`);
    await running.stdoutMatch(/"id":0\}$/m, 30_000);
    const first = JSON.parse(running.stdout().split('\n')[0]!) as unknown;
    expect(first).toMatchObject({ id: null, error: { code: -32600 } });
    expect(running.stderr()).toMatch(/message line of 10485761 bytes is over the limit/);
    running.child.stdin.end();
    expect((await running.exited).code).toBe(0);
  });

  it('`mcp --database --kb` serves the published knowledge base to an MCP client, as the catalog source', async () => {
    await requireBuiltCli();
    const { dir, url } = await docsDatabase();
    const { source: reference } = await loadInProcess(dir, 'docs');
    const mcp = await connectMcp(['--database', url, '--kb', 'docs']);
    for (const [name, args, expected] of [
      ['list_tree', {}, await reference.listTree({})],
      [
        'read_file',
        { path: 'pages/guide.md' },
        await reference.readFile({ path: 'pages/guide.md' }),
      ],
      ['search_files', { query: 'install' }, await reference.searchFiles({ query: 'install' })],
    ] as const) {
      const result = await mcp.client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.structuredContent)).toBe(false);
      expectSameOutput(result.structuredContent, expected, name);
    }
    expect(mcp.stderr()).toContain('serving `docs`');
    await waitFor(() => /search index ready in /.exec(mcp.stderr()) ?? undefined, {
      timeoutMs: 15_000,
      what: () => `mcp's stderr to say the index is ready: ${mcp.stderr()}`,
    });
    await mcp.close();
    const unknown = await cli(['mcp', '--database', url, '--kb', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no knowledge base `nope` \(it has `docs`\)/);
  });

  it('`serve --database` serves every knowledge base of the store over HTTP, as the catalog source; an access file limits each token', async () => {
    await requireBuiltCli();
    const { dir: docs, url } = await docsDatabase();
    const other = await folder({ 'other.md': '# Other\n\nAnother knowledge base.\n' });
    expect((await cli(['publish', other, '--database', url, '--kb', 'other'])).code).toBe(0);
    const access = join(await folder(), 'access.json');
    await writeFile(
      access,
      JSON.stringify({ 'token-docs': ['docs'], 'token-all': ['docs', 'other'] }),
    );
    const served = await startServe(['--database', url, '--port', '0', '--access-file', access]);
    const base = served.url.slice(0, served.url.lastIndexOf('/'));
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    for (const [kb, dir] of [
      ['docs', docs],
      ['other', other],
    ] as const) {
      const { source: reference } = await loadInProcess(dir, kb);
      const tree = await getJson(`${base}/${kb}/tree`, as('token-all'));
      expect(tree.status).toBe(200);
      expectSameOutput(tree.body, await reference.listTree({}, httpContext(kb)));
    }
    expect((await getJson(`${base}/other/tree`, as('token-docs'))).status).toBe(404);
    expect((await getJson(`${base}/docs/tree`, as('token-docs'))).status).toBe(200);
    expect((await getJson(`${base}/docs/tree`)).status).toBe(401);
    expect((await getJson(`${base}/docs/tree`, as('wrong'))).status).toBe(401);
    // Each knowledge base's search index is built at start (issue 21 item 12).
    for (const kb of ['docs', 'other'])
      await served.cli.stderrMatch(
        new RegExp(`^knowledge-kit serve: search index of \`${kb}\` ready in `, 'm'),
        15_000,
      );
    served.cli.child.kill('SIGTERM');
    expect((await served.cli.exited).code).toBe(0);
  });
});
