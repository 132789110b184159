/**
 * The ports the test harnesses, the bench and `make eval` give their child servers
 * (test/support/free-port.ts): below the kernel's ephemeral range, where no outgoing
 * connection's own port can be, and free when chosen.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { ephemeralLow, freePort } from '../../../test/support/free-port';

describe('freePort', () => {
  test('when ports are chosen, then each is below the ephemeral range and a server can listen on it', async () => {
    const low = ephemeralLow();
    for (let n = 0; n < 5; n += 1) {
      const port = await freePort();
      expect(port).toBeLessThan(low);
      expect(port).toBeGreaterThan(1024);
      const server = createServer();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

});
