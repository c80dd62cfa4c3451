/**
 * Knowledge Kit's HTTP endpoint on Node: `toNodeListener` turns the Fetch handler into a
 * `node:http`/`node:https` request listener (through Hono's official Node adapter), and
 * `serveKnowledge` starts a server for examples, tests and small deployments.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createKnowledgeHandler } from 'knowledge-kit/http';
 * import { toNodeListener } from 'knowledge-kit/http/node';
 * createServer({ maxHeaderSize: 65_536 }, toNodeListener(createKnowledgeHandler({ access }))).listen(8787);
 * ```
 *
 * @module
 */
/// <reference types="node" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import type { KnowledgeHandler } from '../index.js';
import { isLoopback } from '../../shared/loopback.js';
import { isWholeAnswer, setClientAddress } from '../internals.js';
import { hostGuard } from './hostGuard.js';

/** A `node:http` request listener. */
export type NodeRequestListener = (
  request: IncomingMessage,
  response: ServerResponse,
) => Promise<void>;

/** Options of `toNodeListener`. */
export interface NodeListenerOptions {
  /**
   * Let `@hono/node-server` replace the global `Request` and `Response` with its lightweight versions
   * (they pass `instanceof` checks against the built-in ones), as its own `serve()` does by default.
   * With them, a response body is written straight from the string instead of through a stream:
   * about twice the throughput for small reads. Default `true`; `false` leaves the globals alone.
   */
  readonly overrideGlobalObjects?: boolean | undefined;
}

/** Options of `serveKnowledge`. */
export interface ServeKnowledgeOptions extends NodeListenerOptions {
  /** From `createKnowledgeHandler`. */
  readonly handler: KnowledgeHandler;
  /** Default 0: a free port the system picks. */
  readonly port?: number | undefined;
  /** Default `127.0.0.1`: only this machine. Pass `0.0.0.0` to serve a network. */
  readonly hostname?: string | undefined;
  /**
   * On loopback, the host names (a `Host` header without its port) answered besides `localhost`,
   * `127.0.0.1` and `[::1]`; any other `Host` gets 403 (DNS rebinding). Ignored off loopback.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * On loopback, the browser origins (`https://app.example`) answered besides loopback origins; a
   * request with any other `Origin` gets 403. A request without `Origin` is not refused for it.
   * Ignored off loopback.
   */
  readonly allowedOrigins?: readonly string[] | undefined;
  /**
   * Longest wait of `close()`, in milliseconds, for requests in flight before their connections are
   * cut. Event streams (MCP `subscriptions/listen`) never end by themselves: `close()` cuts them at
   * once. Default 5,000.
   */
  readonly closeTimeoutMs?: number | undefined;
  /**
   * Most connections open at once from one client address; one more is closed as it arrives, so
   * one client (21,000 half-sent requests) cannot take every file descriptor. Default 128.
   */
  readonly maxConnectionsPerAddress?: number | undefined;
}

/** A running server. */
export interface ServedKnowledge {
  /** The server's origin, such as `http://127.0.0.1:8787`. */
  readonly url: string;
  /** The `node:http` server. */
  readonly server: Server;
  /**
   * Stop accepting connections, cut open event streams, and resolve once every request in flight
   * has been answered, or `closeTimeoutMs` has passed and the connections left have been cut.
   */
  close(): Promise<void>;
}

/** Node's `maxHeaderSize` for `serveKnowledge`: every URL the handler accepts (32,768 characters) fits. */
export const KNOWLEDGE_MAX_HEADER_SIZE = 65_536;

/**
 * A `node:http` (or `node:https`) request listener for a Fetch handler, on `@hono/node-server`'s
 * `getRequestListener`. Like that adapter, it replaces the global `Request` and `Response` with
 * `instanceof`-compatible lightweight versions unless `overrideGlobalObjects: false`. Create the server
 * with `maxHeaderSize: 65_536` (Node's default is 16 KiB) so that long search URLs reach the handler.
 *
 * @param handler - from `createKnowledgeHandler`.
 * @param options - `overrideGlobalObjects` (default `true`).
 * @returns the listener, for `createServer(listener)`.
 */
export function toNodeListener(
  handler: KnowledgeHandler,
  options: NodeListenerOptions = {},
): NodeRequestListener {
  const issues = [];
  if (typeof handler !== 'function')
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['handler'],
      message: 'toNodeListener: `handler` must be the function `createKnowledgeHandler` returns.',
    });
  const override = options?.overrideGlobalObjects ?? true;
  if (typeof override !== 'boolean')
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['options', 'overrideGlobalObjects'],
      message: 'toNodeListener: `options.overrideGlobalObjects` must be a boolean.',
    });
  if (issues.length > 0) throw new KnowledgeError(issues);
  return nodeListener(handler, override);
}

/**
 * The listener of `toNodeListener`: each request's peer address recorded for the handler (its rate
 * limit and per-client caps), and `onAnswer` told of each answer with the `node:http` response it
 * is written to.
 */
function nodeListener(
  handler: KnowledgeHandler,
  overrideGlobalObjects: boolean,
  onAnswer?: (answer: Response, response: ServerResponse) => void,
): NodeRequestListener {
  return getRequestListener(
    async (request, env) => {
      // `node:http` bindings here (`serveKnowledge`); an `http2` server's have a socket too.
      const { incoming, outgoing } = env as { incoming: IncomingMessage; outgoing: ServerResponse };
      setClientAddress(request, incoming.socket?.remoteAddress);
      const answer = await handler(request);
      onAnswer?.(answer, outgoing);
      return answer;
    },
    { overrideGlobalObjects },
  );
}

/**
 * Serve a handler on `node:http` with a 64 KiB header limit, on loopback unless told otherwise.
 *
 * On loopback, a request whose `Host` is not `localhost`, `127.0.0.1`, `[::1]` or one of
 * `allowedHosts`, or whose `Origin` is neither a loopback origin nor one of `allowedOrigins`, gets 403
 * (`UNAUTHENTICATED`, the tools' error shape): a web page on a domain rebound to 127.0.0.1 cannot read it.
 *
 * @param options - `handler`, `port` (default 0, any free port), `hostname` (default `127.0.0.1`),
 * `allowedHosts`, `allowedOrigins`, `overrideGlobalObjects` (see `toNodeListener`).
 * @returns `{ url, server, close() }` once the server listens.
 * @throws KnowledgeError `INVALID_INPUT` for bad options; the server's own error (such as `EADDRINUSE`) when it cannot listen.
 * @example
 * ```ts
 * const served = await serveKnowledge({ handler, port: 8787 });
 * console.log(`${served.url}/knowledge-bases/handbook`);
 * await served.close();
 * ```
 */
export async function serveKnowledge(options: ServeKnowledgeOptions): Promise<ServedKnowledge> {
  const {
    handler,
    port = 0,
    hostname = '127.0.0.1',
    overrideGlobalObjects,
    allowedHosts = [],
    allowedOrigins = [],
    closeTimeoutMs = DEFAULT_CLOSE_TIMEOUT_MS,
    maxConnectionsPerAddress = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  } = options ?? ({} as ServeKnowledgeOptions);
  const issues = [];
  if (typeof handler !== 'function')
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['options', 'handler'],
      message: 'serveKnowledge: `options.handler` must come from `createKnowledgeHandler`.',
    });
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['options', 'port'],
      message: 'serveKnowledge: `options.port` must be an integer in 0..65535.',
    });
  if (typeof hostname !== 'string' || hostname === '')
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['options', 'hostname'],
      message: 'serveKnowledge: `options.hostname` must be a host name or address.',
    });
  for (const [key, list] of [
    ['allowedHosts', allowedHosts],
    ['allowedOrigins', allowedOrigins],
  ] as const)
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item !== ''))
      issues.push({
        code: 'INVALID_INPUT' as const,
        path: ['options', key],
        message: `serveKnowledge: \`options.${key}\` must be an array of non-empty strings.`,
      });
  if (!Number.isInteger(closeTimeoutMs) || closeTimeoutMs < 0 || closeTimeoutMs > 2_147_483_647)
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['options', 'closeTimeoutMs'],
      message:
        'serveKnowledge: `options.closeTimeoutMs` must be a whole number of milliseconds from 0 to 2147483647, such as 5000.',
    });
  if (
    !Number.isInteger(maxConnectionsPerAddress) ||
    maxConnectionsPerAddress < 1 ||
    maxConnectionsPerAddress > 1_000_000
  )
    issues.push({
      code: 'INVALID_INPUT' as const,
      path: ['options', 'maxConnectionsPerAddress'],
      message:
        'serveKnowledge: `options.maxConnectionsPerAddress` must be a whole number from 1 to 1000000, such as 128.',
    });
  if (issues.length > 0) throw new KnowledgeError(issues);

  // On loopback, a page on a domain rebound to 127.0.0.1 must not read the server: `Host` and `Origin`
  // must name this machine (or what the caller allows).
  const guard = isLoopback(hostname) ? hostGuard(allowedHosts, allowedOrigins) : undefined;
  const guarded: KnowledgeHandler =
    guard === undefined ? handler : async (request) => guard(request) ?? handler(request);
  toNodeListener(guarded, { overrideGlobalObjects }); // checks the options
  let closing = false;
  // Open event streams (they never end by themselves): cut when close() begins, or at once when one
  // starts after that.
  const streams = new Set<ServerResponse>();
  const listener = nodeListener(guarded, overrideGlobalObjects ?? true, (answer, response) => {
    // The handler's own JSON and Markdown answers are whole: their headers are not read (reading
    // them makes the adapter copy a `Headers` object back into a record).
    if (isWholeAnswer(answer)) return;
    if (!(answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) return;
    if (closing) setImmediate(() => response.destroy());
    else {
      streams.add(response);
      response.once('close', () => streams.delete(response));
    }
  });
  const server = createServer({ maxHeaderSize: KNOWLEDGE_MAX_HEADER_SIZE }, (request, response) => {
    // A keep-alive connection whose request was in flight when close() began goes idle only after
    // its answer: close it then, or close() would wait for the client to drop it.
    response.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    // A stream that starts once close() has begun is cut at once too.
    void listener(request, response);
  });
  // Connections per client address: one over the cap is closed as it arrives.
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const open = perAddress.get(address) ?? 0;
    if (open >= maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        // Waits for requests in flight; idle keep-alive connections would otherwise hold it open.
        closing = true;
        const timer = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
        server.close((error?: Error) => {
          clearTimeout(timer);
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeIdleConnections();
        for (const response of streams) response.destroy();
      })),
  };
}

/** Default `maxConnectionsPerAddress` of `serveKnowledge`. */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;

/** Default `closeTimeoutMs` of `serveKnowledge`. */
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
