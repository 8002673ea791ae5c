import { RecordedEvent } from '../../../core/src/event';

/**
 * What the audit log records of an event: the changes of people, keys and Vigil's own background work to the
 * account's resources. High-volume signals (pings, monitor runs) and people's own sign-ins are not changes.
 */
export const AUDITED_EVENTS = [
  'AccountCreated', 'AccountPingKeyIssued',
  'ApiKeyCreated', 'ApiKeyRevoked',
  'AlertChannelCreated', 'AlertChannelUpdated', 'AlertChannelDeleted', 'AlertChannelTestRequested',
  'HeartbeatCheckCreated', 'HeartbeatCheckUpdated', 'HeartbeatCheckDeleted', 'HeartbeatPaused',
  'IncidentCreated', 'IncidentUpdatePosted', 'IncidentDetailsChanged', 'IncidentUpdateEdited', 'IncidentUpdateDeleted', 'IncidentDeleted',
  'IncidentTemplateCreated', 'IncidentTemplateChanged', 'IncidentTemplateDeleted',
  'MaintenanceWindowCreated', 'MaintenanceWindowUpdated', 'MaintenanceWindowDeleted',
  'MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'MonitorActivationChanged', 'MonitorMuteChanged',
  'MemberAdded', 'MemberRoleChanged', 'MemberRemoved', 'InvitationCreated', 'InvitationAccepted', 'InvitationRevoked',
  'ServiceCreated', 'ServiceUpdated', 'ServiceDeleted',
  'StatusPageCreated', 'StatusPageUpdated', 'StatusPageDeleted', 'StatusPageDomainVerified', 'StatusPageDomainVerificationLost',
  'StatusPageSubscriptionsAdded', 'StatusPageSubscriptionRemoved', 'StatusPageSubscriptionVerified', 'StatusPageSubscriptionsClosed',
] as const;

/** Stream prefix → the resource type the audit log names (longest prefixes first). */
const RESOURCE_TYPES: readonly [string, string][] = [
  ['statuspage-subscriptions-', 'status-page'],
  ['statuspage-', 'status-page'],
  ['incident-', 'incident'],
  ['incidenttemplate-', 'incident-template'],
  ['service-', 'service'],
  ['check-', 'check'],
  ['heartbeat-', 'check'],
  ['maintenance-', 'maintenance-window'],
  ['monitor-', 'monitor'],
  ['alertchannel-', 'alert-channel'],
  ['apikey-', 'api-key'],
  ['account-', 'account'],
  ['team-', 'team'],
];

export const RESOURCE_TYPE_NAMES = [...new Set(RESOURCE_TYPES.map(([, type]) => type))];

/** Longest a value is kept, in characters; fields a snapshot keeps; fields one change shows. */
const MAX_VALUE = 200;
export const MAX_SNAPSHOT_FIELDS = 200;
const MAX_CHANGE_FIELDS = 40;

/** Never shown, only said to have changed: credentials, their hashes, and anything that may carry one. */
const HIDDEN = /secret|hash|token|password|pingkey|headers|credential|signing|auth/i;
export const HIDDEN_VALUE = '(hidden)';

interface Resource {
  type: string;
  id: string;
}

/** One field of a change: null is "not set". */
export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

/** Who made a change: a person (console session), an API key, or Vigil itself. */
export interface AuditActor {
  kind: 'person' | 'key' | 'system';
  id: string | null;
  /** The key's name; a person's email is looked up when shown. */
  name: string | null;
}

export function resourceOf(stream: string): Resource | null {
  for (const [prefix, type] of RESOURCE_TYPES) if (stream.startsWith(prefix)) return { type, id: stream.slice(prefix.length) };
  return null;
}

export function actorOf(event: RecordedEvent): AuditActor {
  const m = event.metadata;
  if (m.userId) return { kind: 'person', id: m.userId, name: null };
  if (m.keyId) return { kind: 'key', id: m.keyId, name: m.keyName ?? null };
  return { kind: 'system', id: null, name: m.keyName ?? null };
}

/** The filterable name of an actor: `person:<id>`, `key:<id>` or `system`. */
export const actorKey = (actor: AuditActor) => (actor.id ? `${actor.kind}:${actor.id}` : actor.kind);

/** The account an event belongs to: its metadata's, else the one its data names. */
export function accountOf(event: RecordedEvent): string | null {
  const data = event.data as Record<string, unknown>;
  return event.metadata.accountId ?? (typeof data.accountId === 'string' ? data.accountId : null);
}

/** An event's effect on a resource's fields: `set` values (flattened, bounded, secrets hidden), or a removal of a prefix. */
interface Patch {
  set: Record<string, string | null>;
  /** Fields starting with this are removed (`''`: the whole resource). */
  remove: string | null;
}

const REMOVALS = /(Deleted|Removed|Closed)$/;

/**
 * The fields an event sets. A part of a resource (an incident's update, a member, a subscription) is named by
 * its id, so its fields read `update 1a2b3c4d.status`; the resource's own id and the account are not fields.
 */
export function patchOf(event: RecordedEvent, resource: Resource): Patch {
  const data = { ...(event.data as Record<string, unknown>) };
  delete data.accountId;
  let prefix = '';
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !(key === 'id' || key.endsWith('Id'))) continue;
    delete data[key];
    if (value !== resource.id && !prefix) prefix = `${key === 'id' ? 'item' : key.slice(0, -2)} ${value.slice(-8)}.`;
  }
  if (REMOVALS.test(event.type)) return { set: {}, remove: prefix };
  const set: Record<string, string | null> = {};
  flatten(data, prefix, set, resource.type === 'alert-channel');
  return { set, remove: null };
}

function flatten(value: Record<string, unknown>, prefix: string, into: Record<string, string | null>, hideUrls: boolean, depth = 0): void {
  for (const [key, inner] of Object.entries(value)) {
    // Wrappers such as `config`, `settings` and `page` hold the resource's own fields.
    const name = depth === 0 && ['config', 'settings', 'page'].includes(key) ? prefix : `${prefix}${key}`;
    if (inner && typeof inner === 'object' && !Array.isArray(inner) && depth < 2 && !HIDDEN.test(key)) {
      flatten(inner as Record<string, unknown>, name === prefix ? prefix : `${name}.`, into, hideUrls, depth + 1);
    } else if (Object.keys(into).length < MAX_SNAPSHOT_FIELDS) {
      into[name] = HIDDEN.test(key) || (hideUrls && /url$/i.test(key)) ? HIDDEN_VALUE : shown(inner);
    }
  }
}

/** A value as the log shows it: text, bounded; null and undefined are "not set". */
function shown(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  // Nested values are shown as JSON, with the same fields hidden as at the top.
  const text = typeof value === 'string' ? value : JSON.stringify(value, (key, inner: unknown) => (key && HIDDEN.test(key) ? HIDDEN_VALUE : inner));
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** Applies a patch to a snapshot: the new snapshot and the fields that changed (before → after). */
export function applyPatch(snapshot: Record<string, string | null>, patch: Patch): { next: Record<string, string | null>; changes: FieldChange[] } {
  const next = { ...snapshot };
  const changes: FieldChange[] = [];
  if (patch.remove !== null) {
    for (const [field, before] of Object.entries(snapshot)) {
      if (!field.startsWith(patch.remove)) continue;
      delete next[field];
      if (before !== null) changes.push({ field, before, after: null });
    }
  }
  for (const [field, after] of Object.entries(patch.set)) {
    const before = snapshot[field] ?? null;
    // A hidden value is always said to have changed: its text cannot tell.
    if (before !== after || after === HIDDEN_VALUE) changes.push({ field, before, after });
    delete next[field];
    next[field] = after;
  }
  // Bounded: the fields set longest ago go first.
  const fields = Object.keys(next);
  for (const field of fields.slice(0, Math.max(0, fields.length - MAX_SNAPSHOT_FIELDS))) delete next[field];
  return { next, changes: changes.slice(0, MAX_CHANGE_FIELDS) };
}

/** `IncidentUpdatePosted` → `incident update posted`: what happened, in words. */
export function actionOf(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
