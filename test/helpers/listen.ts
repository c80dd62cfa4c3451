/**
 * An MCP `subscriptions/listen` request (the 2026-07-28 protocol), as a client that wants to hear of
 * tool list changes sends it: its answer is an event stream that stays open.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';

/** The init of a listen request with ID `id` and `headers` (credentials) on top. */
export function listenInit(
  headers: Readonly<Record<string, string>>,
  id = 1,
  signal?: AbortSignal,
): RequestInit {
  return {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_CAPABILITIES_META_KEY]: {},
          [CLIENT_INFO_META_KEY]: { name: 'listener', version: '1' },
        },
      },
    }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/** Opens a listen stream at `url` and resolves once its acknowledgement arrived (or its answer, if not a stream). */
export async function openListen(
  url: string,
  headers: Readonly<Record<string, string>>,
  id = 1,
  signal?: AbortSignal,
): Promise<{ readonly response: Response; readonly first: string }> {
  const response = await fetch(url, listenInit(headers, id, signal));
  if (!(response.headers.get('content-type') ?? '').includes('event-stream'))
    return { response, first: await response.text() };
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return { response, first: new TextDecoder().decode(value) };
}
