/** The TypeScript example (openapi-fetch on the generated types) against the live service. */
import { createSnapAndComms } from '../../examples/typescript/create-snap-and-comms';
import { createLiveAccount, creditsOf, liveService } from './support/live-service';

describe('TypeScript SDK example', () => {
  test('when it runs against the live service, then it creates a snap and a comms analysis of that snap, for one credit each', async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);

    const result = await createSnapAndComms(service.baseUrl, account.apiKey);

    expect(result).toEqual({
      snapId: expect.any(Number),
      snap: expect.objectContaining({ name: 'Ada Lovelace', profile: expect.any(String), primary_code: expect.any(String) }),
      commsId: expect.any(Number),
      comms: expect.objectContaining({
        do: expect.any(Array),
        draft_analysis: expect.objectContaining({ fit_score: expect.any(Number), rewrite: expect.any(String) }),
      }),
    });
    expect(result.comms.profile).toBe(result.snap.profile);
    expect(await creditsOf(service, account.accountId)).toBe(3);
  });
});
