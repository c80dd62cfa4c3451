/**
 * Versions of folders served: a real `serve --version LABEL=FOLDER …` on loopback, and `mcp` with the
 * same flags driven by the official MCP client over stdio. The start lines name the versions, the
 * root listing lists them, a call without `version` reads the default, and (once the tools declare
 * `version`) a call naming a version answers from that version's own pages.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_TOOLS } from '../../src/agent/internals.js';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { getJson, startServe } from '../helpers/cli-serve.js';
import { useTempFolders, type Tree } from '../helpers/tempFolders.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-versions-serve-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

/** Whether the tools declare `version` (then HTTP and MCP take it as every argument). */
const TOOLS_TAKE_VERSION = KNOWLEDGE_TOOLS.every((tool) => 'version' in tool.args);

function version(days: number): Tree {
  return {
    'returns.md': `# Returns\n\n<!-- agent-section:window -->\n## Return window\n\nUnworn items can be returned within ${days} days of delivery.\n<!-- /agent-section:window -->\n`,
    'faq.md': '# FAQ\n\n## Accounts\n\nGuest orders are tracked by e-mail.\n',
  };
}

/** `3.x` (60 days) then `2.x` (30 days), `fallback` the default. */
async function flags(fallback: string): Promise<string[]> {
  const v3 = await folder(version(60));
  const v2 = await folder(version(30));
  return ['--version', `3.x=${v3}`, '--version', `2.x=${v2}`, '--default-version', fallback];
}

interface Listed {
  readonly versions?: readonly { version: string; default: boolean }[];
}
interface Found {
  readonly items: readonly { path: string; sourceExcerpt: string }[];
}

describe('serve and mcp with --version LABEL=FOLDER', () => {
  it('serve: the start lines name the versions, the root listing lists them, the default answers', async () => {
    const served = await startServe([
      ...(await flags('3.x')),
      '--id',
      'handbook',
      '--port',
      '0',
      '--quiet',
      '--rate-limit',
      '0',
    ]);
    await served.cli.stdoutMatch(/^curl .*search.*$/m, 15_000);
    const stdout = served.cli.stdout();
    expect(stdout).toMatch(
      /^Serving knowledge base `handbook` in 2 versions: `3\.x` \(default\): 2 documents from `[^`]+`; `2\.x`: 2 documents from `[^`]+`\.$/m,
    );
    expect(stdout).toContain(
      'A call reads the default version unless it names another, such as `version=2.x`',
    );
    const root = await getJson(`${served.url}/tree`);
    expect(root.status).toBe(200);
    expect((root.body as Listed).versions?.map((v) => [v.version, v.default])).toEqual([
      ['3.x', true],
      ['2.x', false],
    ]);
    const search = async (extra: Record<string, string>) => {
      const query = new URLSearchParams({ query: 'return window days', ...extra });
      const answer = await getJson(`${served.url}/search?${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return (answer.body as Found).items[0]!.sourceExcerpt;
    };
    expect(await search({})).toContain('within 60 days');
    if (TOOLS_TAKE_VERSION) {
      expect(await search({ version: '2.x' })).toContain('within 30 days');
      const missing = await getJson(
        `${served.url}/search?${new URLSearchParams({ query: 'x', version: '4.x' })}`,
      );
      expect(missing.status).toBe(404);
      expect(JSON.stringify(missing.body)).toContain('VERSION_NOT_FOUND');
    }
    // Each version's index is built on its own, and said so.
    await served.cli.stderrMatch(/search index of version `2\.x` ready/, 15_000);
    await served.cli.stderrMatch(/search index of version `3\.x` ready/, 15_000);
    served.cli.child.kill('SIGTERM');
    expect((await served.cli.exited).code).toBe(0);
  });

  it('mcp: the start line names the versions; the official client reads the default (--default-version, not the first), and a named version', async () => {
    const mcp = await connectMcp(await flags('2.x'));
    const listed = await mcp.client.callTool({ name: 'list_tree', arguments: {} });
    expect(listed.isError, JSON.stringify(listed.content)).toBeFalsy();
    const found = await mcp.client.callTool({
      name: 'search_files',
      arguments: { query: 'return window days' },
    });
    expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
    expect((found.structuredContent as unknown as Found).items[0]!.sourceExcerpt).toContain(
      'within 30 days',
    );
    if (TOOLS_TAKE_VERSION) {
      const newer = await mcp.client.callTool({
        name: 'search_files',
        arguments: { query: 'return window days', version: '3.x' },
      });
      expect((newer.structuredContent as unknown as Found).items[0]!.sourceExcerpt).toContain(
        'within 60 days',
      );
    }
    expect(mcp.stderr()).toMatch(
      /knowledge-kit mcp: serving `[^`]+` in 2 versions on stdio: `3\.x`: 2 documents from `[^`]+`; `2\.x` \(default\): 2 documents from `[^`]+`/,
    );
    expect(mcp.errors).toEqual([]);
    await mcp.close();
  });

  it('serve --watch: each version reloads on its own, and says which', async () => {
    const v3 = await folder(version(60));
    const v2 = await folder(version(30));
    const served = await startServe([
      '--version',
      `3.x=${v3}`,
      '--version',
      `2.x=${v2}`,
      '--watch',
      '--port',
      '0',
      '--quiet',
      '--rate-limit',
      '0',
    ]);
    expect(served.cli.stdout()).toContain('(watching each folder for changes)');
    await served.cli.stderrMatch(/search index of version `2\.x` ready/, 15_000);
    await writeFile(
      join(v2, 'returns.md'),
      '# Returns\n\n## Return window\n\nUnworn items can be returned within 45 days of delivery.\n',
    );
    await served.cli.stderrMatch(
      /knowledge-kit serve: version `2\.x`: reloaded `[^`]+`: 2 documents/,
      20_000,
    );
    expect(served.cli.stderr()).not.toMatch(/version `3\.x`: reloaded/);
    // The default version is untouched.
    const answer = await getJson(
      `${served.url}/search?${new URLSearchParams({ query: 'return window days' })}`,
    );
    expect((answer.body as Found).items[0]!.sourceExcerpt).toContain('within 60 days');
    served.cli.child.kill('SIGTERM');
    expect((await served.cli.exited).code).toBe(0);
  });
});
