/**
 * Statuspage's public v2 API (https://metastatuspage.com/api/v2 — "Status API" documentation of
 * Atlassian Statuspage): field names, types, enums and nesting of the eight read routes, written out
 * for the tests. A tiny checker instead of a JSON Schema engine: every documented field must be
 * present with its type; extra fields are allowed, as Statuspage clients ignore them.
 */
export type Shape =
  | { type: 'string' | 'number' | 'boolean'; nullable?: boolean; enum?: readonly string[]; format?: 'date-time' }
  | { type: 'object'; nullable?: boolean; properties: Record<string, Shape> }
  | { type: 'array'; nullable?: boolean; items: Shape };

const str = (extra: Partial<{ nullable: boolean; enum: readonly string[]; format: 'date-time' }> = {}): Shape => ({ type: 'string', ...extra });
const time = (nullable = false): Shape => ({ type: 'string', format: 'date-time', nullable });
const bool: Shape = { type: 'boolean' };

export const COMPONENT_STATUSES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'] as const;
export const INDICATORS = ['none', 'minor', 'major', 'critical'] as const;
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved', 'postmortem'] as const;
export const MAINTENANCE_STATUSES = ['scheduled', 'in_progress', 'verifying', 'completed'] as const;

export const PAGE: Shape = { type: 'object', properties: { id: str(), name: str(), url: str(), time_zone: str(), updated_at: time() } };
export const STATUS: Shape = { type: 'object', properties: { indicator: str({ enum: INDICATORS }), description: str() } };

export const COMPONENT: Shape = {
  type: 'object',
  properties: {
    id: str(),
    name: str(),
    status: str({ enum: COMPONENT_STATUSES }),
    created_at: time(),
    updated_at: time(),
    position: { type: 'number' },
    description: str({ nullable: true }),
    showcase: bool,
    start_date: str({ nullable: true }),
    group_id: str({ nullable: true }),
    page_id: str(),
    group: bool,
    only_show_if_degraded: bool,
  },
};

const AFFECTED_COMPONENT: Shape = {
  type: 'object',
  properties: { code: str(), name: str(), old_status: str({ enum: COMPONENT_STATUSES }), new_status: str({ enum: COMPONENT_STATUSES }) },
};

const update = (statuses: readonly string[]): Shape => ({
  type: 'object',
  properties: {
    id: str(),
    status: str({ enum: statuses }),
    body: str(),
    incident_id: str(),
    created_at: time(),
    updated_at: time(),
    display_at: time(),
    affected_components: { type: 'array', nullable: true, items: AFFECTED_COMPONENT },
    deliver_notifications: bool,
    custom_tweet: str({ nullable: true }),
    tweet_id: str({ nullable: true }),
  },
});

const incidentProperties = (statuses: readonly string[], impacts: readonly string[]): Record<string, Shape> => ({
  id: str(),
  name: str(),
  status: str({ enum: statuses }),
  created_at: time(),
  updated_at: time(),
  monitoring_at: time(true),
  resolved_at: time(true),
  impact: str({ enum: impacts }),
  shortlink: str(),
  started_at: time(),
  page_id: str(),
  incident_updates: { type: 'array', items: update(statuses) },
  components: { type: 'array', items: COMPONENT },
});

export const INCIDENT: Shape = { type: 'object', properties: incidentProperties(INCIDENT_STATUSES, INDICATORS) };
export const SCHEDULED_MAINTENANCE: Shape = {
  type: 'object',
  properties: {
    ...incidentProperties(MAINTENANCE_STATUSES, [...INDICATORS, 'maintenance']),
    scheduled_for: time(),
    scheduled_until: time(),
  },
};

const list = (items: Shape): Shape => ({ type: 'array', items });

export const ROUTES: Record<string, Shape> = {
  'summary.json': {
    type: 'object',
    properties: { page: PAGE, components: list(COMPONENT), incidents: list(INCIDENT), scheduled_maintenances: list(SCHEDULED_MAINTENANCE), status: STATUS },
  },
  'status.json': { type: 'object', properties: { page: PAGE, status: STATUS } },
  'components.json': { type: 'object', properties: { page: PAGE, components: list(COMPONENT) } },
  'incidents.json': { type: 'object', properties: { page: PAGE, incidents: list(INCIDENT) } },
  'incidents/unresolved.json': { type: 'object', properties: { page: PAGE, incidents: list(INCIDENT) } },
  'scheduled-maintenances.json': { type: 'object', properties: { page: PAGE, scheduled_maintenances: list(SCHEDULED_MAINTENANCE) } },
  'scheduled-maintenances/upcoming.json': { type: 'object', properties: { page: PAGE, scheduled_maintenances: list(SCHEDULED_MAINTENANCE) } },
  'scheduled-maintenances/active.json': { type: 'object', properties: { page: PAGE, scheduled_maintenances: list(SCHEDULED_MAINTENANCE) } },
};

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Every violation of `shape` in `value`, as "path: problem". */
export function violations(value: unknown, shape: Shape, path = '$'): string[] {
  if (value === null) return shape.nullable ? [] : [`${path}: null`];
  switch (shape.type) {
    case 'string':
      if (typeof value !== 'string') return [`${path}: not a string`];
      if (shape.enum && !shape.enum.includes(value)) return [`${path}: "${value}" not one of ${shape.enum.join('|')}`];
      if (shape.format === 'date-time' && !ISO.test(value)) return [`${path}: not a date-time`];
      return [];
    case 'number':
    case 'boolean':
      return typeof value === shape.type ? [] : [`${path}: not a ${shape.type}`];
    case 'array':
      if (!Array.isArray(value)) return [`${path}: not an array`];
      return value.flatMap((item, i) => violations(item, shape.items, `${path}[${i}]`));
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
      const record = value as Record<string, unknown>;
      return Object.entries(shape.properties).flatMap(([key, inner]) =>
        key in record ? violations(record[key], inner, `${path}.${key}`) : [`${path}.${key}: missing`],
      );
    }
  }
}
