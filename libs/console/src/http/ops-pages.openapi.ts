/** The console's checks, alert channels and API keys pages for the OpenAPI document. */
import { form, idParam, Json, page, text } from './console-openapi-parts';

const query = (name: string, schema: Json, description?: string): Json => ({ name, in: 'query', required: false, schema, ...(description && { description }) });
const unit = { type: 'string', enum: ['seconds', 'minutes', 'hours', 'days'] };
const on = { type: 'string', enum: ['on'] };
const CHANNEL_TYPES = ['EMAIL', 'SLACK', 'WEBHOOK', 'PAGERDUTY', 'OPSGENIE'];

export function opsPagesOpenApiPaths(): Json {
  const checkFields: Record<string, Json> = {
    name: text(255),
    tags: { ...text(5100), description: 'Separated by commas' },
    description: text(500),
    timing: { type: 'string', enum: ['period', 'schedule'] },
    period: text(9),
    periodUnit: unit,
    schedule: text(255),
    timezone: text(64),
    grace: text(9),
    graceUnit: unit,
  };
  const channelFields: Record<string, Json> = {
    ...Object.fromEntries(['address', 'url', 'channel', 'name', 'webhookSecret', 'serviceKey', 'serviceName', 'pdAccount', 'apiKey'].map((f) => [f, text(2048)])),
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'HEAD'] },
    webhookType: { type: 'string', enum: ['WEBHOOK', 'WEBHOOK_MSTEAMS', 'WEBHOOK_TELEGRAM', 'WEBHOOK_DISCORD', 'WEBHOOK_NTFY'] },
    headers: { ...text(60_000), description: 'One per line: Name: value' },
    queryParameters: { ...text(60_000), description: 'One per line: name=value' },
    template: text(16_384),
    region: { type: 'string', enum: ['US', 'EU'] },
    priority: { type: 'string', enum: ['P1', 'P2', 'P3', 'P4', 'P5'] },
    sendFailure: on,
    sendRecovery: on,
    sendDegraded: on,
    sslExpiry: on,
    sslExpiryThreshold: text(2),
  };
  const typeParam = { name: 'type', in: 'query', required: true, schema: { type: 'string', enum: CHANNEL_TYPES } };
  const before = (description: string) => query('before', { type: 'string', maxLength: 100 }, description);

  return {
    '/console/checks': {
      ...page('Checks with their state, last ping and recent runs, failing first, 50 a page; the form that creates one', [
        query('state', { type: 'string', enum: ['NEW', 'UP', 'LATE', 'FAILING', 'PAUSED'] }),
        query('tag', { type: 'string', maxLength: 100 }),
        query('from', { type: 'integer', minimum: 0 }, 'Position in the list'),
      ]),
      post: form('Create a check (`channel-{id}` fields set to `on` name its alert channels)', checkFields, ['name', 'timing', 'grace', 'graceUnit']),
    },
    '/console/checks/{id}': {
      ...page('A check: state, timing, channels, ping URL, crontab line, the ping log (20 a page) and its settings form', [idParam, before('`<ms>.<n>` from the previous page')], true),
      post: form('Save a check’s name, tags, timing, grace and alert channels', checkFields, ['name', 'timing', 'grace', 'graceUnit'], [idParam]),
    },
    '/console/checks/{id}/pings/{pingId}': page('A ping of a check and the output its job posted', [idParam, { name: 'pingId', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } }], true),
    '/console/checks/{id}/deactivate': { post: form('Turn a check’s monitoring off (pings ignored, no alert)', {}, [], [idParam]) },
    '/console/checks/{id}/resume': { post: form('Resume a check’s monitoring (it waits for a ping from now)', {}, [], [idParam]) },
    '/console/alert-channels': {
      ...page('Alert channels with their targets (secrets masked)'),
      post: form('Create an alert channel of a type (`check-{id}` fields set to `on` name its checks)', channelFields, [], [typeParam]),
    },
    '/console/alert-channels/new': page('The form that creates an alert channel of a type', [typeParam]),
    '/console/alert-channels/{id}': {
      ...page('An alert channel: send a test, its delivery log (20 a page) with retry, its settings form', [idParam, before('`<created_at>~<id>` from the previous page')], true),
      post: form('Save an alert channel (masked secrets sent back keep the stored ones)', channelFields, [], [idParam]),
    },
    '/console/alert-channels/{id}/test': { post: form('Send a test alert to the channel', {}, [], [idParam]) },
    '/console/alert-channels/{id}/deliveries/{deliveryId}/retry': {
      post: form('Send a failed delivery again', {}, [], [idParam, { name: 'deliveryId', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } }]),
    },
    '/console/api-keys': {
      ...page('ADMIN only: the account’s API keys and the form that creates one'),
      post: form('Create an API key: the answer (201) shows it once', { name: text(100), role: { type: 'string', enum: ['READ_ONLY', 'READ_WRITE', 'ADMIN'] } }, ['name', 'role']),
    },
    '/console/api-keys/{id}/revoke': { post: form('Revoke an API key (ADMIN only)', {}, [], [idParam]) },
  };
}
