/**
 * `knowledge-kit mcp` on the built bin, driven by the MCP SDK's client over its stdio transport that
 * spawns the command: the six tools, results equal to the in-process source, nothing but protocol on
 * stdout, `--watch` reloads seen through a tool call, and exit codes 0 (stdin closed) and 1 (problems).
 */
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_TOOL_NAMES } from '../../src/agent/index.js';
import { linesOf, requireBuiltCli, startCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { replaceFile } from '../helpers/tree.js';
import { loadInProcess } from '../helpers/cli-inProcess.js';
import {
  documentIdOf,
  HANDBOOK,
  renderFile,
  section,
  sectionsInOrder,
  writeHandbook,
} from '../helpers/cli-knowledge.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { errorJsonOf } from '../helpers/tools-mcp.js';
import { parseProblemLine } from '../helpers/cli-problems.js';
import { waitFor } from '../helpers/waitFor.js';
import { expectSameOutput } from '../helpers/versions.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

/** A fresh copy of the handbook in `<temp>/handbook`. */
const handbook = async (): Promise<string> => writeHandbook(await tempRoot());

const GUIDE = HANDBOOK[0]!;
const guideId = documentIdOf(GUIDE);

describe.concurrent('mcp', () => {
  it('lists the six tools; search_files and read_file answer as the in-process source; a startup line on stderr', async () => {
    const dir = await handbook();
    const mcp = await connectMcp([dir]);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...KNOWLEDGE_TOOL_NAMES].sort());
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);

    const { source } = await loadInProcess(dir);
    const query = 'refund to the original card';
    const [returns] = sectionsInOrder(GUIDE.parts);
    const calls = [
      { name: 'search_files', arguments: { query }, expected: () => source.searchFiles({ query }) },
      {
        name: 'search_files',
        arguments: { query, mode: 'file', limit: 1 },
        expected: () => source.searchFiles({ query, mode: 'file', limit: 1 }),
      },
      {
        name: 'read_file',
        arguments: { fileId: guideId },
        expected: () => source.readFile({ fileId: guideId }),
      },
      {
        name: 'read_file',
        arguments: { path: 'pages/topics/billing.md' },
        expected: () => source.readFile({ path: 'pages/topics/billing.md' }),
      },
      {
        name: 'read_file',
        arguments: { fileId: guideId, sectionIds: [returns!.id], mode: 'self' },
        expected: () =>
          source.readFile({ fileId: guideId, sectionIds: [returns!.id], mode: 'self' }),
      },
    ];
    for (const call of calls) {
      const result = await mcp.client.callTool({ name: call.name, arguments: call.arguments });
      expect(result.isError, JSON.stringify(result.structuredContent)).toBe(false);
      expectSameOutput(result.structuredContent, await call.expected(), call.name);
    }
    const missing = await mcp.client.callTool({
      name: 'get_file',
      arguments: { fileId: 'no-such-file' },
    });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toBeUndefined();
    expect(errorJsonOf(missing)).toMatchObject({ error: { code: 'NOT_FOUND' } });

    expect(mcp.errors).toEqual([]);
    expect(linesOf(mcp.stderr())).toContain(
      `knowledge-kit mcp: serving ${HANDBOOK.length} documents from \`${dir}\` on stdio`,
    );
    await mcp.close();
  });

  it('stdout carries only JSON-RPC messages; closing stdin ends the server with exit 0', async () => {
    const dir = await handbook();
    const cli = startCli(['mcp', dir]);
    await cli.stderrMatch(/on stdio/);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw', version: '1.0.0' },
      },
    };
    cli.child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await cli.stdoutMatch(/\n/);
    cli.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    cli.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await waitFor(() => (linesOf(cli.stdout()).length >= 2 ? true : undefined), {
      what: () => `two answers; stdout:\n${cli.stdout()}`,
    });
    cli.child.stdin.end();
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const messages = linesOf(cli.stdout()).map(
      (line) =>
        JSON.parse(line) as { jsonrpc: string; id?: number; result?: { tools?: unknown[] } },
    );
    expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    expect(messages[1]?.result?.tools).toHaveLength(KNOWLEDGE_TOOL_NAMES.length);
  });

  it('--watch: a broken edit keeps the last good version (stderr says why, get_file says previous_available); a good one shows in the next tool call', async () => {
    const dir = await handbook();
    const mcp = await connectMcp([dir, '--watch']);
    await waitFor(() => (mcp.stderr().includes('watching for changes') ? true : undefined), {
      what: () => `the startup line; stderr:\n${mcp.stderr()}`,
    });
    const read = async () => {
      const result = await mcp.client.callTool({
        name: 'read_file',
        arguments: { fileId: guideId },
      });
      expect(result.isError).toBe(false);
      return result.structuredContent as { content: string };
    };
    const before = await read();

    await replaceFile(
      join(dir, GUIDE.path),
      renderFile({
        ...GUIDE,
        parts: [...GUIDE.parts, '<!-- /agent-section:stray -->', 'BROKEN VERSION'],
      }),
    );
    await waitFor(
      () => (/served from its last good version/.test(mcp.stderr()) ? true : undefined),
      { what: () => `a reload keeping the last good version; stderr:\n${mcp.stderr()}` },
    );
    const problem = linesOf(mcp.stderr())
      .map((line) => parseProblemLine(line))
      .find((p) => p !== undefined);
    expect(problem).toMatchObject({ file: join(dir, GUIDE.path), code: 'UNEXPECTED_CLOSE' });
    const during = await read();
    expect(during.content).toBe(before.content);
    const status = await mcp.client.callTool({ name: 'get_file', arguments: { fileId: guideId } });
    expect(status.structuredContent).toMatchObject({
      contentAvailable: true,
      state: 'available',
      generatedOutputStatus: 'previous_available',
    });

    await replaceFile(
      join(dir, GUIDE.path),
      renderFile({
        ...GUIDE,
        parts: [...GUIDE.parts, section('added', 'NEW VERSION: exchanges are free.')],
      }),
    );
    const after = await waitFor(
      async () => {
        const output = await read();
        return output.content.includes('NEW VERSION') ? output : undefined;
      },
      { what: () => `the new content; stderr:\n${mcp.stderr()}` },
    );
    const { source } = await loadInProcess(dir);
    expectSameOutput(after, await source.readFile({ fileId: guideId }));
    expect(mcp.stderr()).toMatch(/reloaded/);
    expect(mcp.errors).toEqual([]);
    await mcp.close();
  });

  it('a folder with a broken file: serves the others, names the broken file on stderr and in the instructions', async () => {
    const root = await tempRoot();
    await writeTree(root, {
      'kb/a.md': '# A\n\n<!-- agent-section:open -->\n',
      'kb/b.md': '# B\n\nFine.\n',
      'kb/c.md': '---\nid: index.md\n---\n# C\n',
    });
    const mcp = await connectMcp(['kb'], root);
    await waitFor(() => (mcp.stderr().includes('serving 1 document') ? true : undefined), {
      what: () => `the startup line; stderr:\n${mcp.stderr()}`,
    });
    expect(
      linesOf(mcp.stderr())
        .map((line) => parseProblemLine(line))
        .filter((p) => p !== undefined)
        .map((p) => [p.file, p.line, p.code]),
    ).toEqual([
      ['kb/a.md', 3, 'UNCLOSED_SECTION'],
      ['kb/c.md', 2, 'INVALID_FRONT_MATTER'],
    ]);
    expect(mcp.stderr()).toContain('2 files in `kb` have problems (2 files not served');
    expect(mcp.stderr()).not.toMatch(/^\s+at /m);
    expect(mcp.client.getInstructions()).toMatch(/At start, 2 files in `kb` have problems/);
    const tree = await mcp.client.callTool({
      name: 'list_tree',
      arguments: { parentPath: 'pages' },
    });
    const items = (tree.structuredContent as { items: Record<string, unknown>[] }).items;
    expect(items.map((i) => [i['path'], i['generatedOutputStatus']])).toEqual([
      ['pages/a.md', 'unavailable'],
      ['pages/b.md', 'current_available'],
      ['pages/c.md', 'unavailable'],
    ]);
    const read = await mcp.client.callTool({
      name: 'read_file',
      arguments: { path: 'pages/a.md' },
    });
    expect(read.isError).toBe(true);
    expect(errorJsonOf(read)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(mcp.errors).toEqual([]);
    await mcp.close();
  });
});
