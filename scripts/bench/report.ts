/** The bench's report: markdown, printed and written to test-output/bench/results.md. */
import type { ArrivalResult } from './arrivals';
import type { BenchResults } from './bench-results';
import { MiB, per, show, table } from './figures';
import { isDurable } from './scratch-database';
import { SERVICE_LOG_LEVEL } from './servers';
import { checkTargets, perCallKiB } from './targets';
import { summarise } from './throughput';
import { cpuMsPerCall, created, held, HELD_P99_MS, type RateRun } from './upstream-path';

/** `3 (500: 2, 503: 1)`: answers other than 201, with their statuses. */
function others(result: ArrivalResult): string {
  const parts = Object.entries(result.statusCodes).filter(([code, n]) => code !== '201' && n > 0);
  const count = parts.reduce((sum, [, n]) => sum + n, 0);
  return parts.length === 0 ? '0' : `${show(count)} (${parts.map(([code, n]) => `${code}: ${show(n)}`).join(', ')})`;
}

function rateRow(run: RateRun): string[] {
  const { result } = run;
  return [
    show(run.rate),
    show(result.sent),
    show(created(result)),
    others(result),
    show(result.errors),
    show(result.overhead.p50, 2),
    show(result.overhead.p99, 2),
    show(result.overhead.max, 2),
    show(result.created.p99, 0),
    show(cpuMsPerCall(result, 'server'), 2),
    show(cpuMsPerCall(result, 'postgres'), 2),
    show(per(run.statements, created(result)), 1),
    cores(result),
  ];
}

/** Cores the machine was busy with other work during a run: all of it but the processes the bench watched. */
function otherCores(result: ArrivalResult): number | undefined {
  const { machine, ...watched } = result.cores;
  return machine === undefined ? undefined : machine - Object.values(watched).reduce((sum, cores) => sum + cores, 0);
}

/** Cores busy during a run: the service, PostgreSQL, the load generator, the whole machine (the rest is the fake upstream, Redis, other work). */
function cores(result: ArrivalResult): string {
  return ['server', 'postgres', 'load generator', 'machine'].map((name) => show(result.cores[name], 2)).join(' / ');
}

const RATE_HEADER = [
  'req/s',
  'sent',
  '201',
  'other answers',
  'errors + timeouts',
  'overhead p50 ms',
  'overhead p99 ms',
  'overhead max ms',
  'latency p99 ms',
  'service CPU ms per call',
  'PostgreSQL CPU ms per call',
  'statements per call',
  'cores: service / PostgreSQL / load generator / machine',
];

function targetsSection(results: BenchResults): string[] {
  const checks = checkTargets(results);
  return [
    '## Targets',
    '',
    table(
      ['target', 'anchor', 'measured', 'verdict'],
      checks.map((check) => [check.target, check.anchor, check.measured, check.met ? 'met' : '**not met**']),
    ),
  ];
}

function diskSection(results: BenchResults): string[] {
  const { select, commit } = results.commitLatency;
  return [
    "## The disk's own commit latency",
    '',
    `One client, one round trip after another, ${select.count} each: \`SELECT 1\` (the round trip alone) and a one-row \`INSERT\` committed on its own (the round trip and the commit's flush: what every durable commit on a paid call's path waits for at least).`,
    '',
    table(
      ['statement', 'p50 ms', 'p99 ms', 'max ms'],
      [
        ['SELECT 1', show(select.p50, 2), show(select.p99, 2), show(select.max, 2)],
        ['INSERT, committed', show(commit.p50, 2), show(commit.p99, 2), show(commit.max, 2)],
      ],
    ),
  ];
}

function upstreamPathSection(results: BenchResults): string[] {
  const { overhead, search, memory } = results.upstreamPath;
  const { settings } = results;
  const peak = memory.peakBytes;
  return [
    `## Overhead at ${overhead.rate} req/s, upstream ${settings.upstreamDelayMs / 1000} s`,
    '',
    `A fresh one-process service, PostgreSQL and Redis, its predictor calling the fake OpenAI-compatible upstream (each answer streamed over ${settings.upstreamDelayMs} ms, a chunk of about one token at a time), provisioned for the calls in flight (\`OPENAI_MAX_SOCKETS\`, \`MAX_REQUESTS_IN_FLIGHT\`); 100 accounts; ` +
      `requests leave at a fixed rate whatever the answers (open loop), for ${overhead.seconds} s after ${settings.warmupSeconds} s of warm-up. ` +
      "Overhead: each 201's `Server-Timing` total minus upstream. CPU: the service's process and PostgreSQL's (postmaster and backends) over the run, per 201. Statements: pg_stat_statements' calls in the service's database, per 201.",
    '',
    table(RATE_HEADER, [rateRow(overhead)]),
    '',
    '## The highest fixed rate held',
    '',
    `The same service, the rate doubled from ${overhead.rate} req/s until one is not held, then the gap halved; at most ${settings.searchSteps} steps of ${settings.searchStepSeconds} s, never above ${settings.searchMaxRate} req/s, a PostgreSQL CHECKPOINT before each. ` +
      `Held: every request 201, the load generator kept the rate, overhead p99 ≤ ${HELD_P99_MS} ms.`,
    '',
    table(['held', ...RATE_HEADER], search.map((run) => [held(run) ? 'yes' : 'no', ...rateRow(run)])),
    '',
    `## Memory: ${show(memory.requests)} calls in flight on one process`,
    '',
    `A fresh service as above, in a memory cgroup of the chart's limit, 512 MiB, with the chart's NODE_OPTIONS (Node's heap sized for that limit), as a pod runs it (the kernel ends a process that goes past the limit; pod-memory-limit.ts), after a warm-up burst of ${settings.capacityWarmup}: ${show(memory.requests)} requests at once, each on its own connection, all waiting on the upstream together. Per call = (peak RSS − RSS before the burst) / 201s.`,
    '',
    table(
      ['requests', '201', 'other answers', 'errors + timeouts', 'RSS before MiB', 'peak RSS MiB', 'KiB per call in flight', 'latency p99 ms'],
      [
        [
          show(memory.requests),
          show(created(memory.result)),
          others(memory.result),
          show(memory.result.errors),
          show(memory.rssBeforeBytes === undefined ? undefined : memory.rssBeforeBytes / MiB),
          show(peak === undefined ? undefined : peak / MiB),
          show(perCallKiB(memory.result, memory.rssBeforeBytes, peak)),
          show(memory.result.created.p99),
        ],
      ],
    ),
  ];
}

function realModelSection(results: BenchResults): string[] {
  const real = results.realModel;
  const intro = '## The packaged real model\n\nllama.cpp with SmolLM2-135M (docs/local-llm.md), the service with the settings of a local CPU server; paid calls one after another. CPU per call is over the calls\' whole time (seconds each), the service\'s background work (timers, polls) included.';
  if (real.skipped) return [intro, '', `Not run: ${real.skipped}.`];
  const ok = real.calls.filter((call) => call.status === 201).length;
  return [
    intro,
    '',
    table(
      ['model', 'calls', '201', 'statuses', 'latency ms each', 'overhead ms each', 'service CPU ms per call', 'PostgreSQL CPU ms per call', 'statements per call'],
      [
        [
          real.model,
          show(real.calls.length),
          show(ok),
          real.calls.map((call) => call.status).join(', '),
          real.calls.map((call) => show(call.latencyMs)).join(', '),
          real.calls.map((call) => show(call.overheadMs, 2)).join(', '),
          show(per(real.serverCpuMs, real.calls.length), 1),
          show(per(real.postgresCpuMs, real.calls.length), 1),
          show(per(real.statements, real.calls.length), 1),
        ],
      ],
    ),
  ];
}

function coldStartSection(results: BenchResults): string[] {
  const runs = (ms: number[]) => ms.map((each) => show(each)).join(', ') || show(undefined);
  return [
    '## Cold start on PostgreSQL',
    '',
    `From spawning \`node dist/src/app/main.js\` (Redis, the fake upstream answering at once; ${results.coldStarts.compileCache ? 'its modules read from a compile cache primed as the image primes its own' : 'no compile cache: this Node has none, or this service no command to prime one'}) to its first \`POST /api/v1/snap\` answered 201. Each run has a fresh database: a first install on it empty (the start migrates it; the account is created through the admin listener as soon as it answers), then a pod replaced or scaled out, a second process on the database as the first left it (migrated, the account there: the chart migrates in a Job before the pods start).`,
    '',
    table(['start', 'runs ms'], [['a pod replaced or scaled out (the target)', runs(results.coldStarts.replacedMs)], ['a first install', runs(results.coldStarts.firstInstallMs)]]),
  ];
}

function throughputSection(results: BenchResults): string[] {
  const baseline = summarise(results.throughput[0] ?? { name: '', rounds: [] });
  return [
    '## The embedded path against bare Express (reported, no target)',
    '',
    `\`POST /api/v1/snap\` over ${results.settings.throughputConnections} connections (autocannon, closed loop), a warm-up round then ${results.settings.throughputRounds} interleaved rounds of ${results.settings.throughputRoundSeconds} s, the median round; the service on its embedded predictor (no upstream call).`,
    '',
    table(
      ['server', 'req/s (2xx)', 'ratio to bare Express', 'p50 ms', 'p99 ms', 'server CPU ms per 2xx', 'non-2xx', 'errors + timeouts'],
      results.throughput.map((row) => {
        const s = summarise(row);
        return [row.name, show(s.okPerSecond), show(per(s.okPerSecond, baseline.okPerSecond), 2), show(s.p50Ms, 1), show(s.p99Ms, 1), show(s.serverCpuMsPer2xx, 2), show(s.non2xx), show(s.failures)];
      }),
    ),
  ];
}

function notes(results: BenchResults): string[] {
  const out: string[] = [];
  const { machine } = results;
  if (results.settings.quick) out.push('Quick mode (`--quick`): far too short for the figures to mean anything; it only checks that the harness works.');
  if (!isDurable(results.postgres)) out.push('PostgreSQL ran without fsync or synchronous_commit: not a production database (`make bench` starts a durable one).');
  if (!results.statementsCounted) out.push('pg_stat_statements was not loaded on that server: no statement counts (`make bench` loads it).');
  if (machine.loadAverageAtStart > 0.5 || results.loadAverageAtEnd > 2.5) {
    out.push(`Load average ${machine.loadAverageAtStart.toFixed(2)} at the start, ${results.loadAverageAtEnd.toFixed(2)} at the end: other work may have taken CPU from the run.`);
  }
  for (const run of results.upstreamPath.search) {
    const other = otherCores(run.result);
    if (other !== undefined && other > 0.25) {
      out.push(`At ${run.rate} req/s other work took ${show(other, 2)} cores of the machine (busy cores not the service's, PostgreSQL's, Redis's, the fake upstream's or the load generator's): that row's figures are not valid.`);
    }
  }
  out.push(`The load generators, the fake upstream, PostgreSQL, Redis and the service share the machine's ${machine.cpus} cores and talk over 127.0.0.1.`);
  return out;
}

export function renderReport(results: BenchResults): string {
  const { machine, settings } = results;
  return [
    '# Benchmark results',
    '',
    `Produced by \`make bench${settings.quick ? ' (--quick)' : ''}\` (scripts/bench/). Do not edit by hand: run it again.`,
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB memory; 1-minute load average ${machine.loadAverageAtStart.toFixed(2)} at the start, ${results.loadAverageAtEnd.toFixed(2)} at the end`,
    `- Node.js ${machine.node}; service measured: ${settings.appRoot}, code ${machine.commit}`,
    `- service: \`NODE_ENV=production node dist/src/app/main.js\`, one process, PostgreSQL + Redis, LOG_LEVEL=${SERVICE_LOG_LEVEL}, RATE_LIMIT_MAX and ACCOUNT_RATE_LIMIT_MAX=100000000`,
    `- PostgreSQL: fsync=${results.postgres.fsync}, synchronous_commit=${results.postgres.synchronousCommit} (${isDurable(results.postgres) ? 'durable, as production runs it' : '**not durable**'}); statements counted: ${results.statementsCounted ? 'yes (pg_stat_statements)' : 'no'}`,
    '',
    ...targetsSection(results),
    '',
    ...diskSection(results),
    '',
    ...upstreamPathSection(results),
    '',
    ...realModelSection(results),
    '',
    ...coldStartSection(results),
    '',
    ...throughputSection(results),
    '',
    '## Notes',
    '',
    ...notes(results).map((note) => `- ${note}`),
    '',
  ].join('\n');
}
