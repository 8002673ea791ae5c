import { ManualClock } from '../../libs/core/src/clock';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/**
 * Issue 32, item 2: a subscription write starts from the page's subscriptions state document, so the
 * number of events it reads does not grow with the page's subscription history; PENDING subscriptions
 * expire 7 days after their last confirmation request.
 */
const clock = new ManualClock(new Date('2026-06-01T00:00:00.000Z'));
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account('Subscribers');
});
afterAll(() => server?.close());

const key = () => ({ key: account.key });

async function page(url: string): Promise<string> {
  const response = await server.http.post('/v1/status-pages', { name: 'Acme', url, cards: [] }, key());
  expect(response.status).toBe(201);
  return response.body.id;
}

async function subscribe(pageId: string, address: string, autoVerify = false): Promise<void> {
  const response = await server.http.post(`/v1/status-pages/${pageId}/subscriptions/bulk`, { autoVerify, subscriptions: [{ type: 'EMAIL', config: address }] }, key());
  expect(response.status).toBe(201);
}

describe('the cost of a subscription write', () => {
  it('reads no more of the subscriptions stream for the 150th write than for the 5th', async () => {
    const pageId = await page('cost');
    const store = server.app.get<EventStore>(EVENT_STORE);
    const original = store.readStream.bind(store);
    let read = 0;
    const spy = jest.spyOn(store, 'readStream').mockImplementation(async (stream, options) => {
      const events = await original(stream, options);
      if (stream === `statuspage-subscriptions-${pageId}`) read += events.length;
      return events;
    });
    try {
      const readBy: number[] = [];
      for (let n = 1; n <= 150; n++) {
        read = 0;
        await subscribe(pageId, `person${n}@example.com`, n % 2 === 0);
        readBy.push(read);
      }
      // Each write folds only what its snapshot has not seen: nothing, as this process wrote every event.
      expect(readBy[149]).toBeLessThanOrEqual(readBy[4]);
      expect(Math.max(...readBy)).toBeLessThanOrEqual(1);
      read = 0;
      const list = await server.http.get(`/v1/status-pages/${pageId}/subscriptions`, key());
      expect(list.body).toHaveLength(150);
      expect(read).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('expires a PENDING subscription 7 days after its last confirmation request, and the address may sign up again', async () => {
    const pageId = await page('expiry');
    await subscribe(pageId, 'late@example.com');
    await subscribe(pageId, 'kept@example.com', true);
    const list = async () => (await server.http.get(`/v1/status-pages/${pageId}/subscriptions`, key())).body as { id: string; address: string; status: string }[];
    const [pending] = await list();
    clock.advance(7 * 24 * 3_600_000 - 60_000);
    expect((await list()).map((s) => s.address)).toEqual(['late@example.com', 'kept@example.com']);
    clock.advance(60_000);
    expect((await list()).map((s) => s.address)).toEqual(['kept@example.com']);
    await subscribe(pageId, 'LATE@example.com');
    const after = await list();
    expect(after.map((s) => [s.address, s.status])).toEqual([
      ['kept@example.com', 'VERIFIED'],
      ['LATE@example.com', 'PENDING'],
    ]);
    expect(after[1].id).not.toBe(pending.id);
  });
});
