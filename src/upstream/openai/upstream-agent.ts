/**
 * The connections to one upstream: an undici `Agent` handed to the SDK as the dispatcher
 * of undici's `request` behind the SDK's `fetch` (request-fetch.ts; docs/upstream.md, "Transport"). Everything here is an option
 * of undici's public API:
 * - at most `maxSockets` sockets to the upstream; calls beyond them wait in undici's
 *   queue, and the time each waited is reported (`onSent`), not charged to its attempt;
 * - sockets kept alive between calls and closed after `keepAliveTimeoutMs` idle;
 * - an answer larger than `maxResponseBytes` fails, on the wire (`maxResponseSize`) and,
 *   when compressed, once decoded (the `decompress` interceptor's `maxSize`, error
 *   answers included, so that fetch never decodes an unbounded body itself);
 * - each attempt's bound (`headersTimeout`, `bodyTimeout`) starts when it is written
 *   to its socket, so a call that waited for a socket or for a busy event loop still has
 *   its whole attempt bound once sent.
 * test/unit/upstream/openai/upstream-agent.test.ts checks each through the real client.
 */
import { Agent, interceptors, type Dispatcher } from 'undici';

/**
 * Above any answer within the output-token bounds: a streamed answer repeats its chunk's
 * envelope (id, model, ~200 to 250 bytes) for each token, so the largest bound accepted
 * (128,000 tokens with a reasoning effort) streams about 32 MB at 250 bytes a token.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Below the 5 s idle timeout of Node's and most servers' keep-alive: we close first. */
export const KEEP_ALIVE_TIMEOUT_MS = 4_000;

export interface UpstreamAgentOptions {
  maxSockets: number;
  keepAliveTimeoutMs?: number;
  maxResponseBytes?: number;
}

/** The agent's sockets and calls right now, summed over its origins. */
export interface SocketCounts {
  /** Open sockets. */
  connected: number;
  /** Calls sent and not yet answered. */
  running: number;
  /** Calls waiting for a socket. */
  queued: number;
}

export class UpstreamAgent {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;

  constructor(options: UpstreamAgentOptions) {
    const maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.agent = new Agent({
      connections: options.maxSockets,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
      maxResponseSize: maxResponseBytes,
    });
    this.dispatcher = this.agent.compose(interceptors.decompress({ maxSize: maxResponseBytes, skipErrorResponses: false }));
  }

  /**
   * The dispatcher of one HTTP attempt: `attemptTimeoutMs` for the headers and again
   * between body chunks, counted from when the request is written to a socket;
   * `onSent` hears when that happens (once).
   */
  forAttempt(attemptTimeoutMs: number, onSent: () => void): Dispatcher {
    return this.dispatcher.compose(
      (dispatch) => (options, handler) =>
        dispatch({ ...options, headersTimeout: attemptTimeoutMs, bodyTimeout: attemptTimeoutMs }, new SentWatcher(handler, onSent)),
    );
  }

  counts(): SocketCounts {
    const counts: SocketCounts = { connected: 0, running: 0, queued: 0 };
    for (const stats of Object.values(this.agent.stats)) {
      counts.connected += Number(stats.connected);
      counts.running += stats.running;
      counts.queued += stats.pending;
    }
    return counts;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Passes every event on; tells `onSent` the first time the request leaves the queue. */
class SentWatcher implements Dispatcher.DispatchHandler {
  private sent = false;

  constructor(
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly onSent: () => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    if (!this.sent) {
      this.sent = true;
      this.onSent();
    }
    this.handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    this.handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    this.handler.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>): void {
    this.handler.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    this.handler.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseError']>>): void {
    this.handler.onResponseError?.(...args);
  }
}
