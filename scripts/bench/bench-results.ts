/** Everything one bench run measured. */
import type { BenchSettings } from './bench-settings';
import type { ColdStarts } from './cold-start';
import type { Machine } from './machine';
import type { RealModelResults } from './real-model';
import type { CommitLatency, Durability } from './scratch-database';
import type { ThroughputRow } from './throughput';
import type { UpstreamPathResults } from './upstream-path';

export interface BenchResults {
  machine: Machine;
  /** The 1-minute load average when the run ended. */
  loadAverageAtEnd: number;
  /** How the PostgreSQL server of the run commits (durable: fsync and synchronous_commit on). */
  postgres: Durability;
  /** Whether pg_stat_statements counted the service's statements. */
  statementsCounted: boolean;
  settings: BenchSettings;
  commitLatency: CommitLatency;
  upstreamPath: UpstreamPathResults;
  realModel: RealModelResults;
  coldStarts: ColdStarts;
  throughput: ThroughputRow[];
}
