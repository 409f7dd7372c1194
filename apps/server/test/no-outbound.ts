// Vitest setup: a test may talk only to this machine (the sandbox, the test PostgreSQL, the Auth
// emulator, its own servers). Any connection to another host fails loudly, so a missing base-URL
// setting can never send a test to the real Spotify, Deezer or Google.
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|localhost)$/i;

/** Where a `connect` call is going: a host for TCP, undefined for a Unix socket or unknown shapes. */
function targetHost(args: unknown[]): string | undefined {
  const [first, second] = args;
  const opts = Array.isArray(first) ? (first[0] as unknown) : first;
  if (typeof opts === 'object' && opts !== null) {
    const o = opts as { path?: string; host?: string; port?: unknown };
    if (o.path) return undefined;
    return o.host ?? 'localhost';
  }
  if (typeof opts === 'number') return typeof second === 'string' ? second : 'localhost';
  return undefined;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const host = targetHost(args);
  if (host !== undefined && !LOOPBACK.test(host)) {
    throw new Error(`test tried to connect to ${host}: tests may only reach this machine (the sandbox)`);
  }
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof connect;
