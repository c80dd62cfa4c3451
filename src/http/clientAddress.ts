/**
 * The network address a request came from, as a server adapter knows it: `knowledge-kit/http/node`
 * records each request's peer address here, and the handler reads it for its rate limit
 * (`RateLimitRequestInfo.clientAddress`) and its per-client caps. Fetch runtimes that give no address
 * leave it unknown (`null`).
 *
 * @module
 */

const addresses = new WeakMap<Request, string>();

/**
 * Record the peer address of `request` (adapters only).
 *
 * @param request - the request the handler will be given.
 * @param address - the peer's IP address, such as `127.0.0.1` or `::1`.
 */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (typeof address === 'string' && address !== '') addresses.set(request, address);
}

/**
 * The peer address an adapter recorded for `request`, or `null` when none did.
 *
 * @param request - a request the handler was given.
 * @returns the address, or `null`.
 */
export function clientAddressOf(request: Request): string | null {
  return addresses.get(request) ?? null;
}
