/** The TypeScript example (openapi-fetch on the generated types) against the live service. */
import { createSnapAndComms } from '../../examples/typescript/create-snap-and-comms';
import { createLiveAccount, expectSnapThenComms, liveService } from './support/live-service';

describe('TypeScript SDK example', () => {
  test('when it runs against the live service, then it creates a snap and a comms analysis of that snap, for one credit each', async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);

    const result = await createSnapAndComms(service.baseUrl, account.apiKey);

    await expectSnapThenComms(service, account, 5, result);
  });
});
