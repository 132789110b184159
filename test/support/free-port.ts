/**
 * A free loopback port for a child server, below the kernel's ephemeral range. A port
 * the kernel hands out for `listen(0)` is an ephemeral one, and so is the source port of
 * every outgoing connection: polling such a port until the child listens can, on Linux,
 * connect the poller's socket to itself (TCP simultaneous open), which then holds the
 * port and the child's `listen` fails with EADDRINUSE (seen once in `make eval`, 2026-11-26).
 * Below the range, no connection's own port can be the one polled.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default start of the ephemeral range, when /proc does not say. */
const DEFAULT_EPHEMERAL_LOW = 32768;
const PORTS_BELOW = 16384;
const ATTEMPTS = 200;

export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/u)[0]);
    return Number.isInteger(low) && low > 1024 ? low : DEFAULT_EPHEMERAL_LOW;
  } catch {
    return DEFAULT_EPHEMERAL_LOW;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const below = ephemeralLow();
  const from = Math.max(1025, below - PORTS_BELOW);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = from + Math.floor(Math.random() * (below - from));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free loopback port between ${from} and ${below} after ${ATTEMPTS} tries`);
}
