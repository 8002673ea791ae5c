import { targetUrlProblem as urlProblem } from '../send/target-check';
import { maskedConfig, maskedRecipient, parseChannelBody, WebhookConfig } from './alert-channel';
import { alertPolicy, alertSettingsProblems, DEFAULT_POLICY } from './alert-settings';
import { isPublicAddress } from '../../../core/src/outbound-address';

const strict = { allowPrivate: false };

describe('alert channel bodies', () => {
  it('fills Checkly defaults', () => {
    const { settings, details } = parseChannelBody({ type: 'WEBHOOK', config: { name: 'n', url: 'https://example.com/h' } }, strict);
    expect(details).toEqual([]);
    expect(settings).toEqual({
      type: 'WEBHOOK',
      config: { name: 'n', url: 'https://example.com/h', method: 'POST', headers: [], queryParameters: [], template: null, webhookSecret: null, webhookType: 'WEBHOOK' },
      sendRecovery: true,
      sendFailure: true,
      sendDegraded: false,
      sslExpiry: false,
      sslExpiryThreshold: 30,
    });
  });

  it('lists every violated rule at once', () => {
    const { settings, details } = parseChannelBody({ type: 'WEBHOOK', config: { url: 'ftp://x', method: 'X' }, sendFailure: 1 }, strict);
    expect(settings).toBeNull();
    expect(details.map((d) => d.path).sort()).toEqual(['config.method', 'config.name', 'config.url', 'sendFailure']);
  });

  it('masks secrets and token URLs, and keeps the stored values when the masks come back', () => {
    const stored = parseChannelBody(
      { type: 'WEBHOOK', config: { name: 'n', url: 'https://discord.com/api/webhooks/123/secret-token', webhookSecret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LTEyMzQ=', webhookType: 'WEBHOOK_DISCORD' } },
      strict,
    ).settings!;
    const shown = maskedConfig(stored.type, stored.config) as WebhookConfig;
    expect(JSON.stringify(shown)).not.toContain('secret-token');
    expect(shown.webhookSecret).not.toContain('c2VjcmV0');
    const again = parseChannelBody({ type: 'WEBHOOK', config: shown }, strict, stored).settings!;
    expect(again.config).toEqual(stored.config);
    const changed = parseChannelBody({ type: 'WEBHOOK', config: { ...shown, webhookSecret: 'new-secret' } }, strict, stored).settings!;
    expect((changed.config as WebhookConfig).webhookSecret).toBe('new-secret');
    expect(maskedRecipient('EMAIL', { address: 'alice@example.com' })).toBe('a***@example.com');
  });

  it('masks credential headers and query parameters (and ntfy topics), and keeps them when the masks come back', () => {
    const config = {
      name: 'n',
      url: 'https://ntfy.sh/private-topic-name',
      webhookType: 'WEBHOOK_NTFY',
      headers: [{ key: 'Authorization', value: 'Bearer very-secret-bearer-token' }, { key: 'X-Team', value: 'ops' }],
      queryParameters: [{ key: 'api_key', value: 'query-secret-0123456789' }],
    };
    const stored = parseChannelBody({ type: 'WEBHOOK', config }, strict).settings!;
    const shown = maskedConfig(stored.type, stored.config) as WebhookConfig;
    for (const secret of ['very-secret-bearer-token', 'query-secret', 'private-topic']) expect(JSON.stringify(shown)).not.toContain(secret);
    expect(shown.headers[1]).toEqual({ key: 'X-Team', value: 'ops' });
    expect(parseChannelBody({ type: 'WEBHOOK', config: shown }, strict, stored).settings!.config).toEqual(stored.config);
  });

  describe('masked secrets never travel to a new place', () => {
    const stored = parseChannelBody(
      {
        type: 'WEBHOOK',
        config: {
          name: 'n',
          url: 'https://discord.com/api/webhooks/123/secret-token',
          webhookSecret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LTEyMzQ=',
          webhookType: 'WEBHOOK_DISCORD',
          headers: [{ key: 'Authorization', value: 'Bearer very-secret-bearer-token' }],
        },
      },
      strict,
    ).settings!;
    const shown = maskedConfig(stored.type, stored.config) as WebhookConfig;

    it('refuses the masks when the URL changes, and takes newly entered secrets or none', () => {
      const moved = parseChannelBody({ type: 'WEBHOOK', config: { ...shown, url: 'https://attacker.example/collect' } }, strict, stored);
      expect(moved.settings).toBeNull();
      expect(moved.details.map((d) => d.path).sort()).toEqual(['config.headers[0].value', 'config.webhookSecret']);
      expect(moved.details[0].message).toMatch(/masked stored value/);
      const fresh = parseChannelBody({ type: 'WEBHOOK', config: { ...shown, url: 'https://attacker.example/collect', webhookSecret: 'a-new-secret', headers: [] } }, strict, stored);
      expect(fresh.details).toEqual([]);
      expect(JSON.stringify(fresh.settings)).not.toMatch(/secret-token|c2VjcmV0|very-secret/);
      const none = parseChannelBody({ type: 'WEBHOOK', config: { name: 'n', url: 'https://attacker.example/collect', webhookType: 'WEBHOOK_DISCORD' } }, strict, stored);
      expect((none.settings!.config as WebhookConfig).webhookSecret).toBeNull();
    });

    it('never lets a change of webhookType or type turn a masked URL into one a GET shows', () => {
      for (const body of [
        { type: 'WEBHOOK', config: { ...shown, webhookType: 'WEBHOOK' } },
        { type: 'WEBHOOK', config: { name: 'n', url: shown.url, webhookType: 'WEBHOOK' } },
        { type: 'SLACK', config: { url: shown.url } },
      ]) {
        const parsed = parseChannelBody(body, strict, stored);
        expect(parsed.settings).toBeNull();
        expect(parsed.details.map((d) => d.path)).toContain('config.url');
      }
      const opsgenie = parseChannelBody({ type: 'OPSGENIE', config: { apiKey: 'og-key-0123456789abcdef', name: 'o', region: 'US' } }, strict).settings!;
      const ogShown = maskedConfig(opsgenie.type, opsgenie.config) as Record<string, unknown>;
      expect(parseChannelBody({ type: 'OPSGENIE', config: { ...ogShown, region: 'EU' } }, strict, opsgenie).details.map((d) => d.path)).toEqual(['config.apiKey']);
      expect(parseChannelBody({ type: 'OPSGENIE', config: { ...ogShown, priority: 'P1' } }, strict, opsgenie).settings!.config).toMatchObject({ apiKey: 'og-key-0123456789abcdef', priority: 'P1' });
    });

    it('keeps the masked values when the target stays the same', () => {
      const again = parseChannelBody({ type: 'WEBHOOK', config: { ...shown, name: 'renamed' } }, strict, stored).settings!;
      expect(again.config).toEqual({ ...stored.config, name: 'renamed' });
    });
  });

  it('refuses non-http URLs and literal private addresses unless allowed', () => {
    for (const url of ['javascript:alert(1)', 'ftp://example.com/', 'file:///etc/passwd', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://[::ffff:127.0.0.1]/', 'http://192.168.1.1/']) {
      expect(urlProblem(url, strict)).not.toBeNull();
    }
    expect(urlProblem('http://10.0.0.1/', { allowPrivate: true })).toBeNull();
    expect(urlProblem('https://hooks.example.com/x', strict)).toBeNull();
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('100.64.1.1')).toBe(false);
    expect(isPublicAddress('224.0.0.1')).toBe(false);
    // IPv4-compatible IPv6 (::127.0.0.1) is loopback in disguise; a global IPv6 address passes.
    expect(isPublicAddress('::7f00:1')).toBe(false);
    expect(urlProblem('http://[::7f00:1]/', strict)).not.toBeNull();
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
  });
});

describe('alertSettings', () => {
  it('takes Checkly defaults and reads escalation and reminders', () => {
    expect(alertPolicy(null)).toEqual(DEFAULT_POLICY);
    expect(alertPolicy({ escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 10 }, reminders: { amount: 2, interval: 15 } })).toEqual({
      escalationType: 'TIME_BASED',
      failedRunThreshold: 1,
      minutesFailingThreshold: 10,
      reminders: { amount: 2, intervalMinutes: 15 },
    });
  });

  it('names each bad field', () => {
    const problems = alertSettingsProblems({ escalationType: 'X', runBasedEscalation: { failedRunThreshold: 9 }, reminders: { amount: 6, interval: 0 } });
    expect(problems.map((p) => p.path)).toEqual([
      'alertSettings.escalationType',
      'alertSettings.runBasedEscalation.failedRunThreshold',
      'alertSettings.reminders.amount',
      'alertSettings.reminders.interval',
    ]);
    expect(alertSettingsProblems({ escalationType: 'RUN_BASED', parallelRunFailureThreshold: { enabled: false } })).toEqual([]);
  });
});
