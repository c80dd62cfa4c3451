/**
 * What `serve` prints for the address it listens on: a URL a client can use (never `0.0.0.0` or `::`,
 * which name no host), the other addresses it answers on, and whether it is reachable from other
 * machines, so that a server without a token there is said out loud.
 */
import { networkInterfaces } from 'node:os';

/** Whether `host` (as given to --host) reaches only this machine. */
export { isLoopback } from '../shared/loopback.js';

/** Whether `host` is the unspecified address, which listens on every interface. */
export function isEveryInterface(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare === '0.0.0.0' || bare === '::' || bare === '0:0:0:0:0:0:0:0';
}

/**
 * The origins (`http://host:port`) a client can use for a server bound to `url` (what
 * `serveKnowledge` reports): the loopback origin first, then each external address of this machine,
 * for an unspecified bind; `url` alone otherwise.
 */
export function usableOrigins(url: string, host: string): string[] {
  if (!isEveryInterface(host)) return [url];
  const port = new URL(url).port;
  const v6 = host.includes(':');
  const origins = [v6 ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.internal) continue;
      // A `::` bind answers IPv4 too (dual stack); a `0.0.0.0` bind only IPv4.
      if (address.family === 'IPv6' && !v6) continue;
      if (address.family === 'IPv6' && address.address.startsWith('fe80:')) continue;
      origins.push(
        address.family === 'IPv6'
          ? `http://[${address.address}]:${port}`
          : `http://${address.address}:${port}`,
      );
    }
  }
  return origins;
}
