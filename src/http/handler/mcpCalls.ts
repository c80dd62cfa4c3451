/**
 * The calls one MCP POST makes, for the rate limit: each member of a JSON-RPC message (a batch is
 * many), named by the tool it calls (`tools/call` of one of the tools) or `mcp` for anything else.
 *
 * @module
 */
import type { KnowledgeToolRegistry } from '../../agent/internals.js';
import { isPlainObject } from '../../shared/values.js';
import type { KnowledgeOperation } from '../types.js';

/** Largest body read here: the SDK answers a larger one 413 without reading it. */
export const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The JSON-RPC messages of an MCP POST's body (a batch's members), or `undefined` when it does not parse. */
export async function mcpMessages(request: Request): Promise<readonly unknown[] | undefined> {
  if (request.method !== 'POST' || request.body === null) return undefined;
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MCP_MAX_BODY_BYTES) return undefined;
  let text: string;
  try {
    text = await request.clone().text();
  } catch {
    return undefined;
  }
  if (text.length > MCP_MAX_BODY_BYTES) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return undefined;
  }
}

/**
 * The operation of each message, for the rate limit: a tool's name for `tools/call` of a tool of
 * `registry`, else `mcp`. A body that does not parse is one `mcp` call (the SDK answers it).
 */
export function mcpOperations(
  messages: readonly unknown[] | undefined,
  registry: KnowledgeToolRegistry,
): KnowledgeOperation[] {
  if (messages === undefined || messages.length === 0) return ['mcp'];
  return messages.map((message) => {
    if (!isPlainObject(message) || message['method'] !== 'tools/call') return 'mcp';
    const params = message['params'];
    const name = isPlainObject(params) ? params['name'] : undefined;
    return typeof name === 'string' && registry.some((tool) => tool.name === name)
      ? (name as KnowledgeOperation)
      : 'mcp';
  });
}
