/** The bench's report: markdown tables, printed and written to test-output/bench/results.md. */
import { baselineOf, cpuMsPer2xx, median, MB, ratioToBaseline, serviceRow, summarise, type BenchResults } from './bench-results';
import { isDurable } from './scratch-database';
import type { SlowUpstreamResult } from './slow-upstream-run';
import { PROBE_RESOLUTION_MS } from './loop-delay-constants';
import { checkTargets } from './targets';

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => (bytes / MB).toFixed(0);
const ms = (n: number) => (Number.isNaN(n) ? 'n/a' : n.toFixed(2));

function throughputSection(results: BenchResults): string {
  const { settings } = results;
  const rows = results.throughput.map((row) => {
    const s = summarise(row);
    return [
      row.name,
      int(s.okPerSecond),
      row.rounds.map((r) => int(r.okPerSecond)).join(', '),
      s.p50Ms.toFixed(1),
      s.p99Ms.toFixed(1),
      ratioToBaseline(results, row).toFixed(2),
      ms(s.serverMsPer2xx),
      int(s.ok),
      withStatuses(s.non2xx, s.statusCodes, (code) => !code.startsWith('2')),
      int(s.failures),
      mb(row.peakBytes),
      String(row.processes),
    ];
  });
  const cores = (n: number) => (Number.isNaN(n) ? 'n/a' : n.toFixed(2));
  const cpuRows = results.throughput.map((row) => {
    const s = summarise(row);
    const known = [s.serverCores, s.loadCores, s.postgresCores, s.redisCores].filter((n) => !Number.isNaN(n));
    const other = s.machineCores - known.reduce((a, b) => a + b, 0);
    return [row.name, cores(s.serverCores), cores(s.loadCores), cores(s.postgresCores), cores(s.redisCores), cores(Math.max(0, other)), cores(s.machineCores), ms(s.postgresMsPer2xx)];
  });
  return [
    `## Throughput: \`POST /api/v1/snap\`, ${settings.connections} connections`,
    '',
    `Warm-up ${settings.warmupSeconds} s per server, then ${settings.rounds} interleaved rounds of ${settings.roundSeconds} s (rotating order); ` +
      `figures are the median round. The load rotates over ${settings.accounts} accounts' keys.`,
    '',
    table(['server', 'req/s (2xx)', 'req/s per round', 'p50 ms', 'p99 ms', 'ratio to baseline', 'server CPU ms per 2xx', '2xx', 'non-2xx', 'errors + timeouts', 'peak RSS MB', 'processes'], rows),
    '',
    `Where the CPU went during the rounds (median round, in cores of the machine's ${results.machine.cpus}):`,
    '',
    table(['server', 'server', 'load generator', 'PostgreSQL', 'Redis', 'other', 'machine', 'PostgreSQL CPU ms per 2xx'], cpuRows),
  ].join('\n');
}

/** A count of responses, with their statuses when there are any: `604 (500: 4, 503: 600)`. */
function withStatuses(count: number, statusCodes: Record<string, number>, counted: (code: string) => boolean): string {
  const parts = Object.entries(statusCodes)
    .filter(([code, n]) => counted(code) && n > 0)
    .map(([code, n]) => `${code}: ${int(n)}`);
  return parts.length === 0 ? int(count) : `${int(count)} (${parts.join(', ')})`;
}

function slowUpstreamTable(slow: SlowUpstreamResult): string {
  const created = slow.load.statusCodes['201'] ?? 0;
  const other = slow.load.completed - created;
  const perRequestKB = created > 0 ? (slow.peakBytes - slow.rssBeforeBytes) / slow.requests / 1000 : NaN;
  return table(
    ['requests', '201', 'other responses', 'errors + timeouts', 'seconds', 'req/s (201)', 'of ceiling', 'p50 ms', 'p99 ms', 'peak RSS MB', 'RSS before MB', 'RSS per request in flight KB', 'server CPU ms per 201', 'event-loop delay p99 ms', 'event-loop delay max ms', 'listen-queue overflows', 'accept-queue peak: service / upstream', 'upstream calls'],
    [
      [
        int(slow.requests),
        int(created),
        withStatuses(other, slow.load.statusCodes, (code) => code !== '201'),
        int(slow.load.errors + slow.load.timeouts),
        slow.load.seconds.toFixed(2),
        int(slow.load.okPerSecond),
        `${((slow.load.okPerSecond / slow.ceilingPerSecond) * 100).toFixed(0)}%`,
        int(slow.load.p50Ms),
        int(slow.load.p99Ms),
        mb(slow.peakBytes),
        mb(slow.rssBeforeBytes),
        Number.isNaN(perRequestKB) ? 'n/a' : perRequestKB.toFixed(0),
        ms(cpuMsPer2xx(slow.load, 'server')),
        slow.loopDelay.p99Ms.toFixed(1),
        slow.loopDelay.maxMs.toFixed(0),
        String(slow.listenOverflows),
        `${slow.acceptQueuePeak.service} / ${slow.acceptQueuePeak.upstream}`,
        String(slow.upstreamCalls),
      ],
    ],
  );
}

function slowUpstreamDetails(slow: SlowUpstreamResult): string[] {
  const name = (key: string) => ({ upstream: 'fake upstream', postgres: 'PostgreSQL', redis: 'Redis' })[key] ?? key;
  return [
    ...(slow.upstreamArrivalMs
      ? [
          `The upstream received the burst's calls from ${int(slow.upstreamArrivalMs.first)} ms to ${int(slow.upstreamArrivalMs.last)} ms after the load generator began, ` +
            `and answered each ${int(slow.upstreamDelayMs)} ms after it arrived: that spread is where the time above ${int(slow.upstreamDelayMs)} ms went.`,
          '',
        ]
      : []),
    `CPU during the burst, in cores: ${['server', 'postgres', 'redis', 'upstream', 'machine']
      .filter((key) => slow.load.cores[key] !== undefined)
      .map((key) => `${name(key)} ${(slow.load.cores[key] as number).toFixed(2)}`)
      .concat(`load generator ${(slow.load.cpuSeconds / slow.load.seconds).toFixed(2)}`)
      .join(', ')}.`,
  ];
}

function burstSection(heading: string, intro: string, slow: SlowUpstreamResult): string {
  return [heading, '', intro, '', slowUpstreamTable(slow), '', ...slowUpstreamDetails(slow)].join('\n');
}

function slowUpstreamSection(results: BenchResults): string {
  const slow = results.slowUpstream;
  return burstSection(
    `## Slow upstream: ${int(slow.requests)} requests at once, upstream answers after ${slow.upstreamDelayMs / 1000} s`,
    `One process (WEB_CONCURRENCY=1), credit holds in place (every request holds a credit before its upstream call), predictor pointed at a fake OpenAI-compatible server; ` +
      `${int(slow.requests)} connections, one request each, after a warm-up burst of ${slow.warmupRequests}. ` +
      `Ceiling: ${int(slow.requests)} requests / ${slow.upstreamDelayMs / 1000} s = ${int(slow.ceilingPerSecond)} req/s.`,
    slow,
  );
}

function embeddedBurstSection(results: BenchResults): string {
  const slow = results.embeddedBurst;
  return burstSection(
    `## The same burst on the embedded predictor: ${int(slow.requests)} requests at once`,
    `A fresh service process as above, its predictor the embedded one (no upstream call): what the burst's ${int(slow.requests)} new connections, validation, holds and charges cost on their own. ` +
      'The server CPU per 201 against the slow-upstream row is what an upstream call adds in a burst.',
    slow,
  );
}

function capacitySection(results: BenchResults): string {
  const slow = results.capacity;
  return burstSection(
    `## Capacity: ${int(slow.requests)} requests in flight on one process`,
    `A fresh service process (WEB_CONCURRENCY=1), as above, sent ${int(slow.requests)} requests at once on ${int(slow.requests)} connections after a warm-up burst of ${slow.warmupRequests}: ` +
      `all of them are in flight together for the upstream's ${slow.upstreamDelayMs / 1000} s. ` +
      'RSS per request in flight = (peak RSS − RSS before the burst) / requests.',
    slow,
  );
}

function admissionSection(results: BenchResults): string {
  const { shedBurst, openLoop } = results.admission;
  const burst = shedBurst.result;
  const other = (statusCodes: Record<string, number>) => withStatuses(Object.entries(statusCodes).filter(([code]) => code !== '201' && code !== '503').reduce((n, [, c]) => n + c, 0), statusCodes, (code) => code !== '201' && code !== '503');
  const loop = openLoop.result;
  return [
    `## Admission: ${int(shedBurst.requests)} requests at once, one key, cold key cache`,
    '',
    `A fresh service process (WEB_CONCURRENCY=1, MAX_REQUESTS_IN_FLIGHT at its default, ${shedBurst.maxInFlight}), predictor behind the ${results.settings.upstreamDelayMs / 1000} s fake upstream, ` +
      `one account created just before, then ${int(shedBurst.requests)} requests at once with its key, each on its own connection. ` +
      '`api_keys` lookups: the service\'s `api_key_lookups_total` (lookups that reached the database), before and after the burst.',
    '',
    table(
      ['requests', '201', '503 (with Retry-After)', 'other responses', 'errors + timeouts', 'p99 ms to a 503', 'max ms to a 503', 'p50 ms to a 201', 'api_keys lookups for the key', 'server CPU cores'],
      [
        [
          int(shedBurst.requests),
          int(burst.statusCodes['201'] ?? 0),
          `${int(burst.statusCodes['503'] ?? 0)} (${int(burst.shedWithRetryAfter)})`,
          other(burst.statusCodes),
          int(burst.errors),
          ms(burst.shed.p99),
          ms(burst.shed.max),
          ms(burst.created.p50),
          String(shedBurst.apiKeyQueries),
          (burst.cores['server'] ?? NaN).toFixed(2),
        ],
      ],
    ),
    '',
    `## Overhead: open-loop arrivals, ${openLoop.ratePerSecond} requests/s for ${openLoop.seconds} s, upstream ${results.settings.upstreamDelayMs / 1000} s`,
    '',
    `A fresh service process as above, 10 accounts, OPENAI_MAX_SOCKETS=${openLoop.sockets} (the rate's calls in flight, with half as much again to spare) and so MAX_REQUESTS_IN_FLIGHT at its default for them; ` +
      'requests leave at a fixed rate whatever the answers (2 s of warm-up first). ' +
      "Overhead: each 201's `Server-Timing` total minus upstream, the service's own time.",
    '',
    table(
      ['sent', '201', '503', 'other responses', 'errors + timeouts', 'overhead p50 ms', 'overhead p99 ms', 'overhead max ms', 'latency p50 ms', 'latency p99 ms', 'server CPU ms per 201'],
      [
        [
          int(loop.sent),
          int(loop.statusCodes['201'] ?? 0),
          int(loop.statusCodes['503'] ?? 0),
          other(loop.statusCodes),
          int(loop.errors),
          ms(loop.overhead.p50),
          ms(loop.overhead.p99),
          ms(loop.overhead.max),
          ms(loop.created.p50),
          ms(loop.created.p99),
          ms(((loop.cores['server'] ?? NaN) * loop.seconds * 1000) / (loop.statusCodes['201'] ?? NaN)),
        ],
      ],
    ),
  ].join('\n');
}

function coldStartSection(results: BenchResults): string {
  return [
    '## Cold start: process start to the first 201',
    '',
    table(
      ['mode', 'median ms', 'runs ms'],
      results.coldStarts.map((row) => [row.name, int(median(row.runsMs)), row.runsMs.map(int).join(', ')]),
    ),
  ].join('\n');
}

function targetsSection(results: BenchResults): string {
  return [
    '## Targets',
    '',
    table(
      ['target', 'measured', 'met'],
      checkTargets(results).map((check) => [check.target, check.measured, check.met ? 'met' : '**not met**']),
    ),
  ].join('\n');
}

/** Observations the figures need next to them, derived from the run. */
function notes(results: BenchResults): string[] {
  const out: string[] = [];
  const one = serviceRow(results, 1);
  const two = serviceRow(results, 2);
  if (two && two.processes <= 1) {
    out.push('WEB_CONCURRENCY=2 ran as a single process: the variable has no effect yet, so that row measures the same thing as WEB_CONCURRENCY=1.');
  }
  for (const row of results.throughput) {
    const s = summarise(row);
    if (s.non2xx > 0 || s.failures > 0) {
      out.push(`${row.name}: ${s.non2xx} non-2xx responses (${JSON.stringify(s.statusCodes)}) and ${s.failures} errors or timeouts; its req/s counts 2xx only.`);
    }
  }
  const baseline = summarise(baselineOf(results));
  if (baseline.loadCores >= 0.9) {
    out.push(
      `The load generator used ${baseline.loadCores.toFixed(2)} cores against the baseline: on ${results.machine.cpus} cores it competes with the server, ` +
        'so the baseline is partly bounded by the load generator and the ratios are, if anything, flattering.',
    );
  }
  if (results.machine.loadAverageAtStart > 0.5) {
    out.push(`The machine was not idle when the run began (load average ${results.machine.loadAverageAtStart.toFixed(2)}): other work may have taken CPU from the servers; compare the machine CPU column.`);
  }
  if (one && results.machine.cpus <= 2) {
    out.push(`PostgreSQL, Redis, the load generator and the server share the machine's ${results.machine.cpus} cores.`);
  }
  if (!isDurable(results.postgres)) {
    out.push('PostgreSQL ran without fsync or synchronous_commit: the figures are not those of a production database (`make bench` starts a durable one; this run was given another).');
  }
  for (const slow of [results.slowUpstream, results.embeddedBurst, results.capacity]) {
    if (slow.listenOverflows === 0) continue;
    const { service, upstream } = slow.acceptQueuePeak;
    const where = service >= 511 ? "the service's" : upstream >= 511 ? "the fake upstream's" : 'a';
    out.push(
      `${slow.listenOverflows} connections overflowed ${where} listen queue during the ${int(slow.requests)}-request burst ` +
        `(accept-queue peak ${service} at the service, ${upstream} at the upstream, against Node's default backlog of 511): ` +
        'the kernel dropped their SYNs and the clients retried after about 1 s.',
    );
  }
  if (results.settings.cpuProfile) out.push('Profiled run (`--cpu-prof`): the WEB_CONCURRENCY=1 service and the slow-upstream services ran under the CPU profiler, which slows them.');
  if (results.settings.quick) out.push('Quick mode (`--quick`): the rounds are far too short for the figures to mean anything; it only checks that the harness works.');
  return out;
}

const METHOD = [
  'req/s counts 2xx responses per second of the round. Latencies are autocannon\'s, over all responses of the round.',
  'CPU: user + system time over the round, in cores (1.00 = one core busy), from /proc: the server\'s processes, autocannon\'s process, the PostgreSQL and Redis processes (found by their listening port), and the whole machine; other = machine − the rest (the bench itself, other work).',
  'Peak RSS: VmHWM of the server process from /proc/<pid>/status, sampled every 200 ms for its whole life (startup and every round included); for several processes, the sum of their peaks.',
  `Event-loop delay: perf_hooks.monitorEventLoopDelay (resolution ${PROBE_RESOLUTION_MS} ms) inside the server, preloaded with \`node -r dist/scripts/bench/loop-delay-probe.js\`, reset just before the burst; delay = sampled interval − ${PROBE_RESOLUTION_MS} ms.`,
  'Cold start: from spawning `node dist/src/app/main.js` to the first 201 of `POST /api/v1/snap`, the account created through the admin listener as soon as it answers (both polled every 5 ms).',
  'Every process of a run (servers, load generator, fake upstream, PostgreSQL, Redis) runs on this one machine and talks over 127.0.0.1.',
];

export function renderReport(results: BenchResults): string {
  const { machine } = results;
  const observations = notes(results);
  return [
    '# Benchmark results',
    '',
    `Produced by \`make bench${results.settings.quick ? ' (--quick)' : ''}\` (scripts/bench/). Do not edit by hand: run it again.`,
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB memory; 1-minute load average at the start: ${machine.loadAverageAtStart.toFixed(2)}`,
    `- Node.js ${machine.node}; code: ${machine.commit}`,
    `- service: \`NODE_ENV=production node dist/src/app/main.js\`, PostgreSQL + Redis, embedded predictor, LOG_LEVEL=warn, RATE_LIMIT_MAX and ACCOUNT_RATE_LIMIT_MAX=100000000`,
    `- PostgreSQL: fsync=${results.postgres.fsync}, synchronous_commit=${results.postgres.synchronousCommit} (${isDurable(results.postgres) ? 'durable, as production runs it: every commit waits for the disk' : '**not durable**: commits do not wait for the disk, so their cost is hidden'})`,
    '',
    throughputSection(results),
    '',
    slowUpstreamSection(results),
    embeddedBurstSection(results),
    '',
    capacitySection(results),
    '',
    admissionSection(results),
    '',
    coldStartSection(results),
    '',
    targetsSection(results),
    '',
    ...(observations.length > 0 ? ['## Notes', '', ...observations.map((n) => `- ${n}`), ''] : []),
    '## Method',
    '',
    ...METHOD.map((m) => `- ${m}`),
    '',
  ].join('\n');
}
