/**
 * What the HTTP layer is given by the composition root (src/app/services.ts): the
 * domain's ports, the rate-limit store and the metrics. The HTTP layer names these
 * interfaces; it never imports the parts that implement them.
 */
import type { Store } from 'express-rate-limit';
import type {
  AccountRepository,
  UsageReportRepository,
  CallerRepository,
  CommsRepository,
  CreditsRepository,
  FailureBudget,
  IdempotencyRepository,
  PersonalDataRepository,
  Predictor,
  SnapRepository,
  UsageRepository,
} from '../domain/ports';
import type { Metrics } from '../metrics/registry';
import type { OutageClassifier } from './error-mapper';
import type { WorkInFlight } from '../support/work-in-flight';

export interface ApiDependencies {
  callers: CallerRepository;
  credits: CreditsRepository;
  snaps: SnapRepository;
  comms: CommsRepository;
  idempotency: IdempotencyRepository;
  usage: UsageRepository;
  predictor: Predictor;
  failureBudget: FailureBudget;
  rateLimit: { store: Store };
  accountRateLimit: { store: Store };
  metrics: Metrics;
  /** True while the process shuts down: new requests are answered 503 (app/drain.ts). */
  draining?: () => boolean;
  /** Where each handler's work is counted until it settles, for the shutdown to wait on. */
  work?: WorkInFlight;
  /** Tells a database outage (answered 503) from a bug (500): the error mapper asks it. */
  isOutage: OutageClassifier;
}

export interface AdminDependencies {
  accounts: AccountRepository;
  personalData: PersonalDataRepository;
  usageReport: UsageReportRepository;
  isOutage: OutageClassifier;
}
