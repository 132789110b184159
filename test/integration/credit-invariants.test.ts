/** Credit invariants under concurrency, on real PostgreSQL. */
import { balanceOf, createAccount, ledgerOf, PERSON, snapCountOf } from '../support/factories';
import { seededRandom } from '../support/seeded-random';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('credit invariants', () => {
  test('when 200 requests race over 5 accounts with random balances, then each account gets exactly min(requests, balance) snaps', async () => {
    const random = seededRandom('credit invariants');
    const balances = Array.from({ length: 5 }, () => random.int(5, 60));
    const accounts = await Promise.all(balances.map((credits) => createAccount(server, credits)));
    const targets = Array.from({ length: 200 }, () => random.int(0, accounts.length));
    const responses = await Promise.all(targets.map((i) => server.post('/api/v1/snap', PERSON, { 'x-api-key': accounts[i]?.apiKey ?? '' })));

    for (const [i, account] of accounts.entries()) {
      const sent = targets.filter((t) => t === i).length;
      const statuses = responses.filter((_r, n) => targets[n] === i).map((r) => r.status);
      const expected = Math.min(sent, balances[i] ?? 0);
      const label = `SEED=${random.seed}, account ${i}: ${sent} requests, ${balances[i]} credits`;
      expect({ label, successes: statuses.filter((s) => s === 201).length, others: statuses.filter((s) => s !== 201 && s !== 400) }).toEqual({ label, successes: expected, others: [] });
      const balance = await balanceOf(server, account.accountId);
      expect({ label, balance, snaps: await snapCountOf(server, account.accountId), ledger: (await ledgerOf(server, account.accountId)).sum }).toEqual({
        label,
        balance: (balances[i] ?? 0) - expected,
        snaps: expected,
        ledger: balance,
      });
      expect(balance).toBeGreaterThanOrEqual(0);
    }
  });
});
