import { createHmac } from 'node:crypto';
import { VigilConfig } from '../../../platform/src/config';
import { ChannelDoc } from '../read/alert-channels.projection';
import { OpsgenieConfig, PagerDutyConfig, SlackConfig, WebhookConfig } from '../domain/alert-channel';
import { alertText, alertTitle, CheckAlert, checkLink, slackText } from '../domain/alert-message';
import { DeliveryError } from './delivery-error';
import { OutboundRequest } from './outbound-http';
import { isJsonTemplate, renderBounded, TEMPLATE_VARIABLES, TemplateError } from './template-renderer';

/** Checkly's template variable names (plus DOWNTIME_SECONDS), as strings. */
export function templateVariables(alert: CheckAlert, config: Pick<VigilConfig, 'publicUrl'>): Record<(typeof TEMPLATE_VARIABLES)[number], string> {
  return {
    ALERT_TITLE: alertTitle(alert),
    ALERT_TYPE: alert.alertType,
    CHECK_NAME: alert.checkName,
    CHECK_ID: alert.checkId ?? '',
    CHECK_TYPE: alert.monitor?.checkType ?? 'HEARTBEAT',
    CHECK_RESULT_ID: alert.outageId ?? '',
    RESULT_LINK: checkLink(config.publicUrl, alert.checkId),
    STARTED_AT: alert.startedAt ?? alert.at,
    TAGS: alert.tags.join(','),
    DOWNTIME_SECONDS: alert.downtimeSeconds === null ? '' : String(alert.downtimeSeconds),
    RESPONSE_TIME: alert.monitor?.responseTime == null ? '' : String(alert.monitor.responseTime),
    REGION: alert.monitor?.locations.join(',') ?? '',
    RUN_LOCATION: alert.monitor?.locations.join(',') ?? '',
    GROUP_NAME: '',
    SSL_DAYS_REMAINING: alert.monitor?.sslDaysRemaining == null ? '' : String(alert.monitor.sslDaysRemaining),
  };
}

/** A custom template, rendered within its bounds; one that exceeds them fails the delivery for good. */
export function renderTemplate(template: string, variables: Record<string, string>): string {
  try {
    return renderBounded(template, variables);
  } catch (error) {
    if (error instanceof TemplateError) throw new DeliveryError(error.message, false);
    throw error;
  }
}

/** Standard Webhooks headers and Checkly's x-checkly-signature. */
export function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  return {
    'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`,
    'x-checkly-signature': createHmac('sha256', key).update(body).digest('hex'),
  };
}

function withQuery(url: string, pairs: { key: string; value: string }[]): string {
  if (pairs.length === 0) return url;
  const parsed = new URL(url);
  for (const { key, value } of pairs) parsed.searchParams.append(key, value);
  return parsed.toString();
}

const json = (value: unknown) => JSON.stringify(value);

function builtInWebhookBody(type: WebhookConfig['webhookType'], alert: CheckAlert, vars: Record<string, string>): { body: string; contentType: string; headers?: Record<string, string> } {
  const title = vars.ALERT_TITLE;
  const text = alertText(alert);
  switch (type) {
    case 'WEBHOOK_MSTEAMS':
      return {
        contentType: 'application/json',
        body: json({
          type: 'message',
          attachments: [
            {
              contentType: 'application/vnd.microsoft.card.adaptive',
              content: {
                $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
                type: 'AdaptiveCard',
                version: '1.4',
                body: [
                  { type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true },
                  { type: 'TextBlock', text, wrap: true },
                ],
                actions: [{ type: 'Action.OpenUrl', title: 'Open check', url: vars.RESULT_LINK }],
              },
            },
          ],
        }),
      };
    case 'WEBHOOK_TELEGRAM':
      return { contentType: 'application/json', body: json({ text: `${title}\n${text}`, disable_web_page_preview: true }) };
    case 'WEBHOOK_DISCORD':
      return {
        contentType: 'application/json',
        body: json({
          content: title,
          embeds: [{ title, description: text, url: vars.RESULT_LINK, color: alert.alertType === 'ALERT_RECOVERY' ? 0x2eb67d : 0xe01e5a }],
          allowed_mentions: { parse: [] },
        }),
      };
    case 'WEBHOOK_NTFY': {
      const failing = alert.alertType !== 'ALERT_RECOVERY' && alert.alertType !== 'ALERT_TEST';
      // Header values must stay on one line and within Latin-1.
      const safe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 250);
      return {
        contentType: 'text/plain; charset=utf-8',
        body: text,
        headers: { title: safe(title), priority: failing ? 'high' : 'default', tags: failing ? 'rotating_light' : 'white_check_mark' },
      };
    }
    case 'WEBHOOK':
      return {
        contentType: 'application/json',
        body: json({
          alertType: alert.alertType,
          title,
          text,
          check: { id: alert.checkId, name: alert.checkName, type: vars.CHECK_TYPE, tags: alert.tags, link: vars.RESULT_LINK },
          startedAt: vars.STARTED_AT,
          at: alert.at,
          downtimeSeconds: alert.downtimeSeconds,
        }),
      };
  }
}

/** The HTTP request a channel of type SLACK, WEBHOOK, PAGERDUTY or OPSGENIE makes for an alert. */
export function channelRequest(channel: ChannelDoc, alert: CheckAlert, deliveryId: string, nowSeconds: number, config: VigilConfig): OutboundRequest {
  const vars = templateVariables(alert, config);
  // PagerDuty's dedup key and Opsgenie's alias: a recovery closes what its outage opened.
  const dedupKey = `vigil-${alert.checkId ?? 'test'}-${alert.outageId ?? deliveryId}`;
  switch (channel.type) {
    case 'SLACK': {
      const c = channel.config as SlackConfig;
      return { url: c.url, method: 'POST', headers: { 'content-type': 'application/json' }, body: json({ text: slackText(alert), ...(c.channel ? { channel: c.channel } : {}) }) };
    }
    case 'WEBHOOK': {
      const c = channel.config as WebhookConfig;
      const built = c.template ? { body: renderTemplate(c.template, vars), contentType: isJsonTemplate(c.template) ? 'application/json' : 'text/plain; charset=utf-8' } : builtInWebhookBody(c.webhookType, alert, vars);
      const bodyless = c.method === 'GET' || c.method === 'HEAD';
      const body = bodyless ? '' : built.body;
      const headers: Record<string, string> = { ...(bodyless ? {} : { 'content-type': built.contentType }), ...('headers' in built ? built.headers : {}) };
      for (const { key, value } of c.headers) headers[key.toLowerCase()] = value;
      headers['webhook-id'] = deliveryId;
      headers['webhook-timestamp'] = String(nowSeconds);
      if (c.webhookSecret) Object.assign(headers, signatureHeaders(c.webhookSecret, deliveryId, nowSeconds, body));
      return { url: withQuery(c.url, c.queryParameters), method: c.method, headers, body: bodyless ? null : body };
    }
    case 'PAGERDUTY': {
      const c = channel.config as PagerDutyConfig;
      const resolve = alert.alertType === 'ALERT_RECOVERY';
      return {
        url: `${config.pagerdutyUrl}/v2/enqueue`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: json({
          routing_key: c.serviceKey,
          event_action: resolve ? 'resolve' : 'trigger',
          dedup_key: dedupKey,
          ...(resolve
            ? {}
            : {
                payload: {
                  summary: vars.ALERT_TITLE,
                  source: 'vigil',
                  severity: alert.alertType === 'ALERT_TEST' ? 'info' : 'critical',
                  timestamp: alert.startedAt ?? alert.at,
                  custom_details: { text: alertText(alert), checkId: alert.checkId, tags: alert.tags },
                },
                links: [{ href: vars.RESULT_LINK, text: 'Check' }],
              }),
        }),
      };
    }
    case 'OPSGENIE': {
      const c = channel.config as OpsgenieConfig;
      const base = c.region === 'EU' ? config.opsgenieEuUrl : config.opsgenieUsUrl;
      const headers = { 'content-type': 'application/json', authorization: `GenieKey ${c.apiKey}` };
      if (alert.alertType === 'ALERT_RECOVERY') {
        return { url: `${base}/v2/alerts/${encodeURIComponent(dedupKey)}/close?identifierType=alias`, method: 'POST', headers, body: json({ source: 'vigil', note: alertText(alert) }) };
      }
      return {
        url: `${base}/v2/alerts`,
        method: 'POST',
        headers,
        body: json({ message: vars.ALERT_TITLE.slice(0, 130), alias: dedupKey, description: alertText(alert), priority: c.priority, tags: alert.tags, source: 'vigil', entity: c.name }),
      };
    }
    default:
      throw new Error(`${channel.type} is not an HTTP channel`);
  }
}
