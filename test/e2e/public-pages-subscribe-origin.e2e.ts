import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createPage, postForm } from './public-pages-fixtures';

/** Issue 32, item 10: the subscribe form refuses posts another site makes a browser send, and is limited per address. */
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account('Origins');
});
afterAll(() => server?.close());

const subscribers = async (pageId: string) => (await server.http.get(`/v1/status-pages/${pageId}/subscriptions`, { key: account.key })).body as { address: string }[];

describe('the subscribe form and cross-site posts', () => {
  it('refuses a cross-site post by Sec-Fetch-Site or Origin with 403 and subscribes nobody', async () => {
    const page = await createPage(server, account, 'origins');
    const path = `/status/${page.url}/subscribe`;
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }, { origin: 'null' }];
    for (const headers of crossSite) {
      const response = await postForm(server, path, { email: 'victim@example.com' }, headers);
      expect([headers, response.status]).toEqual([headers, 403]);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('Subscribe on the status page');
    }
    expect(await subscribers(page.pageId)).toEqual([]);

    const own = new URL(server.url).host;
    const sameOrigin = await postForm(server, path, { email: 'reader@example.com' }, { 'sec-fetch-site': 'same-origin', origin: `http://${own}` });
    expect(sameOrigin.status).toBe(200);
    expect((await postForm(server, path, { email: 'typed@example.com' }, { 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await postForm(server, path, { email: 'curl@example.com' }, { origin: `http://${own}` })).status).toBe(200);
    expect((await subscribers(page.pageId)).map((s) => s.address)).toEqual(['reader@example.com', 'typed@example.com', 'curl@example.com']);
  });

  it('limits the posts of one client address to 5 in 10 minutes', async () => {
    const page = await createPage(server, account, 'origins-limit');
    const path = `/status/${page.url}/subscribe`;
    // Three posts above already count for this address; the limit is 5 per 10 minutes.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await postForm(server, path, { email: `n${i}@example.com` })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});
