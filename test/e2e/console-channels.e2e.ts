import { QueryBus } from '@nestjs/cqrs';
import { AlertingQuery } from '../../libs/alerting/src/alerting.api';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, Receiver, startReceiver } from './alerting-receivers';
import { formAsShown } from './console-form-reader';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The console's alert channels over real HTTP: create and edit per type, secrets masked, test send, delivery log, retry, roles. */
let server: TestServer;
let account: TestAccount;
let receiver: Receiver;
let writer: string;
let viewer: string;
let checkId: string;

const SECRET = `whsec_${Buffer.from('console-test-signing-key-0123456789').toString('base64')}`;
const TOKEN = 'Bearer tok-0123456789abcdefghij';
const channels = async () => (await server.http.get('/v1/alert-channels?limit=100', { key: account.key })).body.entries as { id: string; config: Record<string, unknown> }[];
const settings = (id: string) => server.app.get(QueryBus).execute(new AlertingQuery({ type: 'AlertChannelSettings', accountId: account.id, id }));

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'on', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
  account = await server.account('Ops');
  writer = await signedInMember(server, 'wes@example.com', account.id, 'READ_WRITE');
  viewer = await signedInMember(server, 'rae@example.com', account.id, 'READ_ONLY');
  checkId = (await server.http.post('/v1/checks/heartbeat', { name: 'nightly-backup', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }, { key: account.key })).body.id;
});

afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe('creating a channel', () => {
  it('a form with mistakes writes nothing and keeps what was typed, each error beside its field', async () => {
    const page = await consoleRequest(server, 'GET', '/console/alert-channels/new?type=WEBHOOK', { cookie: writer });
    expect(page.status).toBe(200);
    const before = (await channels()).length;
    const answer = await consoleRequest(server, 'POST', '/console/alert-channels?type=WEBHOOK', {
      cookie: writer,
      form: { csrf: csrfOf(page.text), name: 'Ops <hook>', url: 'ftp://example.com/x', method: 'POST', webhookType: 'WEBHOOK', headers: 'no separator here', template: '{{#if}}', sslExpiryThreshold: '31', webhookSecret: 'typed-secret-value' },
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('id="url-error"');
    expect(answer.text).toContain('id="headers-error">Line 1: write one per line as name: value.');
    expect(answer.text).toContain('id="template-error"');
    expect(answer.text).toContain('id="sslExpiryThreshold-error">SslExpiryThreshold must be an integer from 1 to 30.');
    expect(answer.text).toContain('value="Ops &lt;hook&gt;"');
    expect(answer.text).toContain('>no separator here</textarea>');
    expect(answer.text).not.toContain('typed-secret-value');
    expect(answer.text).toContain('id="webhookSecret-error">Enter it again: a secret you type is never shown back.');
    expect((await channels()).length).toBe(before);
  });

  it('creates a webhook with its kind, headers, template and secret, alerting for a check; the page shows secrets masked only', async () => {
    const page = await consoleRequest(server, 'GET', '/console/alert-channels/new?type=WEBHOOK', { cookie: writer });
    const created = await consoleRequest(server, 'POST', '/console/alert-channels?type=WEBHOOK', {
      cookie: writer,
      form: {
        csrf: csrfOf(page.text),
        name: 'Ops hook',
        url: `${receiver.url}/hook`,
        method: 'PUT',
        webhookType: 'WEBHOOK',
        headers: `Authorization: ${TOKEN}\nX-Team: ops`,
        queryParameters: 'source=vigil',
        template: '{"title":"{{ALERT_TITLE}}"}',
        webhookSecret: SECRET,
        sendFailure: 'on',
        sendRecovery: 'on',
        sslExpiryThreshold: '14',
        [`check-${checkId}`]: 'on',
      },
    });
    expect(created.status).toBe(303);
    const id = /^\/console\/alert-channels\/([0-9a-f-]{36})\?notice=created$/.exec(created.location!)![1];
    const stored = await settings(id);
    expect(stored).toMatchObject({ type: 'WEBHOOK', sendDegraded: false, sslExpiryThreshold: 14, config: { method: 'PUT', webhookSecret: SECRET, template: '{"title":"{{ALERT_TITLE}}"}', queryParameters: [{ key: 'source', value: 'vigil' }] } });
    expect((await server.http.get(`/v1/checks/${checkId}`, { key: account.key })).body.alertChannelSubscriptions).toEqual([{ alertChannelId: id, activated: true }]);

    const shown = await consoleRequest(server, 'GET', created.location!, { cookie: writer });
    expect(shown.text).toContain('Channel created.');
    expect(shown.text).not.toContain(SECRET);
    expect(shown.text).not.toContain(TOKEN);
    expect(shown.text).toContain('Authorization: ********ghij');
    const list = await consoleRequest(server, 'GET', '/console/alert-channels', { cookie: writer });
    expect(list.text).toContain(`/console/alert-channels/${id}">Ops hook</a>`);
    expect(list.text).toContain('1 checks');
  });

  it('saving the form as shown keeps the stored secrets; a changed field is saved', async () => {
    const [channel] = (await channels()).filter((c) => c.config.name === 'Ops hook');
    const page = await consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: writer });
    const form = formAsShown(page.text, `/console/alert-channels/${channel.id}`);
    expect(form.webhookSecret).toMatch(/^\*{8}/);
    const saved = await consoleRequest(server, 'POST', `/console/alert-channels/${channel.id}`, { cookie: writer, form: { ...form, method: 'POST' } });
    expect(saved).toMatchObject({ status: 303, location: `/console/alert-channels/${channel.id}?notice=saved` });
    const stored = await settings(channel.id);
    expect(stored).toMatchObject({ config: { method: 'POST', webhookSecret: SECRET, headers: [{ key: 'Authorization', value: TOKEN }, { key: 'X-Team', value: 'ops' }] } });

    // Another target with the stored secret's mask: the secret must be typed again; nothing is saved.
    const moved = await consoleRequest(server, 'POST', `/console/alert-channels/${channel.id}`, { cookie: writer, form: { ...form, url: `${receiver.url}/elsewhere`, name: 'Renamed' } });
    expect(moved.status).toBe(400);
    expect(moved.text).toMatch(/id="webhookSecret-error">WebhookSecret is the masked stored value/);
    expect(moved.text).toContain('value="Renamed"');
    expect(await settings(channel.id)).toEqual(stored);
  });

  it('creates each other type from its own form', async () => {
    const forms: Record<string, Record<string, string>> = {
      EMAIL: { address: 'oncall@example.com' },
      SLACK: { url: `${receiver.url}/slack/T0/B0/XYZ`, channel: '#ops' },
      PAGERDUTY: { serviceKey: 'pd-routing-key-0123456789abcdef', serviceName: 'ops' },
      OPSGENIE: { apiKey: 'og-key-0123456789abcdef', region: 'EU', priority: 'P2', name: 'Ops team' },
    };
    for (const [type, fields] of Object.entries(forms)) {
      const page = await consoleRequest(server, 'GET', `/console/alert-channels/new?type=${type}`, { cookie: writer });
      const answer = await consoleRequest(server, 'POST', `/console/alert-channels?type=${type}`, { cookie: writer, form: { csrf: csrfOf(page.text), sendFailure: 'on', sslExpiryThreshold: '30', ...fields } });
      expect([type, answer.status]).toEqual([type, 303]);
    }
    const types = (await channels()).map((c) => (c as unknown as { type: string }).type).sort();
    expect(types).toEqual(['EMAIL', 'OPSGENIE', 'PAGERDUTY', 'SLACK', 'WEBHOOK']);
    expect((await consoleRequest(server, 'GET', '/console/alert-channels/new?type=SMS', { cookie: writer })).status).toBe(400);
  });
});

describe('test send, delivery log and retry', () => {
  it('a test send shows in the delivery log; a refused delivery is FAILED and its retry is sent', async () => {
    const [channel] = (await channels()).filter((c) => c.config.name === 'Ops hook');
    const page = await consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: writer });
    receiver.script.push(400);
    const test = await consoleRequest(server, 'POST', `/console/alert-channels/${channel.id}/test`, { cookie: writer, form: { csrf: csrfOf(page.text) } });
    expect(test).toMatchObject({ status: 303, location: `/console/alert-channels/${channel.id}?notice=test` });
    const failed = await eventually(() => consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: writer }), (p) => p.text.includes('s-FAILED'), 15_000);
    expect(failed.text).toContain('ALERT_TEST');
    const retryAction = /action="(\/console\/alert-channels\/[0-9a-f-]{36}\/deliveries\/[0-9a-f-]{36}\/retry)"/.exec(failed.text)![1];
    expect(await consoleRequest(server, 'POST', retryAction, { cookie: viewer, form: { csrf: csrfOf(failed.text) } })).toMatchObject({ status: 403 });
    const retried = await consoleRequest(server, 'POST', retryAction, { cookie: writer, form: { csrf: csrfOf(failed.text) } });
    expect(retried.status).toBe(303);
    const sent = await eventually(() => consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: writer }), (p) => p.text.includes('s-SENT'), 15_000);
    expect(sent.text).not.toContain('s-FAILED');
    expect(receiver.requests.filter((r) => r.path.startsWith('/hook')).length).toBe(2);
    const events = await server.app.get<EventStore>(EVENT_STORE).readStream(`alertchannel-${channel.id}`);
    const retry = events.find((e) => e.type === 'AlertChannelDeliveryRetried')!;
    expect(JSON.stringify(retry.metadata)).toContain('wes@example.com');
  });

  it('pages the log 20 at a time, older pages by link', async () => {
    const [channel] = (await channels()).filter((c) => c.config.name === 'Ops hook');
    const page = await consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: writer });
    for (let i = 0; i < 20; i++) await consoleRequest(server, 'POST', `/console/alert-channels/${channel.id}/test`, { cookie: writer, form: { csrf: csrfOf(page.text) } });
    const first = await eventually(() => consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: writer }), (p) => p.text.includes('Older deliveries'));
    expect(first.text.match(/<span class="state s-/g)!.length).toBe(20);
    const older = /href="(\/console\/alert-channels\/[^"]+before=[^"]+)"/.exec(first.text)![1].replace(/&amp;/g, '&');
    const second = await consoleRequest(server, 'GET', older, { cookie: writer });
    expect(second.status).toBe(200);
    expect(second.text.match(/<span class="state s-/g)!.length).toBe(1);
    expect(second.text).not.toContain('Older deliveries');
    expect((await consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}?before=junk`, { cookie: writer })).status).toBe(400);
  });
});

describe('roles and forged posts', () => {
  it('a READ_ONLY member sees channels and their log, no actions; forged posts are refused and write nothing', async () => {
    const [channel] = (await channels()).filter((c) => c.config.name === 'Ops hook');
    const list = await consoleRequest(server, 'GET', '/console/alert-channels', { cookie: viewer });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('Add a channel');
    const page = await consoleRequest(server, 'GET', `/console/alert-channels/${channel.id}`, { cookie: viewer });
    expect(page.text).toContain('Delivery log');
    expect(page.text).not.toMatch(/Send a test alert|Save channel|>Retry</);
    const before = JSON.stringify(await channels());
    const csrf = csrfOf(page.text);
    for (const path of ['/console/alert-channels?type=EMAIL', `/console/alert-channels/${channel.id}`, `/console/alert-channels/${channel.id}/test`]) {
      const forged = await consoleRequest(server, 'POST', path, { cookie: viewer, form: { csrf, address: 'x@example.com', name: 'Forged', url: `${receiver.url}/x` } });
      expect([path, forged.status]).toEqual([path, 403]);
    }
    const crossSite = await consoleRequest(server, 'POST', `/console/alert-channels/${channel.id}/test`, { cookie: writer, form: { csrf }, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(JSON.stringify(await channels())).toBe(before);
  });

  it('another account\'s channel or a malformed id is a 404', async () => {
    const other = await server.account('Other');
    const foreign = (await server.http.post('/v1/alert-channels', { type: 'EMAIL', config: { address: 'a@example.com' } }, { key: other.key })).body.id;
    expect((await consoleRequest(server, 'GET', `/console/alert-channels/${foreign}`, { cookie: writer })).status).toBe(404);
    expect((await consoleRequest(server, 'GET', '/console/alert-channels/nope', { cookie: writer })).status).toBe(404);
  });
});

describe('an account with more checks than a form lists', () => {
  it('lists 50 checks by name plus the chosen ones, with a note; saving as shown keeps a subscription not listed', async () => {
    for (let i = 0; i < 60; i++) await server.http.post('/v1/checks/heartbeat', { name: `aa-bulk-${String(i).padStart(2, '0')}`, heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }, { key: account.key });
    const boxes = (html: string) => [...html.matchAll(/<input type="checkbox" id="chk-([0-9a-f-]{36})"/g)].map((m) => m[1]);
    const blank = await consoleRequest(server, 'GET', '/console/alert-channels/new?type=WEBHOOK', { cookie: writer });
    expect(boxes(blank.text)).toHaveLength(50);
    expect(boxes(blank.text)).not.toContain(checkId);
    expect(blank.text).toMatch(/\d+ more checks are not listed/);

    const created = await consoleRequest(server, 'POST', '/console/alert-channels?type=WEBHOOK', {
      cookie: writer,
      form: { csrf: csrfOf(blank.text), name: 'Bulk hook', url: `${receiver.url}/bulk`, method: 'POST', webhookType: 'WEBHOOK', sendFailure: 'on', sslExpiryThreshold: '14', [`check-${checkId}`]: 'on' },
    });
    expect(created.status).toBe(303);
    const id = /^\/console\/alert-channels\/([0-9a-f-]{36})\?notice=created$/.exec(created.location!)![1];
    const page = await consoleRequest(server, 'GET', `/console/alert-channels/${id}`, { cookie: writer });
    expect(boxes(page.text)).toHaveLength(51);
    expect(page.text).toContain(`id="chk-${checkId}" name="check-${checkId}" value="on" checked`);
    const saved = await consoleRequest(server, 'POST', `/console/alert-channels/${id}`, { cookie: writer, form: formAsShown(page.text, `/console/alert-channels/${id}`) });
    expect(saved.status).toBe(303);
    const subscriptions = (await server.http.get(`/v1/checks/${checkId}`, { key: account.key })).body.alertChannelSubscriptions as { alertChannelId: string }[];
    expect(subscriptions.map((s) => s.alertChannelId)).toContain(id);
  });
});
