/**
 * The DNS-rebinding guard of a server bound to loopback: its `Host` must name this machine (or an
 * allowed host) and a browser's `Origin`, when sent, must be a loopback origin (or an allowed one).
 *
 * @module
 */
import { isLoopback } from '../../shared/loopback.js';
import { errorResponse, requestIdFrom } from '../internals.js';

/** `host[:port]` (a `Host` header) without its port, lowercased; IPv6 keeps its brackets. */
function hostPart(header: string): string {
  const lower = header.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

/**
 * A check that refuses a request whose `Host` or `Origin` is not this machine's, or `undefined` when
 * it passes. `allowedHosts` are extra host names (`Host` without its port), `allowedOrigins` extra
 * origins (`https://app.example`); a request without `Origin` (not from a browser page) passes on its
 * `Host` alone.
 *
 * @param allowedHosts - extra host names, case-insensitive.
 * @param allowedOrigins - extra origins, compared exactly (lowercased).
 * @returns the check: a 403 answer in the tools' error shape, or `undefined`.
 */
export function hostGuard(
  allowedHosts: readonly string[],
  allowedOrigins: readonly string[],
): (request: Request) => Response | undefined {
  const hosts = new Set(allowedHosts.map((h) => hostPart(h)));
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return (request) => {
    const host = request.headers.get('host');
    const name = host === null ? '' : hostPart(host);
    let refused: string | undefined;
    // The usual names first: `isLoopback` splits and checks each octet.
    const usual = name === '127.0.0.1' || name === 'localhost';
    if (!usual && !isLoopback(name) && !hosts.has(name))
      refused = `Host ${JSON.stringify(host ?? '')} is not this machine: a server on loopback answers only requests for localhost, 127.0.0.1 or [::1] (a page on another domain may have rebound it). Allow the name with \`allowedHosts\` (\`--allowed-host\`).`;
    else {
      const origin = request.headers.get('origin');
      if (origin !== null) {
        const lower = origin.toLowerCase();
        let loopbackOrigin = false;
        try {
          const url = new URL(lower);
          loopbackOrigin =
            (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname);
        } catch {
          loopbackOrigin = false;
        }
        if (!loopbackOrigin && !origins.has(lower))
          refused = `Origin ${JSON.stringify(origin)} may not read this server: a server on loopback answers browser pages from loopback origins only. Allow the origin with \`allowedOrigins\` (\`--allowed-origin\`).`;
      }
    }
    if (refused === undefined) return undefined;
    return errorResponse({
      code: 'UNAUTHENTICATED',
      status: 403,
      message: refused,
      requestId: requestIdFrom(request.headers.get('x-request-id')),
    });
  };
}
