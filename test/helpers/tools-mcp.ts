/**
 * An MCP client connected in memory to a server, for the MCP adapter tests and the example.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';

/** Connect a fresh SDK `Client` to `server` over a linked in-memory transport pair. */
export async function connectInMemory(
  server: McpServer,
): Promise<{ readonly client: Client; close(): Promise<void> }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * The error JSON of an MCP error result: its one text block, parsed. Fails the test when the result is
 * not exactly one text block.
 */
export function errorJsonOf(result: { readonly content?: unknown }): unknown {
  const content = result.content as readonly { type: string; text?: string }[] | undefined;
  if (content?.length !== 1 || content[0]!.type !== 'text' || typeof content[0]!.text !== 'string')
    throw new Error(`not one text block: ${JSON.stringify(result)}`);
  return JSON.parse(content[0]!.text);
}

/**
 * The string values of `keys` anywhere in a tool output (IDs, paths, cursors, snapshot IDs): what a
 * compact MCP text must hold.
 */
export function continuity(value: unknown, keys: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null)
      for (const [key, inner] of Object.entries(node)) {
        if (typeof inner === 'string' && keys.includes(key)) out.push(inner);
        else walk(inner);
      }
  };
  walk(value);
  return out;
}
