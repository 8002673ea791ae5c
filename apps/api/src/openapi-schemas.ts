import { DEFAULT_THEME_COLORS } from '../../../libs/status-pages/src/status-pages.api';

/** Schemas the controllers do not declare (alert channels, notifications, the account), and examples of the main resources. */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const stamp = { type: 'string', format: 'date-time' };
const page = (item: string) => ({
  type: 'object',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer', minimum: 0 },
    entries: { type: 'array', items: ref(item) },
    nextId: { type: ['string', 'null'], description: 'The cursor of the next page (null on the last)' },
  },
});

const ACCOUNT_ID = '01938a1e-6c1f-7d2a-9b3e-4f5a6b7c8d9e';
const SERVICE_ID = '01938a1f-0a2b-7c3d-8e4f-5a6b7c8d9e0f';
const CHECK_ID = '01938a20-1b2c-7d3e-9f40-6b7c8d9e0f1a';
const CHANNEL_ID = '01938a21-2c3d-7e4f-8a51-7c8d9e0f1a2b';
const AT = '2026-11-20T09:30:00.000Z';

const CHANNEL_EXAMPLE = {
  id: CHANNEL_ID,
  type: 'EMAIL',
  config: { address: 'oncall@example.com' },
  sendRecovery: true,
  sendFailure: true,
  sendDegraded: false,
  sslExpiry: false,
  sslExpiryThreshold: 30,
  subscriptions: [{ checkId: CHECK_ID, activated: true }],
  created_at: AT,
  updated_at: AT,
};

export const EXTRA_SCHEMAS: Record<string, object> = {
  AlertChannel: {
    type: 'object',
    description: 'Where alerts go; secrets in `config` are masked',
    required: ['id', 'type', 'config', 'sendRecovery', 'sendFailure', 'sendDegraded', 'sslExpiry', 'sslExpiryThreshold', 'subscriptions', 'created_at', 'updated_at'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['EMAIL', 'SLACK', 'WEBHOOK', 'PAGERDUTY', 'OPSGENIE'] },
      config: { type: 'object', additionalProperties: true, description: 'The settings of the channel type, as in the request body' },
      sendRecovery: { type: 'boolean' },
      sendFailure: { type: 'boolean' },
      sendDegraded: { type: 'boolean' },
      sslExpiry: { type: 'boolean' },
      sslExpiryThreshold: { type: 'integer' },
      subscriptions: {
        type: 'array',
        items: { type: 'object', required: ['checkId', 'activated'], properties: { checkId: { type: 'string', format: 'uuid' }, activated: { type: 'boolean' } } },
      },
      created_at: stamp,
      updated_at: stamp,
    },
    examples: [CHANNEL_EXAMPLE],
  },
  AlertChannelPage: page('AlertChannel'),
  AlertChannelTest: {
    type: 'object',
    required: ['notificationId'],
    properties: { notificationId: { type: 'string', description: 'The test’s entry in the delivery log (GET /v1/alert-notifications)' } },
  },
  Notification: {
    type: 'object',
    description: 'One alert or subscriber notification in the delivery log',
    required: ['id', 'alertChannelId', 'checkId', 'incidentId', 'alertType', 'recipient', 'status', 'attempts', 'lastError', 'created_at', 'sentAt', 'nextAttemptAt'],
    properties: {
      id: { type: 'string' },
      alertChannelId: { type: ['string', 'null'] },
      checkId: { type: ['string', 'null'] },
      incidentId: { type: ['string', 'null'] },
      alertType: { type: 'string', examples: ['ALERT_FAILURE', 'ALERT_RECOVERY', 'ALERT_REMINDER'] },
      recipient: { type: 'string', description: 'The address, URL or service it goes to (secrets left out)' },
      status: { type: 'string', enum: ['PENDING', 'SENT', 'FAILED', 'SUPPRESSED'] },
      attempts: { type: 'integer', minimum: 0 },
      lastError: { type: ['string', 'null'] },
      suppressedReason: { type: 'string', description: 'Why a SUPPRESSED alert was not sent: muted, deactivated, or a maintenance window' },
      created_at: stamp,
      sentAt: { type: ['string', 'null'], format: 'date-time' },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  NotificationPage: page('Notification'),
  Account: {
    type: 'object',
    description: 'The account in the shape the checkly CLI reads',
    required: ['id', 'name', 'runtimeId', 'plan', 'planDisplayName', 'features'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      runtimeId: { type: 'string' },
      plan: { type: 'string' },
      planDisplayName: { type: 'string' },
      features: { type: 'array', items: { type: 'string' } },
    },
  },
};

/** Response schemas of operations whose controllers declare none, by `METHOD /path` and status. */
export const RESPONSE_SCHEMAS: Record<string, Record<string, string>> = {
  'GET /next/accounts/{accountId}': { 200: 'Account' },
  'GET /v1/alert-channels': { 200: 'AlertChannelPage' },
  'POST /v1/alert-channels': { 201: 'AlertChannel' },
  'GET /v1/alert-channels/{id}': { 200: 'AlertChannel' },
  'PUT /v1/alert-channels/{id}': { 200: 'AlertChannel' },
  'PUT /v1/alert-channels/{id}/subscriptions': { 200: 'AlertChannel' },
  'POST /v1/alert-channels/{id}/test': { 202: 'AlertChannelTest' },
  'GET /v1/alert-notifications': { 200: 'NotificationPage' },
  'POST /v1/alert-notifications/{id}/retry': { 202: 'Notification' },
};

/** Request bodies that are inline schemas rather than DTOs: their example, by `METHOD /path`. */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'POST /v1/alert-channels': { type: 'EMAIL', config: { address: 'oncall@example.com' }, subscriptions: [{ checkId: CHECK_ID, activated: true }] },
  'PUT /v1/alert-channels/{id}': { type: 'EMAIL', config: { address: 'oncall@example.com' }, sendRecovery: true, sendFailure: true },
};

const heartbeatBody = { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' };
const service = { id: SERVICE_ID, accountId: ACCOUNT_ID, name: 'API', created_at: AT, updated_at: AT, checks: [] };
const update = {
  id: '01938a22-3d4e-7f50-8b62-8d9e0f1a2b3c',
  description: 'Error rates are back to normal after rolling back the deploy.',
  status: 'MONITORING',
  publicIncidentUpdateDate: AT,
  notifySubscribers: true,
  created_at: AT,
};

/** Examples of the main resources' bodies and answers, by component schema name. */
export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  CheckBodyDto: { name: 'Nightly backup', tags: ['backup'], heartbeat: heartbeatBody },
  CheckDto: {
    id: CHECK_ID,
    checkType: 'HEARTBEAT',
    name: 'Nightly backup',
    activated: true,
    muted: false,
    tags: ['backup'],
    description: null,
    slug: null,
    heartbeat: {
      ...heartbeatBody,
      schedule: null,
      timezone: null,
      pingToken: '5c6f3a4e-2b1d-4c8e-9f7a-0e1d2c3b4a59',
      pingUrl: 'https://vigil.example/ping/5c6f3a4e-2b1d-4c8e-9f7a-0e1d2c3b4a59',
      nextDueAt: null,
    },
    triggerIncident: null,
    alertSettings: null,
    alertChannelSubscriptions: [],
    created_at: AT,
    updated_at: AT,
  },
  ServiceBodyDto: { name: 'API' },
  ServiceDto: service,
  StatusPageBodyDto: { name: 'Acme', url: 'acme', cards: [{ name: 'Core', services: [{ id: SERVICE_ID }] }] },
  StatusPageDetailDto: {
    id: '01938a23-4e5f-7061-9c73-9e0f1a2b3c4d',
    accountId: ACCOUNT_ID,
    name: 'Acme',
    url: 'acme',
    customDomain: null,
    logo: null,
    favicon: null,
    redirectTo: null,
    defaultTheme: 'AUTO',
    themeColors: DEFAULT_THEME_COLORS,
    cards: [{ id: '01938a24-5f60-7172-8d84-0f1a2b3c4d5e', name: 'Core', services: [service], created_at: AT, updated_at: AT }],
    incidents: [],
    created_at: AT,
    updated_at: AT,
    description: null,
    logoDark: null,
  },
  CreateIncidentDto: {
    name: 'Elevated API error rates',
    severity: 'MAJOR',
    services: [{ id: SERVICE_ID }],
    incidentUpdates: [{ description: 'We are investigating errors on the API.', notifySubscribers: true }],
  },
  IncidentDto: {
    id: '01938a25-6071-7283-9e95-1a2b3c4d5e6f',
    name: 'Elevated API error rates',
    severity: 'MAJOR',
    lastUpdateStatus: 'MONITORING',
    services: [service],
    incidentUpdates: [update],
    created_at: AT,
    updated_at: AT,
  },
  IncidentUpdateBodyDto: { description: 'Error rates are back to normal after rolling back the deploy.', status: 'MONITORING', notifySubscribers: true },
  IncidentUpdateDto: update,
  MaintenanceWindowBodyDto: {
    name: 'Database upgrade',
    tags: ['backup'],
    serviceIds: [SERVICE_ID],
    startsAt: '2026-12-05T02:00:00.000Z',
    endsAt: '2026-12-05T04:00:00.000Z',
    repeatInterval: 1,
    repeatUnit: 'MONTH',
    timezone: 'Europe/Berlin',
  },
  MaintenanceWindowDto: {
    id: '01938a26-7182-7394-8fa6-2b3c4d5e6f70',
    name: 'Database upgrade',
    tags: ['backup'],
    startsAt: '2026-12-05T02:00:00.000Z',
    endsAt: '2026-12-05T04:00:00.000Z',
    repeatInterval: 1,
    repeatUnit: 'MONTH',
    repeatEndsAt: null,
    timezone: 'Europe/Berlin',
    serviceIds: [SERVICE_ID],
    created_at: AT,
    updated_at: AT,
  },
};
