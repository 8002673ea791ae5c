import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../../platform/src/config';
import { ChannelSettings } from '../domain/alert-channel';
import { CheckAlert } from '../domain/alert-message';
import { ChannelDoc } from '../read/alert-channels.projection';
import { channelRequest, renderTemplate } from './channel-requests';
import { parseRetryAfter } from './outbound-http';

const config = loadConfig({ VIGIL_PUBLIC_URL: 'https://status.example.com', VIGIL_PAGERDUTY_URL: 'http://pd.test', VIGIL_OPSGENIE_EU_URL: 'http://og-eu.test' });
const alert: CheckAlert = {
  alertType: 'ALERT_FAILURE',
  checkId: 'c1',
  checkName: 'nightly "backup"\n<job>',
  tags: ['db'],
  outageId: 'o1',
  startedAt: '2026-07-01T12:00:30.000Z',
  at: '2026-07-01T12:00:30.000Z',
  downtimeSeconds: null,
};
const channel = (type: ChannelSettings['type'], cfg: object): ChannelDoc => ({
  id: 'ch1',
  accountId: 'a1',
  type,
  config: cfg as ChannelSettings['config'],
  sendRecovery: true,
  sendFailure: true,
  sendDegraded: false,
  sslExpiry: false,
  sslExpiryThreshold: 30,
  created_at: '',
  updated_at: '',
});
const webhook = (extra: object) => channel('WEBHOOK', { name: 'w', url: 'https://hooks.example.com/x', method: 'POST', headers: [], queryParameters: [], template: null, webhookSecret: null, webhookType: 'WEBHOOK', ...extra });
const NOW = Math.floor(Date.now() / 1000);

describe('channel requests', () => {
  it('signs webhooks the Standard Webhooks way and with x-checkly-signature', () => {
    for (const secret of ['whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64'), 'plain-secret']) {
      const req = channelRequest(webhook({ webhookSecret: secret }), alert, 'msg_1', NOW, config);
      expect(new Webhook(secret.startsWith('whsec_') ? secret : Buffer.from(secret).toString('base64')).verify(req.body!, req.headers)).toMatchObject({ alertType: 'ALERT_FAILURE' });
      const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
      expect(req.headers['x-checkly-signature']).toBe(createHmac('sha256', key).update(req.body!).digest('hex'));
      expect(req.headers['webhook-id']).toBe('msg_1');
    }
  });

  it('renders custom templates with Checkly variables, JSON-escaped in JSON bodies', () => {
    const body = renderTemplate('{"t": "{{ALERT_TITLE}}", "n": "{{CHECK_NAME}}", "d": "{{DOWNTIME_SECONDS}}"}', { ALERT_TITLE: 'x', CHECK_NAME: alert.checkName, DOWNTIME_SECONDS: '42' });
    expect(JSON.parse(body)).toEqual({ t: 'x', n: alert.checkName, d: '42' });
    expect(renderTemplate('{{CHECK_NAME}} is down', { CHECK_NAME: '<b>' })).toBe('<b> is down');
    const req = channelRequest(webhook({ template: '{"name": "{{CHECK_NAME}}", "tags": "{{TAGS}}"}', method: 'PUT', queryParameters: [{ key: 'a', value: 'b c' }] }), alert, 'm', NOW, config);
    expect(JSON.parse(req.body!)).toEqual({ name: alert.checkName, tags: 'db' });
    expect(req.url).toBe('https://hooks.example.com/x?a=b+c');
    expect(req.method).toBe('PUT');
    expect(channelRequest(webhook({ method: 'GET' }), alert, 'm', NOW, config).body).toBeNull();
  });

  it('builds each built-in template', () => {
    const teams = JSON.parse(channelRequest(webhook({ webhookType: 'WEBHOOK_MSTEAMS' }), alert, 'm', NOW, config).body!);
    expect(teams.attachments[0]).toMatchObject({ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } });
    expect(JSON.parse(channelRequest(webhook({ webhookType: 'WEBHOOK_TELEGRAM' }), alert, 'm', NOW, config).body!).text).toContain('missed its deadline');
    expect(JSON.parse(channelRequest(webhook({ webhookType: 'WEBHOOK_DISCORD' }), alert, 'm', NOW, config).body!)).toMatchObject({ content: expect.stringContaining('missed its deadline'), embeds: [expect.any(Object)] });
    const ntfy = channelRequest(webhook({ webhookType: 'WEBHOOK_NTFY' }), alert, 'm', NOW, config);
    expect(ntfy.headers).toMatchObject({ priority: 'high', tags: 'rotating_light' });
    expect(ntfy.headers.title).not.toMatch(/[\r\n]/);
    expect(JSON.parse(channelRequest(channel('SLACK', { url: 'https://hooks.slack.com/x', channel: '#ops' }), alert, 'm', NOW, config).body!)).toMatchObject({ channel: '#ops' });
  });

  it('triggers and resolves PagerDuty and Opsgenie with one key per outage', () => {
    const pd = channel('PAGERDUTY', { serviceKey: 'rk', serviceName: null, account: null });
    const trigger = channelRequest(pd, alert, 'm', NOW, config);
    const resolve = channelRequest(pd, { ...alert, alertType: 'ALERT_RECOVERY', downtimeSeconds: 60 }, 'm2', NOW, config);
    expect(trigger.url).toBe('http://pd.test/v2/enqueue');
    expect(JSON.parse(trigger.body!)).toMatchObject({ routing_key: 'rk', event_action: 'trigger' });
    expect(JSON.parse(resolve.body!)).toMatchObject({ event_action: 'resolve', dedup_key: JSON.parse(trigger.body!).dedup_key });
    const og = channel('OPSGENIE', { apiKey: 'k', region: 'EU', priority: 'P2', name: 'ops' });
    const create = channelRequest(og, alert, 'm', NOW, config);
    expect(create).toMatchObject({ url: 'http://og-eu.test/v2/alerts', headers: { authorization: 'GenieKey k' } });
    const close = channelRequest(og, { ...alert, alertType: 'ALERT_RECOVERY' }, 'm', NOW, config);
    expect(close.url).toBe(`http://og-eu.test/v2/alerts/${JSON.parse(create.body!).alias}/close?identifierType=alias`);
  });

  it('reads Retry-After as seconds or a date, capped', () => {
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(parseRetryAfter('999999', 0)).toBe(3_600_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});
