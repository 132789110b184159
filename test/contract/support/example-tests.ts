/**
 * The two tests every client generated from the spec passes: its snap-then-comms example
 * against the live service, directly and through a proxy that adds a field no spec names
 * to every response object (the client must ignore it).
 */
import { join } from 'node:path';
import { throughAdditiveProxy } from './additive-proxy';
import { createLiveAccount, expectSnapThenComms, liveService, PROJECT_ROOT } from './live-service';
import { run } from './run-command';

/** Runs a client's example against `baseUrl` with `apiKey`; resolves to what it printed. */
export type Example = (baseUrl: string, apiKey: string) => Promise<unknown>;

export function exampleTests(client: string, example: Example): void {
  test(`when the ${client} example runs against the live service, then it creates a snap and a comms analysis of that snap, for one credit each`, async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);
    await expectSnapThenComms(service, account, 5, await example(service.baseUrl, account.apiKey));
  });

  test(`when a proxy adds a field no spec names to every response object, then the ${client} example still works and ignores the field`, async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);
    const result = await throughAdditiveProxy(service.baseUrl, (url) => example(url, account.apiKey));
    await expectSnapThenComms(service, account, 5, result);
  });
}

/** A Python example run with the project's .venv, importing the client generated into `clientDir`. */
export function pythonExample(script: string, clientDir: string): Example {
  return async (baseUrl, apiKey) => {
    const stdout = await run(join(PROJECT_ROOT, '.venv/bin/python'), [script], {
      PYTHONPATH: join(PROJECT_ROOT, clientDir),
      PYTHONDONTWRITEBYTECODE: '1',
      PPS_BASE_URL: baseUrl,
      PPS_API_KEY: apiKey,
    });
    return JSON.parse(stdout);
  };
}
