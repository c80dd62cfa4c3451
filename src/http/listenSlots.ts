/**
 * The cap on MCP `subscriptions/listen` streams per client: the SDK refuses a new stream once 1,024
 * are open on a knowledge base, so without a cap per client one client could take them all.
 *
 * @module
 */
import { clientAddressOf } from './clientAddress.js';

/** Default `limits.maxListenStreamsPerClient`. */
export const DEFAULT_MAX_LISTEN_STREAMS_PER_CLIENT = 16;

/**
 * The client a listen stream is counted against: its network address when the server adapter gives
 * one (`knowledge-kit/http/node`), else its credentials (`Authorization`), else one client for all.
 */
export function listenClientOf(request: Request): string {
  const address = clientAddressOf(request);
  if (address !== null) return `address:${address}`;
  return `authorization:${request.headers.get('authorization') ?? ''}`;
}

/** Whether `request` opens a listen stream (the 2026-07-28 protocol names its method in `Mcp-Method`). */
export function isListenRequest(request: Request): boolean {
  return (
    request.method === 'POST' &&
    request.headers.get('mcp-method')?.trim() === 'subscriptions/listen'
  );
}

/** Open listen streams per client of one knowledge base. */
export class ListenSlots {
  readonly #open = new Map<string, number>();
  readonly #max: number;

  /** @param max - most streams one client may hold open. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Take a slot for `client`, or `false` when it holds `max` already. */
  take(client: string): boolean {
    const open = this.#open.get(client) ?? 0;
    if (open >= this.#max) return false;
    this.#open.set(client, open + 1);
    return true;
  }

  /** Give back a slot of `client`. */
  release(client: string): void {
    const open = (this.#open.get(client) ?? 1) - 1;
    if (open <= 0) this.#open.delete(client);
    else this.#open.set(client, open);
  }

  /**
   * `response` with its body wrapped so that its slot is given back once, when the stream ends,
   * fails or is cancelled (the client hung up); a response without a body gives it back at once.
   */
  held(response: Response, client: string): Response {
    const body = response.body;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release(client);
    };
    if (body === null || !(response.headers.get('content-type') ?? '').includes('event-stream')) {
      release();
      return response;
    }
    const reader = body.getReader();
    const wrapped = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    });
    return new Response(wrapped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
}

/**
 * The in-band answer to a listen request over the client's cap, as the SDK answers one over its own
 * (HTTP 200, a JSON-RPC error with the request's ID).
 */
export async function listenRefused(request: Request, max: number): Promise<Response> {
  let id: unknown = null;
  try {
    const message = (await request.json()) as { id?: unknown };
    if (typeof message.id === 'string' || typeof message.id === 'number') id = message.id;
  } catch {
    // No ID to answer with: `null`, as JSON-RPC answers an unreadable request.
  }
  return new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32603,
        message: `Subscription limit reached: this client has ${max} subscriptions/listen streams open on this knowledge base, the most it may hold. Close one (cancel its request) before opening another.`,
      },
    }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );
}
