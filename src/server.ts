/**
 * Starts the service: services, the public listener and (with ADMIN_TOKEN) the admin
 * listener. `close()` stops accepting connections, lets requests in flight finish
 * within SHUTDOWN_TIMEOUT_SECONDS, then releases the database and Redis.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { createAdminApp } from './http/admin-app';
import { createApiApp } from './http/app';
import type { Logger } from './logger';
import { createServices, type Services } from './services';

export interface RunningServer {
  services: Services;
  /** Base URL of the public listener, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Base URL of the admin listener, when it runs. */
  adminUrl: string | undefined;
  close(): Promise<void>;
}

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const services = await createServices(config, logger);
  const api = await listen(createApiApp(config, services, logger), config.port, config.host);
  const admin = config.adminToken
    ? await listen(createAdminApp(config.adminToken, config.validateResponses, services, logger), config.adminPort, config.adminHost)
    : undefined;
  let closing: Promise<void> | undefined;
  return {
    services,
    url: urlOf(api),
    adminUrl: admin ? urlOf(admin) : undefined,
    close: () => {
      closing ??= (async () => {
        await Promise.all([api, admin].map((server) => server && drain(server, config.shutdownTimeoutSeconds * 1000)));
        await services.close();
      })();
      return closing;
    },
  };
}

async function listen(app: { listen: (port: number, host: string) => Server }, port: number, host: string): Promise<Server> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  return server;
}

/** Stops accepting, closes idle keep-alive sockets, and cuts the rest after `timeoutMs`. */
async function drain(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}

function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
