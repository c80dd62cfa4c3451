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
