/**
 * GET /metrics in cluster mode: whichever worker is asked, the answer covers every
 * worker. The worker asks the primary over IPC; the primary collects each ready
 * worker's registry as JSON and sums them with prom-client's AggregatorRegistry
 * (counters and histograms add up; the default process metrics use their own rules).
 * Only ready workers are asked, so a worker still starting cannot stall a scrape.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { MetricsExposition } from './exposition';

/** worker → primary: "the cluster's metrics, please"; primary → worker: the text. */
const REQUEST = 'pps:metrics:request';
const RESULT = 'pps:metrics:result';
/** primary → worker: "your registry, please"; worker → primary: its JSON. */
const COLLECT = 'pps:metrics:collect';
const COLLECTED = 'pps:metrics:collected';

interface Message {
  type: string;
  id: number;
  text?: string;
  metrics?: object[];
  error?: string;
}

function isMessage(value: unknown, type: string): value is Message {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type && typeof (value as { id?: unknown }).id === 'number';
}

/** In a worker: answers the primary's collections, and asks it for the whole cluster's text. */
export function clusterExposition(registry: Registry, timeoutMs = 5000): MetricsExposition {
  const waiting = new Map<number, (reply: Message) => void>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (isMessage(message, COLLECT)) {
      registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: COLLECTED, id: message.id, metrics }),
        (err: unknown) => process.send?.({ type: COLLECTED, id: message.id, error: String(err) }),
      );
    } else if (isMessage(message, RESULT)) {
      waiting.get(message.id)?.(message);
    }
  });
  return {
    contentType: registry.contentType,
    text: () => {
      const id = nextId++;
      return request(waiting, id, timeoutMs, 'the cluster primary', () => process.send?.({ type: REQUEST, id })).then((reply) => reply.text ?? '');
    },
  };
}

/** In the primary: serves the workers' requests for the whole cluster's metrics. */
export function serveClusterMetrics(readyWorkers: () => Worker[], timeoutMs = 3000): void {
  const waiting = new Map<number, (reply: Message) => void>();
  let nextId = 0;
  const collectFrom = (worker: Worker): Promise<object[]> => {
    const id = nextId++;
    return request(waiting, id, timeoutMs, `worker ${worker.id}`, () => worker.send({ type: COLLECT, id })).then((reply) => reply.metrics ?? []);
  };
  const aggregate = async (): Promise<string> => {
    const perWorker = await Promise.all(readyWorkers().map(collectFrom));
    return AggregatorRegistry.aggregate(perWorker).metrics();
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage(message, COLLECTED)) {
      waiting.get(message.id)?.(message);
    } else if (isMessage(message, REQUEST)) {
      const { id } = message;
      aggregate().then(
        (text) => worker.isConnected() && worker.send({ type: RESULT, id, text }),
        (err: unknown) => worker.isConnected() && worker.send({ type: RESULT, id, error: err instanceof Error ? err.message : String(err) }),
      );
    }
  });
}

/** Sends with `send`, then waits for the reply with this id, or fails after `timeoutMs`. */
function request(waiting: Map<number, (reply: Message) => void>, id: number, timeoutMs: number, peer: string, send: () => void): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`no metrics from ${peer} within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.set(id, (reply) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (reply.error !== undefined) reject(new Error(reply.error));
      else resolve(reply);
    });
    try {
      send();
    } catch (err) {
      waiting.delete(id);
      clearTimeout(timer);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
