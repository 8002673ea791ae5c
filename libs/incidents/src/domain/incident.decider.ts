import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { INITIAL_STATUS, latestStatus, placeInTimeline, Severity, TimelineEntry, UpdateStatus } from './incident-timeline';

/** Most updates one incident keeps; its whole timeline lives in one read-model document. */
export const MAX_UPDATES_PER_INCIDENT = 500;

export interface PostedUpdateData {
  incidentId: string;
  updateId: string;
  description: string;
  status: UpdateStatus;
  publicIncidentUpdateDate: string;
  /** Subscribers must be told about this update; set only when it is first stored. */
  notifySubscribers: boolean;
}

export type IncidentEvent =
  | { type: 'IncidentCreated'; data: { incidentId: string; accountId: string; name: string; severity: Severity; serviceIds: string[] } }
  | { type: 'IncidentUpdatePosted'; data: PostedUpdateData }
  | { type: 'IncidentDetailsChanged'; data: { incidentId: string; name?: string; severity?: Severity; serviceIds?: string[] } }
  | {
      type: 'IncidentUpdateEdited';
      data: { incidentId: string; updateId: string; description: string; status: UpdateStatus; publicIncidentUpdateDate: string };
    }
  | { type: 'IncidentUpdateDeleted'; data: { incidentId: string; updateId: string } }
  | { type: 'IncidentDeleted'; data: { incidentId: string } };

export const INCIDENT_EVENT_TYPES: readonly IncidentEvent['type'][] = [
  'IncidentCreated',
  'IncidentUpdatePosted',
  'IncidentDetailsChanged',
  'IncidentUpdateEdited',
  'IncidentUpdateDeleted',
  'IncidentDeleted',
];

/** An update as a command brings it; `status` null means "the incident's current status". */
export interface NewUpdate {
  id: string;
  description: string;
  status: UpdateStatus | null;
  publicIncidentUpdateDate: string;
  notifySubscribers: boolean;
}

export type IncidentCommand =
  | { type: 'CreateIncident'; id: string; accountId: string; name: string; severity: Severity; serviceIds: string[]; updates: NewUpdate[] }
  | { type: 'ChangeIncident'; id: string; accountId: string; name?: string; severity?: Severity; serviceIds?: string[] }
  | { type: 'DeleteIncident'; id: string; accountId: string }
  | { type: 'PostIncidentUpdate'; id: string; accountId: string; update: NewUpdate }
  | {
      type: 'EditIncidentUpdate';
      id: string;
      accountId: string;
      updateId: string;
      description: string;
      /** null keeps the stored value. */
      status: UpdateStatus | null;
      publicIncidentUpdateDate: string | null;
    }
  | { type: 'DeleteIncidentUpdate'; id: string; accountId: string; updateId: string };

interface UpdateState extends TimelineEntry {
  id: string;
  description: string;
}

export interface IncidentState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  name: string | null;
  severity: Severity | null;
  serviceIds: string[];
  /** In timeline order. */
  updates: UpdateState[];
  /** Updates ever posted: the creation order of the next one. */
  posted: number;
}

function requireOwned(state: IncidentState, accountId: string): void {
  // Another account's incident, or a deleted one, is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId) throw new NotFoundError('Incident not found');
}

function requireUpdate(state: IncidentState, updateId: string): UpdateState {
  const update = state.updates.find((u) => u.id === updateId);
  if (!update) throw new NotFoundError('Incident update not found');
  return update;
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** Posts updates in the given order; each without a status takes the status the incident has at that point. */
function postUpdates(incidentId: string, state: IncidentState, updates: NewUpdate[]): IncidentEvent[] {
  let timeline: UpdateState[] = state.updates;
  let seq = state.posted;
  return updates.map((update) => {
    const { id: updateId, description, publicIncidentUpdateDate, notifySubscribers } = update;
    const status = update.status ?? latestStatus(timeline) ?? INITIAL_STATUS;
    timeline = placeInTimeline(timeline, { id: updateId, description, status, publicIncidentUpdateDate, seq: seq++ });
    return { type: 'IncidentUpdatePosted', data: { incidentId, updateId, description, status, publicIncidentUpdateDate, notifySubscribers } };
  });
}

export const incidentDecider: Decider<IncidentState, IncidentCommand, IncidentEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, name: null, severity: null, serviceIds: [], updates: [], posted: 0 }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateIncident': {
        if (state.status !== 'absent') throw new ConflictError('Incident already exists');
        const { id, accountId, name, severity, serviceIds } = command;
        return [{ type: 'IncidentCreated', data: { incidentId: id, accountId, name, severity, serviceIds } }, ...postUpdates(id, state, command.updates)];
      }
      case 'ChangeIncident': {
        requireOwned(state, command.accountId);
        const changes: { name?: string; severity?: Severity; serviceIds?: string[] } = {};
        if (command.name !== undefined && command.name !== state.name) changes.name = command.name;
        if (command.severity !== undefined && command.severity !== state.severity) changes.severity = command.severity;
        if (command.serviceIds !== undefined && !sameIds(command.serviceIds, state.serviceIds)) changes.serviceIds = command.serviceIds;
        return Object.keys(changes).length === 0 ? [] : [{ type: 'IncidentDetailsChanged', data: { incidentId: command.id, ...changes } }];
      }
      case 'DeleteIncident':
        requireOwned(state, command.accountId);
        return [{ type: 'IncidentDeleted', data: { incidentId: command.id } }];
      case 'PostIncidentUpdate':
        requireOwned(state, command.accountId);
        if (state.updates.length >= MAX_UPDATES_PER_INCIDENT) {
          throw new ConflictError(`An incident keeps at most ${MAX_UPDATES_PER_INCIDENT} updates`);
        }
        if (state.updates.some((u) => u.id === command.update.id)) throw new ConflictError('Incident update already exists');
        return postUpdates(command.id, state, [command.update]);
      case 'EditIncidentUpdate': {
        requireOwned(state, command.accountId);
        const current = requireUpdate(state, command.updateId);
        const status = command.status ?? current.status;
        const publicIncidentUpdateDate = command.publicIncidentUpdateDate ?? current.publicIncidentUpdateDate;
        const description = command.description;
        if (status === current.status && publicIncidentUpdateDate === current.publicIncidentUpdateDate && description === current.description) return [];
        return [{ type: 'IncidentUpdateEdited', data: { incidentId: command.id, updateId: command.updateId, description, status, publicIncidentUpdateDate } }];
      }
      case 'DeleteIncidentUpdate':
        requireOwned(state, command.accountId);
        requireUpdate(state, command.updateId);
        if (state.updates.length === 1) throw new ConflictError('An incident keeps at least one update; this is its only one');
        return [{ type: 'IncidentUpdateDeleted', data: { incidentId: command.id, updateId: command.updateId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'IncidentCreated': {
        const { accountId, name, severity, serviceIds } = event.data;
        return { ...state, status: 'active', accountId, name, severity, serviceIds };
      }
      case 'IncidentUpdatePosted': {
        const { updateId, description, status, publicIncidentUpdateDate } = event.data;
        const update = { id: updateId, description, status, publicIncidentUpdateDate, seq: state.posted };
        return { ...state, updates: placeInTimeline(state.updates, update), posted: state.posted + 1 };
      }
      case 'IncidentDetailsChanged': {
        const { name, severity, serviceIds } = event.data;
        return { ...state, name: name ?? state.name, severity: severity ?? state.severity, serviceIds: serviceIds ?? state.serviceIds };
      }
      case 'IncidentUpdateEdited': {
        const current = state.updates.find((u) => u.id === event.data.updateId);
        if (!current) return state;
        const { description, status, publicIncidentUpdateDate } = event.data;
        return { ...state, updates: placeInTimeline(state.updates, { ...current, description, status, publicIncidentUpdateDate }) };
      }
      case 'IncidentUpdateDeleted':
        return { ...state, updates: state.updates.filter((u) => u.id !== event.data.updateId) };
      case 'IncidentDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const incidentStream = (id: string) => `incident-${id}`;
