/**
 * Whether a host name is this machine's loopback: `localhost` (any case), `::1` (bracketed or not) or
 * an IPv4 address in `127.0.0.0/8`. One definition for the command line (which URLs it prints, when it
 * warns) and the Node server (which requests it answers on loopback); no Node built-in, so it is a
 * core helper.
 *
 * @param host - a host name or address, without a port.
 * @returns `true` for a loopback name or address.
 */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase() === 'localhost' || bare === '::1' || isLoopbackIpv4(bare);
}

/** Four dotted decimal octets (0–255, no leading zeros) of which the first is 127. */
function isLoopbackIpv4(text: string): boolean {
  const octets = text.split('.');
  if (octets.length !== 4 || octets[0] !== '127') return false;
  return octets.every(
    (octet) =>
      octet.length > 0 &&
      octet.length <= 3 &&
      /^[0-9]+$/.test(octet) &&
      (octet.length === 1 || octet[0] !== '0') &&
      Number(octet) <= 255,
  );
}
