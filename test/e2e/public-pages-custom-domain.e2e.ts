import { request } from 'node:http';
import dns2 from 'dns2';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createPage, proveDomain } from './public-pages-fixtures';

/**
 * Issue 32, item 6: a custom domain serves its page only once the owner has proven it (the HTTP token served by
 * a real HTTP server, or a TXT record on a real DNS server Vigil is pointed at), loses it when a re-check finds
 * the proof gone, and is never Vigil's own host.
 */
let server: TestServer;
let account: TestAccount;
let dnsServer: ReturnType<typeof dns2.createServer>;
/** The TXT records the DNS server answers, by lower-case name; every other name has none. */
const txt = new Map<string, string[]>();

beforeAll(async () => {
  dnsServer = dns2.createServer({
    udp: true,
    handle: (query, send) => {
      const response = dns2.Packet.createResponseFromRequest(query);
      const question = query.questions[0];
      for (const data of txt.get(question.name.toLowerCase()) ?? []) {
        response.answers.push({ name: question.name, type: dns2.Packet.TYPE.TXT, class: dns2.Packet.CLASS.IN, ttl: 1, data } as never);
      }
      send(response);
    },
  });
  await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const dnsPort = (dnsServer.addresses().udp as { port: number }).port;
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_PUBLIC_URL: 'https://vigil.example.com', VIGIL_DNS_SERVERS: `127.0.0.1:${dnsPort}` } });
  account = await server.account('Domains');
});
afterAll(async () => {
  await server?.close();
  await dnsServer?.close();
});

/** GET / with this Host header (fetch would not send one of its own choosing). */
function byHost(host: string): Promise<{ status: number }> {
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: '/', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page's Statuspage JSON and its feeds name the page by its public URL: a custom domain only once proven. */
async function expectLinksTo(pageUrl: string): Promise<void> {
  const summary = await server.http.get('/status/proven/api/v2/summary.json', { headers: {} });
  expect(summary.body.page.url).toBe(pageUrl);
  const rss = await server.http.get('/status/proven/history.rss', { headers: {} });
  expect(rss.text).toContain(`<atom:link href="${pageUrl}/history.rss" rel="self"`);
}

describe('custom domains', () => {
  it('answer only after the owner proves the domain, and stop when the proof is gone', async () => {
    const page = await createPage(server, account, 'proven', { customDomain: 'Status.Proven.test' });
    const created = await server.http.get(`/v1/status-pages/${page.pageId}`, { key: account.key });
    const verification = created.body.customDomainVerification;
    expect(verification.status).toBe('PENDING');
    // Issue 33, item 12: the public URL is Vigil's own until the domain is proven.
    expect(created.body.publicUrl).toBe('https://vigil.example.com/status/proven');
    expect(verification.dns).toEqual({ type: 'TXT', name: '_vigil-challenge.status.proven.test', value: `vigil-domain-verification=${verification.http.body}` });
    expect(verification.http.url).toBe('http://status.proven.test/.well-known/vigil-domain-verification');
    expect(verification.http.body).toMatch(/^[\w-]{43}$/);
    expect((await byHost('status.proven.test')).status).toBe(404);
    expect((await server.http.get('/status/proven', { headers: {} })).status).toBe(200);
    await expectLinksTo('https://vigil.example.com/status/proven');

    // A wrong token proves nothing.
    expect((await proveDomain(server, account, page.pageId, () => 'not-the-token')).body.customDomainVerification.status).toBe('PENDING');
    expect((await byHost('status.proven.test')).status).toBe(404);

    const proven = await proveDomain(server, account, page.pageId);
    expect(proven.status).toBe(200);
    expect(proven.body.customDomainVerification.status).toBe('VERIFIED');
    expect(proven.body.publicUrl).toBe('https://status.proven.test');
    expect((await byHost('status.proven.test')).status).toBe(200);
    await expectLinksTo('https://status.proven.test');

    // A re-check that no longer finds the proof takes the domain away.
    const lost = await proveDomain(server, account, page.pageId, () => null);
    expect(lost.body.customDomainVerification.status).toBe('PENDING');
    expect(lost.body.publicUrl).toBe('https://vigil.example.com/status/proven');
    expect((await byHost('status.proven.test')).status).toBe(404);
    await expectLinksTo('https://vigil.example.com/status/proven');
  });

  it('is proven by a TXT record on the name servers Vigil asks, and lost when the record goes', async () => {
    const page = await createPage(server, account, 'by-dns', { customDomain: 'status.dns-proven.test' });
    const check = () => server.http.post(`/v1/status-pages/${page.pageId}/custom-domain/check`, {}, { key: account.key });
    const { dns } = (await server.http.get(`/v1/status-pages/${page.pageId}`, { key: account.key })).body.customDomainVerification;
    expect(dns.name).toBe('_vigil-challenge.status.dns-proven.test');

    // Another page's record, or the value at another name, proves nothing.
    txt.set('_vigil-challenge.status.dns-proven.test', ['vigil-domain-verification=someone-else']);
    txt.set('status.dns-proven.test', [dns.value]);
    expect((await check()).body.customDomainVerification.status).toBe('PENDING');
    expect((await byHost('status.dns-proven.test')).status).toBe(404);

    // The right record beside others (as domains often carry several TXT records).
    txt.set(dns.name, ['v=spf1 -all', dns.value]);
    const proven = await check();
    expect(proven.body.customDomainVerification.status).toBe('VERIFIED');
    expect((await byHost('status.dns-proven.test')).status).toBe(200);

    txt.delete(dns.name);
    expect((await check()).body.customDomainVerification.status).toBe('PENDING');
    expect((await byHost('status.dns-proven.test')).status).toBe(404);
  });

  it('a changed domain needs its own proof; the token belongs to the page and the domain', async () => {
    const page = await createPage(server, account, 'moving', { customDomain: 'old.moving.test' });
    const oldToken = (await proveDomain(server, account, page.pageId)).body.customDomainVerification.http.body;
    expect((await byHost('old.moving.test')).status).toBe(200);
    const current = (await server.http.get(`/v1/status-pages/${page.pageId}`, { key: account.key })).body;
    const moved = await server.http.put(
      `/v1/status-pages/${page.pageId}`,
      { name: current.name, url: current.url, customDomain: 'new.moving.test', cards: current.cards.map((c: { name: string; services: { id: string }[] }) => ({ name: c.name, services: c.services.map((s) => ({ id: s.id })) })) },
      { key: account.key },
    );
    expect(moved.status).toBe(200);
    expect(moved.body.customDomainVerification.status).toBe('PENDING');
    expect(moved.body.customDomainVerification.http.body).not.toBe(oldToken);
    expect((await byHost('new.moving.test')).status).toBe(404);
    expect((await byHost('old.moving.test')).status).toBe(404);
  });

  it("refuses Vigil's own host as a custom domain", async () => {
    const response = await server.http.post('/v1/status-pages', { name: 'Mine', url: 'own-host', customDomain: 'VIGIL.example.com', cards: [] }, { key: account.key });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ path: 'customDomain' })]);
  });
});
