/**
 * Issue 21 on the command line: what a hostile or odd folder can no longer do to `check`, `serve` and
 * `mcp`: crash on many problems, inject lines through file names, die on a file whose ID cannot be
 * served, or read outside the folder.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, startCli, useRunningClis } from './helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { summaryLine } from './helpers/knowledge.js';
import { getJson, requestLog, startServe } from './helpers/serve.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

describe.concurrent('check at scale and with hostile names', () => {
  it('140,000 problems: exit 1 with every problem and the summary, not a RangeError', async () => {
    const root = await tempRoot();
    const n = 140_000;
    await writeTree(root, { 'a.md': `# A\n${'<!-- /agent-section:x -->\n'.repeat(n)}` });
    const result = await runCli(['check', '.'], { cwd: root, timeoutMs: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const lines = linesOf(result.stdout);
    expect(lines).toHaveLength(n + 1);
    expect(lines.at(-1)).toBe(summaryLine(1, 0, n));
    expect(lines[n - 1]).toMatch(new RegExp(`^a\\.md:${n + 1}:1  UNEXPECTED_CLOSE  `));
  }, 90_000);

  it('text format: a file name with line breaks and ESC is escaped, so it starts no workflow command and no terminal sequence', async () => {
    const root = await tempRoot();
    const name = 'e\n::warning file=x::INJECTED\n\u001b[31m.md';
    await writeTree(root, { [`kb/${name}`]: '# E\n' });
    const text = await runCli(['check', 'kb'], { cwd: root });
    expect(text.code).toBe(1);
    const lines = linesOf(text.stdout);
    expect(lines).toHaveLength(2);
    expect(text.stdout).not.toContain('\u001b');
    expect(lines.some((line) => line.startsWith('::'))).toBe(false);
    expect(lines[0]).toContain('kb/e\\n::warning file=x::INJECTED\\n\\x1b[31m.md');
    expect(lines[1]).toBe(summaryLine(1, 0, 1));

    const github = await runCli(['check', 'kb', '--format', 'github'], { cwd: root });
    expect(github.code).toBe(1);
    const annotations = linesOf(github.stdout);
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toMatch(/^::error file=kb\/e%0A%3A%3Awarning file=x%3A%3AINJECTED%0A/);
    expect(annotations.filter((line) => line.startsWith('::'))).toHaveLength(1);
  });
});

describe.concurrent('serve and mcp on files whose ID cannot be served', () => {
  it('serve without --watch starts with the other files: a placed problem per file, no stack trace', async () => {
    const root = await tempRoot();
    await writeTree(root, {
      'kb/a.md': '---\nid: index.md\n---\n# A\n',
      'kb/b.md': '---\nid: "\\ud800"\n---\n# B\n',
      'kb/c.md': '---\nid: _graph/by-file/d.json\n---\n# C\n',
      'kb/d.md': '# D\n',
    });
    const { cli, url } = await startServe(['kb', '--port', '0'], { cwd: root });
    const lines = linesOf(cli.stderr());
    expect(lines[0]).toMatch(/^kb\/a\.md:2:5  INVALID_FRONT_MATTER  .*navigation file/);
    expect(lines[1]).toMatch(/^kb\/b\.md:2:5  INVALID_FRONT_MATTER  .*lone surrogate/);
    expect(lines[2]).toMatch(/^kb\/c\.md:2:5  INVALID_FRONT_MATTER  .*navigation file/);
    expect(lines[3]).toMatch(/^knowledge-kit serve: 3 files in `kb` have problems/);
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
    const tree = (await getJson(`${url}/tree?parentPath=pages`)).body as {
      items: { fileId: string; state: string }[];
    };
    expect(tree.items.map((i) => [i.fileId, i.state])).toEqual([
      ['a', 'unavailable'],
      ['b', 'unavailable'],
      ['c', 'unavailable'],
      ['d', 'available'],
    ]);
    cli.child.kill('SIGINT');
    expect((await cli.exited).code).toBe(0);
  });

  it('serve --watch: adding such files reports their problems, and the other files keep serving', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    const { cli, url } = await startServe(['kb', '--port', '0', '--watch'], { cwd: root });
    await writeTree(root, { 'kb/b.md': '---\nid: index.md\n---\n# B\n' });
    await cli.stderrMatch(/reloaded `kb`: 1 document; 1 file in `kb` has problems/, 15_000);
    await writeTree(root, { 'kb/c.md': '---\nid: "\\udc00"\n---\n# C\n' });
    await cli.stderrMatch(
      /kb\/c\.md:2:5  INVALID_FRONT_MATTER .*\n.*reloaded `kb`: 1 document; 2 files in `kb` have problems/,
      15_000,
    );
    expect(cli.stderr()).toMatch(/^kb\/b\.md:2:5  INVALID_FRONT_MATTER  /m);
    const tree = await getJson(`${url}/tree?parentPath=pages`);
    expect(tree.status).toBe(200);
    expect(cli.child.exitCode).toBeNull();
    cli.child.kill('SIGINT');
    expect((await cli.exited).code).toBe(0);
  });

  it('mcp --watch: the same, and the server stays up', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    const cli = startCli(['mcp', 'kb', '--watch'], { cwd: root });
    await cli.stderrMatch(/serving 1 document/, 15_000);
    await writeTree(root, { 'kb/b.md': '---\nid: "\\ud800"\n---\n# B\n' });
    await cli.stderrMatch(/reloaded `kb`: 1 document; 1 file in `kb` has problems/, 15_000);
    expect(cli.child.exitCode).toBeNull();
    cli.child.stdin.end();
    expect((await cli.exited).code).toBe(0);
  });
});

describe.concurrent('links on the command line', () => {
  it('check refuses a link to /etc/passwd by default (exit 1, REFUSED_FILE); --follow-links follows one inside', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    await symlink('/etc/passwd', join(root, 'kb', 'passwd.md'));
    await symlink('a.md', join(root, 'kb', 'alias.md'));
    const strict = await runCli(['check', 'kb'], { cwd: root });
    expect(strict.code).toBe(1);
    expect(linesOf(strict.stdout).map((line) => line.split('  ').slice(0, 2))).toEqual([
      ['kb/alias.md', 'REFUSED_FILE'],
      ['kb/passwd.md', 'REFUSED_FILE'],
      [summaryLine(1, 0, 2)],
    ]);
    const following = await runCli(['check', 'kb', '--follow-links'], { cwd: root });
    expect(following.code).toBe(1);
    expect(linesOf(following.stdout).map((line) => line.split('  ').slice(0, 2))).toEqual([
      ['kb/passwd.md', 'REFUSED_FILE'],
      [summaryLine(2, 0, 1)],
    ]);
    expect(following.stdout).not.toContain('root:');
  });
});

describe.concurrent('--follow-links on the other commands', () => {
  it('outline, read and search refuse a link by default (exit 1, REFUSED_FILE) and follow one inside with --follow-links', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n\nAlpha words.\n' });
    await symlink('a.md', join(root, 'kb', 'alias.md'));
    for (const args of [
      ['outline', 'kb'],
      ['read', 'kb', 'alias'],
      ['search', 'kb', 'alpha'],
    ]) {
      const strict = await runCli(args, { cwd: root });
      expect(strict.code, args.join(' ')).toBe(1);
      expect(strict.stderr).toMatch(/^kb\/alias\.md  REFUSED_FILE  /m);
      const following = await runCli([...args, '--follow-links'], { cwd: root });
      expect(following.code, `${args.join(' ')}: ${following.stderr}`).toBe(0);
      expect(following.stdout).toContain(args[0] === 'read' ? 'Alpha words.' : 'alias');
    }
  });
});

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

describe('mcp on stdio under hostile input', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
    },
  });
  /** The JSON lines of stdout so far. */
  const messages = (stdout: string) =>
    linesOf(stdout).map((line) => JSON.parse(line) as Record<string, unknown>);

  it('a line over 10 MB is answered with a JSON-RPC error and a stderr line; the server goes on serving', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    const cli = startCli(['mcp', 'kb'], { cwd: root });
    await cli.stderrMatch(/serving 1 document/, 15_000);
    cli.child.stdin.write(`${'x'.repeat(10 * 1024 * 1024 + 1)}\n${initialize}\n`);
    await cli.stdoutMatch(/"id":0\}$/m, 15_000);
    expect(messages(cli.stdout())[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(cli.stderr()).toMatch(/message line of 10485761 bytes is over the limit/);
    expect(cli.child.exitCode).toBeNull();
    cli.child.stdin.end();
    expect((await cli.exited).code).toBe(0);
  });

  it('30,000 pipelined requests: SIGINT ends the server promptly, and no listener piles up', async () => {
    const root = await tempRoot();
    await writeTree(root, { 'kb/a.md': '# A\n' });
    const cli = startCli(['mcp', 'kb'], { cwd: root });
    await cli.stderrMatch(/serving 1 document/, 15_000);
    const call = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'list_tree', arguments: {} },
      });
    const lines = [initialize, '{"jsonrpc":"2.0","method":"notifications/initialized"}'];
    for (let id = 1; id <= 30_000; id++) lines.push(call(id));
    cli.child.stdin.on('error', () => undefined); // the server may stop reading first
    cli.child.stdin.write(`${lines.join('\n')}\n`);
    await cli.stdoutMatch(/"id":200\}$/m, 30_000);
    const started = performance.now();
    cli.child.kill('SIGINT');
    const { code } = await cli.exited;
    // The SDK's transport took 12 s here for 60,000 (its drain listeners); a bound of work is ms.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(code).toBe(0);
    expect(cli.stderr()).not.toContain('MaxListenersExceededWarning');
  }, 60_000);
});
