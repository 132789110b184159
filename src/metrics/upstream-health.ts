/**
 * What this process last heard from each OpenAI-compatible upstream, for `/readyz`
 * (`checks.upstream`): `failing` once its latest call ended without an answer (connection
 * refused or lost, timed out, an HTTP error) while the client was still waiting; `ok`
 * again as soon as a call gets an answer (usable or not: the server is there). Nothing is
 * sent to probe it: a probe would be a paid call.
 */
import { reportedByUpstream, type UpstreamName, type UpstreamSpend } from '../domain/ports';

export class UpstreamHealth {
  private readonly failing = new Set<UpstreamName>();

  /** A call's end; `callerGone`: its client left (or the service stopped it), which says nothing of the upstream. */
  heard(spend: UpstreamSpend, callerGone: boolean): void {
    // An estimate is the service's own count of what it sent: only a report says the server answered.
    const answered = reportedByUpstream(spend) || spend.outcome === 'success';
    if (answered) this.failing.delete(spend.upstream);
    else if (!callerGone) this.failing.add(spend.upstream);
  }

  /** Resolves while every upstream's latest call got an answer; rejects naming those whose did not. */
  async check(): Promise<void> {
    if (this.failing.size > 0) throw new Error(`the latest call to the ${[...this.failing].sort().join(' and ')} upstream got no answer`);
  }
}
