/** The channel body as OpenAPI 3.1 schema (the body is validated by parseChannelBody, type by type). */
const text = (maxLength = 255) => ({ type: 'string', maxLength });
const url = { type: 'string', format: 'uri', description: 'http or https; private addresses only with VIGIL_OUTBOUND_ALLOW_PRIVATE' };
const pairs = { type: 'array', maxItems: 50, items: { type: 'object', properties: { key: text(), value: text(2048) }, required: ['key', 'value'] } };

const CONFIGS = {
  EMAIL: { type: 'object', properties: { address: { type: 'string', format: 'email' } }, required: ['address'] },
  SLACK: { type: 'object', properties: { url, channel: { type: ['string', 'null'] } }, required: ['url'] },
  WEBHOOK: {
    type: 'object',
    properties: {
      name: text(),
      url,
      method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'HEAD'], default: 'POST' },
      headers: pairs,
      queryParameters: pairs,
      template: { type: ['string', 'null'], description: 'Handlebars with Checkly variable names' },
      webhookSecret: { type: ['string', 'null'], description: 'whsec_<base64> or any text; returned masked' },
      webhookType: { type: 'string', enum: ['WEBHOOK', 'WEBHOOK_MSTEAMS', 'WEBHOOK_TELEGRAM', 'WEBHOOK_DISCORD', 'WEBHOOK_NTFY'], default: 'WEBHOOK' },
    },
    required: ['name', 'url'],
  },
  PAGERDUTY: { type: 'object', properties: { serviceKey: text(), serviceName: { type: ['string', 'null'] }, account: { type: ['string', 'null'] } }, required: ['serviceKey'] },
  OPSGENIE: {
    type: 'object',
    properties: { apiKey: text(), region: { type: 'string', enum: ['US', 'EU'] }, priority: { type: 'string', enum: ['P1', 'P2', 'P3', 'P4', 'P5'] }, name: text() },
    required: ['apiKey', 'region', 'priority', 'name'],
  },
};

export const ALERT_CHANNEL_BODY_SCHEMA = {
  type: 'object',
  required: ['type', 'config'],
  properties: {
    type: { type: 'string', enum: Object.keys(CONFIGS), description: 'SMS and CALL are not supported (400)' },
    config: { oneOf: Object.values(CONFIGS), description: 'The settings of the channel type' },
    sendRecovery: { type: 'boolean', default: true },
    sendFailure: { type: 'boolean', default: true },
    sendDegraded: { type: 'boolean', default: false },
    sslExpiry: { type: 'boolean', default: false },
    sslExpiryThreshold: { type: 'integer', minimum: 1, maximum: 30, default: 30 },
    subscriptions: {
      type: 'array',
      items: { type: 'object', properties: { checkId: { type: 'string', format: 'uuid' }, activated: { type: 'boolean', default: true } }, required: ['checkId'] },
    },
  },
};
