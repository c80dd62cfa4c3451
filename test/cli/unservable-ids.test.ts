/**
 * `serve` and `mcp` on files whose document ID cannot be served (a navigation file's ID, a lone
 * surrogate): a placed problem per file, the other files served, and under `--watch` the server stays
 * up as such files come.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, startCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { getJson, startServe } from '../helpers/cli-serve.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

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
