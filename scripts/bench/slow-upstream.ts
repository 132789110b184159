/**
 * The slow upstream of the bench: the tests' fake OpenAI-compatible server
 * (test/support/fake-openai-server.ts) in a process of its own, answering every chat
 * completion with a valid prediction that takes DELAY_MS (default 2000): streamed, as the
 * service asks, its chunks of about one token each written one by one over that time, as a
 * model writes them (docs/benchmarking.md). With DELAY_MS=0 (the cold start) it writes the
 * same chunks at once, one write each: paced over 0 ms, they would leave a millisecond
 * apart (the timer's least), 70 ms of waiting in every answer. It prints its base
 * URL as one JSON line, and on SIGTERM the number of requests it received with the time
 * (epoch ms, to 5 ms) each arrived, and the most it was answering at once (one socket each).
 *   DELAY_MS=2000 node dist/scripts/bench/slow-upstream.js
 */
import { paced, reply, startFakeOpenAi, UPSTREAM_PREDICTION } from '../../test/support/fake-openai-server';

async function main(): Promise<void> {
  const fake = await startFakeOpenAi();
  const delayMs = Number(process.env['DELAY_MS'] ?? 2000);
  fake.always(delayMs > 0 ? paced(delayMs, reply(UPSTREAM_PREDICTION)) : reply(UPSTREAM_PREDICTION));
  const arrivals: number[] = [];
  const watcher = setInterval(() => {
    while (arrivals.length < fake.requests.length) arrivals.push(Date.now());
  }, 5);
  process.stdout.write(`${JSON.stringify({ baseURL: fake.baseURL })}\n`);
  process.once('SIGTERM', () => {
    clearInterval(watcher);
    process.stdout.write(`${JSON.stringify({ requests: fake.requests.length, arrivals, maxInFlight: fake.maxInFlight() })}\n`);
    void fake.close().then(() => process.exit(0));
  });
}

void main();
