/**
 * The cursor key of `mcp` outlives the process: kept in the user's state folder (created once, mode
 * 0600) or read from `--cursor-key-file`, so a client that restarts the server between calls (as the
 * MCP Inspector's command line and IDE reloads do) goes on with the cursors it was given.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cursorKeyOf, stateCursorKeyPath } from '../../src/cli/access.js';
import { MCP_HELP } from '../../src/cli/help.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { documentIdOf, HANDBOOK, writeHandbook } from '../helpers/cli-knowledge.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cursor-key-' });
useMcpConnections();
beforeAll(requireBuiltCli);

const guideId = documentIdOf(HANDBOOK[0]!);

/** The first part of the guide read through one `mcp` process, which is then closed. */
async function firstPart(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<string> {
  const mcp = await connectMcp(args, undefined, env);
  const first = await mcp.client.callTool({ name: 'read_file', arguments: { fileId: guideId } });
  await mcp.close();
  const cursor = (first.structuredContent as { nextCursor?: string }).nextCursor;
  expect(cursor, JSON.stringify(first.structuredContent)).toBeTypeOf('string');
  return cursor!;
}

/** The next part through a new `mcp` process. */
async function nextPart(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cursor: string,
): Promise<{
  readonly isError: boolean;
  readonly structured: Record<string, unknown>;
  readonly text: string;
}> {
  const mcp = await connectMcp(args, undefined, env);
  const next = await mcp.client.callTool({
    name: 'read_file',
    arguments: { fileId: guideId, cursor },
  });
  await mcp.close();
  return {
    isError: next.isError === true,
    structured: (next.structuredContent ?? {}) as Record<string, unknown>,
    text: JSON.stringify(next.content),
  };
}

describe('mcp cursor key', () => {
  it('a cursor from one process is accepted by the next: the key is kept in $XDG_STATE_HOME, mode 0600', async () => {
    const root = await tempRoot();
    const dir = await writeHandbook(root);
    const env = { XDG_STATE_HOME: join(root, 'state') };
    const args = [dir, '--max-chars', '40'];
    const cursor = await firstPart(args, env);
    const keyPath = join(root, 'state', 'knowledge-kit', 'cursor-key');
    const key = await stat(keyPath);
    if (process.platform !== 'win32') expect(key.mode & 0o777).toBe(0o600);
    const next = await nextPart(args, env, cursor);
    expect(next.isError, JSON.stringify(next.structured)).toBe(false);
    expect(next.structured['file']).toMatchObject({ contentRange: { start: 17, total: 391 } });
    // Created once: the second process kept the same file.
    expect((await stat(keyPath)).mtimeMs).toBe(key.mtimeMs);
  });

  it('another state folder is another key: the cursor is refused as one this knowledge base did not issue', async () => {
    const root = await tempRoot();
    const dir = await writeHandbook(root);
    const args = [dir, '--max-chars', '40'];
    const cursor = await firstPart(args, { XDG_STATE_HOME: join(root, 'a') });
    const next = await nextPart(args, { XDG_STATE_HOME: join(root, 'b') }, cursor);
    expect(next.isError).toBe(true);
    expect(next.text).toContain('INVALID_CURSOR');
  });

  it('--cursor-key-file: processes given one file accept each other’s cursors whatever their state folder', async () => {
    const root = await tempRoot();
    const dir = await writeHandbook(root);
    const keyFile = join(root, 'key');
    await writeFile(keyFile, 'a-shared-secret-of-enough-bytes\n');
    const args = [dir, '--max-chars', '40', '--cursor-key-file', keyFile];
    const cursor = await firstPart(args, { XDG_STATE_HOME: join(root, 'a') });
    const next = await nextPart(args, { XDG_STATE_HOME: join(root, 'b') }, cursor);
    expect(next.isError, JSON.stringify(next.structured)).toBe(false);
  });

  it('servers started at the same moment share one key, and the key file is never seen half written', async () => {
    const dir = await tempRoot();
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    for (let round = 0; round < 20; round++) {
      const path = join(dir, `state-${round}`, 'knowledge-kit', 'cursor-key');
      // What another process starting now would read, looked at between every step of this one.
      const seen = new Set<number>();
      let done = false;
      const watch = (async () => {
        while (!done) {
          try {
            seen.add(readFileSync(path).length);
          } catch {
            // Not there yet.
          }
          await new Promise((next) => setImmediate(next));
        }
      })();
      const keys = await Promise.all(
        Array.from({ length: 6 }, () => cursorKeyOf('mcp', undefined, warn, path)),
      );
      done = true;
      await watch;
      expect(warnings).toEqual([]);
      expect([...seen].filter((length) => length !== 65)).toEqual([]);
      const texts = new Set(keys.map((key) => Buffer.from(key!).toString('utf8')));
      expect(texts.size).toBe(1);
      expect([...texts][0]).toMatch(/^[0-9a-f]{64}$/);
      // Only the key is left in its folder: no file it was written through.
      expect(await readdir(join(path, '..'))).toEqual(['cursor-key']);
      if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
      // A later start reads the same key.
      const again = await cursorKeyOf('mcp', undefined, warn, path);
      expect(Buffer.from(again!).toString('utf8')).toBe([...texts][0]);
    }
  });

  it('a kept key file left empty is replaced by a new key, and stderr says so', async () => {
    const dir = await tempRoot();
    const path = join(dir, 'state', 'knowledge-kit', 'cursor-key');
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, '\n');
    const warnings: string[] = [];
    const key = await cursorKeyOf('serve', undefined, (l) => warnings.push(l), path);
    expect(Buffer.from(key!).toString('utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(warnings).toEqual([
      `knowledge-kit serve: the cursor key kept in \`${path}\` was empty or too short; a new key replaces it (cursors issued with the old one are refused).\n`,
    ]);
    expect(readFileSync(path, 'utf8')).toBe(`${Buffer.from(key!).toString('utf8')}\n`);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(path, '..'))).toEqual(['cursor-key']);
    // `--cursor-key-file` names the user's own file: refused, never rewritten.
    await writeFile(path, 'short\n');
    await expect(cursorKeyOf('serve', path, () => undefined)).rejects.toThrow(
      /must hold a secret of at least 16 bytes.*it has 5/,
    );
    expect(readFileSync(path, 'utf8')).toBe('short\n');
  });

  it('the state folder: $XDG_STATE_HOME, else ~/.local/state', () => {
    if (process.platform === 'win32') return;
    expect(stateCursorKeyPath({ XDG_STATE_HOME: '/s', HOME: '/h' })).toBe(
      '/s/knowledge-kit/cursor-key',
    );
    expect(stateCursorKeyPath({ HOME: '/h' })).toBe('/h/.local/state/knowledge-kit/cursor-key');
    expect(stateCursorKeyPath({ XDG_STATE_HOME: '', HOME: '/h' })).toBe(
      '/h/.local/state/knowledge-kit/cursor-key',
    );
  });

  it('mcp --help shows a client configuration with an absolute path and the --cursor-key-file option', () => {
    expect(MCP_HELP).toContain('"args": ["mcp", "/absolute/path/to/knowledge"]');
    expect(MCP_HELP).not.toContain('./knowledge');
    expect(MCP_HELP).toMatch(/^ {2}--cursor-key-file f /m);
  });
});
