import { Projection } from '../../../core/src/projection';
import { LocationEvent } from '../domain/location.decider';
import { RunnerKeyData, RunnerKeyEvent } from '../domain/runner-key.decider';

export interface RunnerKeyDoc extends RunnerKeyData {
  [field: string]: unknown;
  revoked: boolean;
  created_at: string;
  revoked_at: string | null;
}

/** Runner keys by hash (how a runner is recognised) and by account. */
export const runnerKeysProjection: Projection<RunnerKeyDoc, RunnerKeyEvent> = {
  name: 'runner_keys',
  version: 1,
  handles: ['RunnerKeyCreated', 'RunnerKeyRevoked'],
  indexes: [{ field: 'hash' }, { field: 'accountId' }, { field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, event) {
    const at = event.metadata.occurredAt;
    if (event.type === 'RunnerKeyCreated') return { ...event.data, revoked: false, created_at: at, revoked_at: null };
    return doc ? { ...doc, revoked: true, revoked_at: at } : doc;
  },
};

export interface LocationDoc {
  [field: string]: unknown;
  id: string;
  accountId: string;
  location: string;
  up: boolean;
  since: string;
}

/** Whether each runner location reports, as its stream last said. */
export const runnerLocationsProjection: Projection<LocationDoc, LocationEvent> = {
  name: 'runner_locations',
  version: 1,
  handles: ['LocationRunnersLost', 'LocationRunnersReporting'],
  indexes: [{ field: 'accountId' }],
  sortField: 'location',
  ids: (event) => [`${event.data.accountId}:${event.data.location}`],
  evolve(_doc, event, id) {
    const { accountId, location, at } = event.data;
    return { id, accountId, location, up: event.type === 'LocationRunnersReporting', since: at };
  },
};
