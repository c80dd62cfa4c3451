/**
 * `mcp` on stdio under hostile input: a line over 10 MB is a JSON-RPC error and the server goes on,
 * and 30,000 pipelined requests neither pile up listeners nor delay `SIGINT`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, startCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

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
