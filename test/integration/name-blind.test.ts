/**
 * Predictions are name-blind (docs/decisions.md, "Name-blind predictions"): through the
 * whole service, on real PostgreSQL and Redis, the same notes under six names of
 * different genders and origins, the notes naming the person too, give byte-identical
 * answers apart from the name itself,
 * with the embedded predictor (random notes, SEED printed) and with an OpenAI-compatible
 * upstream (the real `openai` client against a local fake server), whose request bodies
 * are identical whatever the name.
 */
import { bodyOf } from '../support/json';
import { createAccount, type TestAccount } from '../support/factories';
import { FAKE_UPSTREAM_SPEED, reply, startFakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION, type FakeOpenAi } from '../support/fake-openai-server';
import { seededRandom } from '../support/seeded-random';
import { startTestServer, type TestServer } from '../support/test-server';
import { SNAP_LEXICON } from '../../src/upstream/embedded/snap-lexicon';
import { PROFILE_NAMES } from '../../src/domain/profiles';

const NAMES = ['Emily Walsh', 'Oluwaseun Adeyemi', 'Mohammed Al-Farsi', 'Mei Ling Chen', 'José García', 'Priya Raghunathan'];
const FILLER = ['Joined in spring.', 'Sits near the window.', 'Has a dog.', 'Works from the Leeds office.', 'Ask about the offsite.'];

/** The answer with the name written as NAME, so that answers for different names can be compared. */
function withoutTheName(value: unknown, name: string): string {
  return JSON.stringify(value).split(name).join('NAME');
}

async function snapFor(server: TestServer, account: TestAccount, person: Record<string, string>) {
  const response = await server.post('/api/v1/snap', person, { 'x-api-key': account.apiKey });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).data;
}

async function commsFor(server: TestServer, account: TestAccount, snapId: number, draft: string) {
  const response = await server.post('/api/v1/snap/comms', { snapId, channel: 'email', goal: 'Agree the plan', ...(draft && { draft }) }, { 'x-api-key': account.apiKey });
  return { status: response.status, body: await bodyOf(response) };
}

describe('name-blind predictions: the embedded predictor', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('when random notes are sent under six names, then snaps and comms answers are byte-identical apart from the name', async () => {
    const random = seededRandom('name-blind notes');
    const pick = <T>(items: readonly T[]): T => items[random.int(0, items.length)] as T;
    const account = await createAccount(server, NAMES.length * 2 * 12);
    for (let person = 0; person < 12; person += 1) {
      const terms = Array.from({ length: random.int(0, 5) }, () => pick(SNAP_LEXICON[pick(PROFILE_NAMES)].terms).replace(/\*/gu, ''));
      // The notes name the person as notes do: by first name, last name or both.
      const template = [pick(FILLER), ...terms.map((term) => `${pick(['FIRST is', 'LAST is', 'NAME is', 'FIRST\'s manager says FIRST is', 'Known'])} known for ${term}.`)].join(' ');
      const jobType = random.next() < 0.5 ? pick(['Engineering lead', 'Nurse', 'Accountant', 'Clerk']) : undefined;
      const answers = new Set<string>();
      for (const name of NAMES) {
        const notes = template.replaceAll('FIRST', name.split(' ')[0] as string).replaceAll('LAST', name.split(' ').at(-1) as string).replaceAll('NAME', name);
        const { snapId, snapResponse } = await snapFor(server, account, { name, notes, ...(jobType && { jobType }) });
        expect(snapResponse.name).toBe(name);
        const comms = await commsFor(server, account, snapId, 'Hi, could you maybe look at the plan sometime? Thanks.');
        answers.add(withoutTheName({ snapResponse, comms: { status: comms.status, body: { ...comms.body, timestamp: null, data: comms.body.data && { ...comms.body.data, commsId: null, snapId: null } } } }, name));
      }
      expect({ template, jobType, distinctAnswers: answers.size }).toEqual({ template, jobType, distinctAnswers: 1 });
    }
  });

  test('when the issue\'s engineering lead is described under six names, then the primary is one and the same', async () => {
    const account = await createAccount(server, NAMES.length);
    const notes = 'Rebuilt the billing pipeline alone over a weekend because nobody else would decide; hates long meetings.';
    const profiles = new Set<string>();
    for (const name of NAMES) {
      const { snapResponse } = await snapFor(server, account, { name, notes, jobType: 'Engineering lead' });
      profiles.add(`${snapResponse.profile}/${snapResponse.secondary_profile}/${snapResponse.confidence}`);
      expect(snapResponse.summary === null || snapResponse.summary.includes(name)).toBe(true);
    }
    expect(profiles.size).toBe(1);
  });
});

describe('name-blind predictions: an OpenAI-compatible upstream', () => {
  let fake: FakeOpenAi;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    server = await startTestServer({ OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MODEL: 'gpt-test-mini', OPENAI_MAX_RETRIES: '0', ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '20' });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  test('when two names are sent with the same notes, naming the person, then the upstream gets identical bodies and the name comes back where the model wrote "the person"', async () => {
    const account = await createAccount(server, 4);
    const prediction = { ...UPSTREAM_PREDICTION, summary: 'The person is energetic; the person\'s team follows.' };
    const analysis = { ...UPSTREAM_ANALYSIS, summary: 'Give the person the data first.', draft_analysis: null };
    const bodies: string[] = [];
    for (const name of ['Ada Lovelace', 'Kwame Mensah']) {
      fake.reset();
      fake.script(reply(prediction), reply(analysis));
      const first = name.split(' ')[0] as string;
      const notes = `${first} starts new projects every quarter; ${name}'s manager agrees.`;
      const { snapId, snapResponse } = await snapFor(server, account, { name, notes, jobType: 'Product manager' });
      expect(snapResponse.summary).toBe(`${name} is energetic; ${name}'s team follows.`);
      const comms = await commsFor(server, account, snapId, '');
      expect(comms.body.data.commsResponse.summary).toBe(`Give ${name} the data first.`);
      bodies.push(JSON.stringify(fake.requests.map((request) => request.body)));
      expect(bodies.at(-1)).not.toContain(name.split(' ')[0]);
    }
    expect(bodies[1]).toBe(bodies[0]);
  });

  test('when the model\'s comms summary is three words with "the person", then a one-word and a two-word name both get it, charged', async () => {
    const account = await createAccount(server, 4);
    const analysis = { ...UPSTREAM_ANALYSIS, summary: 'Reassure the person.', draft_analysis: null };
    const answered: unknown[] = [];
    for (const name of ['Ada', 'Ada Lovelace']) {
      fake.reset();
      fake.script(reply(UPSTREAM_PREDICTION), reply(analysis));
      const { snapId } = await snapFor(server, account, { name, notes: 'Starts new projects every quarter.', jobType: 'Product manager' });
      const comms = await commsFor(server, account, snapId, '');
      answered.push([comms.status, comms.body.data?.commsResponse.summary]);
    }
    expect(answered).toEqual([
      [201, 'Reassure Ada.'],
      [201, 'Reassure Ada Lovelace.'],
    ]);
  });
});
