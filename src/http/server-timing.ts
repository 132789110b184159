/**
 * Gateway overhead made visible (docs/operations.md, "Health, readiness and metrics"): every response carries
 * `Server-Timing: total;dur=…` and, when the request called its predictor,
 * `upstream;dur=…` (milliseconds, one decimal). The same clock feeds the histogram of
 * the service's own overhead per request (total minus upstream) in `/metrics`.
 *
 * `total` is measured from the moment the app first sees the request to the moment its
 * headers are written; the histogram's total runs to the last byte of the response.
 */
import type { RequestHandler, Response } from 'express';
import onHeaders from 'on-headers';
import type { UpstreamTime } from '../domain/ports';

/** When the app first saw the request (performance.now()), and its predictor's time. */
export interface RequestTiming extends UpstreamTime {
  startedAt: number;
}

export function serverTiming(): RequestHandler {
  return (req, res, next) => {
    const timing: RequestTiming = { startedAt: performance.now(), upstreamMs: undefined };
    req.timing = timing;
    onHeaders(res, function setServerTiming(this: Response) {
      this.setHeader('Server-Timing', serverTimingHeader(timing, performance.now()));
    });
    next();
  };
}

export function serverTimingHeader(timing: RequestTiming, now: number): string {
  const total = `total;dur=${(now - timing.startedAt).toFixed(1)}`;
  return timing.upstreamMs === undefined ? total : `${total}, upstream;dur=${timing.upstreamMs.toFixed(1)}`;
}

/** The service's own time for a request, in seconds: all of it but the time its predictor took. */
export function overheadSeconds(timing: RequestTiming, now: number): number {
  return Math.max(0, now - timing.startedAt - (timing.upstreamMs ?? 0)) / 1000;
}
