/** The MCP SDK's client over its stdio transport, spawning `node dist/cli.js mcp …`. */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll } from 'vitest';
import { CLI_NODE_FLAGS, CLI_PATH } from './cli.js';

/** A connected client, the server's stderr so far, and the transport errors seen (none expected). */
export interface McpConnection {
  readonly client: Client;
  readonly stderr: () => string;
  readonly errors: readonly Error[];
  close(): Promise<void>;
}

const open = new Set<McpConnection>();

/** For a test file: closes every connection the tests left open. */
export function useMcpConnections(): void {
  afterAll(async () => {
    await Promise.all([...open].map((connection) => connection.close()));
  });
}

/**
 * Spawns `knowledge-kit mcp …args` through the SDK's stdio transport and connects a client. The
 * transport passes only a few variables on; the test state folder (`XDG_STATE_HOME`, where the
 * cursor key is kept) is one more, and `env` sets others.
 */
export async function connectMcp(
  args: readonly string[],
  cwd?: string,
  env: Readonly<Record<string, string>> = {},
): Promise<McpConnection> {
  const state = process.env['XDG_STATE_HOME'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI_NODE_FLAGS, CLI_PATH, 'mcp', ...args],
    stderr: 'pipe',
    env: { ...(state === undefined ? {} : { XDG_STATE_HOME: state }), ...env },
    ...(cwd === undefined ? {} : { cwd }),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => (stderr += chunk.toString()));
  const client = new Client({ name: 'knowledge-kit-cli-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  const connection: McpConnection = {
    client,
    stderr: () => stderr,
    errors,
    async close() {
      open.delete(connection);
      await client.close();
    },
  };
  open.add(connection);
  return connection;
}
