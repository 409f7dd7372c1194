import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (already checked with `isIPv6`, zone id removed). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    // An embedded IPv4 tail (`::ffff:192.0.2.1`) stands for the last two groups.
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = parse(head);
  const right = parse(rest ?? '');
  const fill = rest === undefined ? [] : Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

/**
 * The key a client address is counted under by the per-address limits: an IPv4 address as it is, an
 * IPv4-mapped IPv6 address as its IPv4 address, and any other IPv6 address as its /64 network, since
 * one IPv6 client can take as many addresses within its /64 as it likes.
 */
export function addressKey(ip: string | undefined): string {
  // No address: the connection is gone (a reset) and its address was never read. All such share one key.
  if (!ip) return 'gone';
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const g = ipv6Groups(bare.toLowerCase());
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  }
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}
