/**
 * The real MCP clients, behind one small face: the SDK v1 client (`@modelcontextprotocol/sdk` 1.x,
 * inside the MCP Inspector and most desktop agents) and the SDK v2 client
 * (`@modelcontextprotocol/client`), each over stdio (`knowledge-kit mcp` on dist/cli.js) or over
 * Streamable HTTP (a URL with optional headers).
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI_PATH } from '../helpers/cli.js';

/**
 * Which client: the SDK v1 client, the SDK v2 client on the 2025 protocol (its default), or the SDK v2
 * client pinned to the 2026-07-28 protocol (HTTP only: `knowledge-kit mcp` speaks the 2025 one).
 */
export type ClientKind = 'sdk-v1' | 'sdk-v2' | 'sdk-v2-2026';

/** A tool result as both clients give it. */
export interface ToolReply {
  readonly isError?: boolean | undefined;
  readonly content: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: unknown;
}

/** What the tests ask of a connected client (the methods both SDKs have, same names). */
export interface RealClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolReply>;
  listResources(params?: { cursor?: string }): Promise<{
    resources: { uri: string; name: string; title?: string; mimeType?: string; size?: number }[];
    nextCursor?: string | undefined;
  }>;
  listResourceTemplates(): Promise<{
    resourceTemplates: { uriTemplate: string; mimeType?: string }[];
  }>;
  readResource(params: { uri: string }): Promise<{
    contents: { uri: string; mimeType?: string; text?: string }[];
  }>;
  listPrompts(): Promise<{ prompts: unknown[] }>;
  close(): Promise<void>;
  /** The protocol version in use (both SDKs name it the same way). */
  getNegotiatedProtocolVersion?(): string | undefined;
}

/** A connected client and what the server wrote to stderr (stdio only). */
export interface Connected {
  readonly client: RealClient;
  readonly stderr: () => string;
}

/** Connects `kind` to `knowledge-kit mcp …args` over stdio. */
export async function connectStdio(kind: ClientKind, args: readonly string[]): Promise<Connected> {
  const options = {
    command: process.execPath,
    args: [CLI_PATH, 'mcp', ...args],
    stderr: 'pipe' as const,
  };
  const transport = kind === 'sdk-v1' ? new StdioV1(options) : new StdioV2(options);
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => (stderr += chunk.toString()));
  const client = newClient(kind);
  await client.connect(transport as never);
  return { client: client as unknown as RealClient, stderr: () => stderr };
}

/** Connects `kind` to the Streamable HTTP endpoint `url`, sending `headers` on every request. */
export async function connectHttp(
  kind: ClientKind,
  url: string,
  headers: Record<string, string> = {},
): Promise<Connected> {
  const init = { requestInit: { headers } };
  const transport =
    kind === 'sdk-v1' ? new HttpV1(new URL(url), init) : new HttpV2(new URL(url), init);
  const client = newClient(kind);
  await client.connect(transport as never);
  return { client: client as unknown as RealClient, stderr: () => '' };
}

function newClient(kind: ClientKind): ClientV1 | ClientV2 {
  const info = { name: `knowledge-kit-test-${kind}`, version: '1.0.0' };
  if (kind === 'sdk-v1') return new ClientV1(info);
  return kind === 'sdk-v2'
    ? new ClientV2(info)
    : new ClientV2(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

/** The parsed JSON of a result's one text block. */
export function textJson(reply: ToolReply): unknown {
  if (reply.content.length !== 1 || reply.content[0]!.type !== 'text')
    throw new Error(`not one text block: ${JSON.stringify(reply)}`);
  return JSON.parse(reply.content[0]!.text!);
}
