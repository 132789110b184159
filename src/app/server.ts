/**
 * Starts the service: services, the public listener and the admin listener (health,
 * readiness and metrics always; the admin API with ADMIN_TOKEN). `close()` drains both
 * listeners (drain.ts: stops accepting, answers every connection already accepted, lets
 * requests in flight finish within SHUTDOWN_TIMEOUT_SECONDS), then releases the database
 * and Redis.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config/config';
import { createAdminApp } from '../http/admin-app';
import { createApiApp } from '../http/app';
import type { Logger } from '../support/logger';
import { ConnectionDrain } from './drain';
import { checkReadiness, readinessProbes } from './readiness';
import { createServices, type Services } from './services';
import { WorkInFlight } from '../support/work-in-flight';

/** How long a shutdown waits, once the connections are closed, for handlers still settling: a few statements (the chart's grace period leaves 10 s past the drain). */
const SETTLE_AFTER_DRAIN_MS = 5000;

export interface RunningServer {
  services: Services;
  /** Base URL of the public listener, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Base URL of the admin listener (ops endpoints; the admin API too with ADMIN_TOKEN). */
  adminUrl: string;
  close(): Promise<void>;
}

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const services = await createServices(config, logger);
  const [apiDrain, adminDrain] = [new ConnectionDrain(), new ConnectionDrain()];
  const work = new WorkInFlight();
  const api = await listen(await createApiApp(config, { ...services, draining: apiDrain.isDraining, work }, logger), apiDrain, config.port, config.host, config.requestTimeoutSeconds);
  const probes = readinessProbes(services);
  const ops = {
    readiness: () => checkReadiness(probes, { onFailure: (check, err) => logger.warn({ check, err: String(err) }, 'readiness check failed') }),
    metrics: services.metrics.registry,
    logger,
  };
  const accountRateLimits = { limit: config.accountRateLimitMax, windowSeconds: config.rateLimitWindowSeconds };
  const adminApp = createAdminApp(config.adminToken, config.validateResponses, services, logger, ops, accountRateLimits, config.adminTokenFailuresPerMinute);
  const admin = await listen(adminApp, adminDrain, config.adminPort, config.adminHost, config.requestTimeoutSeconds);
  let closing: Promise<void> | undefined;
  return {
    services,
    url: urlOf(api),
    adminUrl: urlOf(admin),
    close: () => {
      closing ??= (async () => {
        await Promise.all([apiDrain, adminDrain].map((drain) => drain.drain(config.timeBudget.shutdownMs)));
        // A call whose client left is still settling (usage recorded, hold and key released): it finishes before the database closes.
        await work.settled(SETTLE_AFTER_DRAIN_MS);
        await services.close();
      })();
      return closing;
    },
  };
}

/**
 * Node's default listen backlog (511) overflows when a thousand clients connect at
 * once, and each refused SYN costs its client a second; the kernel caps this at
 * net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

/**
 * How long an idle connection is kept: longer than the proxies in front keep theirs
 * (ingress-nginx's upstream keep-alive and AWS ALB's idle timeout: 60 s). With Node's
 * default of 5 s the service closed a connection the proxy still held, and a request the
 * proxy sent on it as it closed got a 502, which a proxy does not retry for a POST. A
 * shutdown still closes idle connections at once (drain.ts).
 */
const KEEP_ALIVE_SECONDS = 65;

/**
 * Node's HTTP server answers a request that has not fully arrived within
 * `requestTimeoutSeconds` (headers within the same bound) with a bare `408` and closes the
 * connection (the spec documents it). It checks every connection on an interval, a tenth
 * of the timeout here (Node's default interval, 30 s, would double a 30 s timeout). A
 * request that has arrived is not cut: a paid call runs as long as its upstream bound.
 * An idle connection is kept KEEP_ALIVE_SECONDS.
 */
async function listen(app: Express, drain: ConnectionDrain, port: number, host: string, requestTimeoutSeconds: number): Promise<Server> {
  const requestTimeout = requestTimeoutSeconds * 1000;
  const options = { requestTimeout, headersTimeout: requestTimeout, keepAliveTimeout: KEEP_ALIVE_SECONDS * 1000, connectionsCheckingInterval: Math.max(100, requestTimeout / 10) };
  const server = createServer(options, (req, res) => void app(originForm(req), res));
  drain.attach(server);
  server.listen({ port, host, backlog: LISTEN_BACKLOG });
  await once(server, 'listening');
  return server;
}

/**
 * A request line in absolute form (`POST http://host/api/v1/snap`, which HTTP/1.1 servers
 * must accept) as its origin form, before Express sees it: Express routes it by its path
 * but keeps the scheme and host in front of every mounted router's URL, and the spec
 * validator reads the URL as sent, so it was a 404. One that is no URL stays as it is.
 */
function originForm(req: IncomingMessage): IncomingMessage {
  const absolute = /^https?:\/\//i.test(req.url ?? '') ? URL.parse(req.url ?? '') : null;
  if (absolute) req.url = `${absolute.pathname}${absolute.search}`;
  return req;
}

function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
