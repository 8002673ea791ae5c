import { RecordedEvent } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { MonitorEvent, monitorDecider, MonitorState } from '../domain/monitor.decider';
import { CheckType, intervalSeconds } from '../domain/monitor-config';
import { MonitorRun } from '../domain/round';
import { monitorIdOf, runOf } from '../domain/run-codec';
import { LOCAL_LOCATION } from './locations';

/** A monitor as its API shows it, the decider's state (the command handler's snapshot) and the scheduler's next round. */
export interface MonitorDoc {
  [field: string]: unknown;
  id: string;
  accountId: string;
  checkType: CheckType;
  /** Activated monitors' next round time (ms); null when deactivated. */
  nextRunAt: number | null;
  /** nextRunAt of monitors on the embedded location, indexed: the scheduler's question, never a scan of runner locations' monitors. */
  localRunAt?: number | null;
  /** Where it runs, indexed: `local`, and `<accountId>:<location>` per runner location. */
  places: string[];
  state: MonitorState;
  lastRun: MonitorRun | null;
  created_at: string;
  updated_at: string;
}

function nextRun(state: MonitorState, from: number): number | null {
  if (!state.config || !state.config.activated || state.deleted) return null;
  return from + intervalSeconds(state.config) * 1000;
}

/** The places a monitor's locations name: the embedded one as is, runner locations within the account. */
export const placesOf = (accountId: string, locations: string[]): string[] => locations.map((l) => (l === LOCAL_LOCATION ? l : `${accountId}:${l}`));

/** One document per monitor, from its own stream; deleted monitors disappear. */
export const monitorsProjection: Projection<MonitorDoc, MonitorEvent> = {
  name: 'monitors',
  version: 3,
  handles: ['MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'MonitorActivationChanged', 'MonitorMuteChanged', 'MonitorRunRecorded', 'MonitorStateChanged', 'MonitorStillFailing'],
  indexes: [{ field: 'accountId' }, { field: 'checkType' }, { field: 'localRunAt' }, { field: 'places', array: true }, { field: 'created_at' }, { field: 'updated_at' }],
  sortField: 'created_at',
  ids: (event) => [event.type === 'MonitorRunRecorded' ? monitorIdOf(event.stream) : event.data.id],
  evolve(doc, event) {
    const next = evolveDoc(doc, event);
    return next === null ? null : { ...next, localRunAt: next.places.includes(LOCAL_LOCATION) ? next.nextRunAt : null };
  },
};

function evolveDoc(doc: MonitorDoc | null, event: RecordedEvent<MonitorEvent>): MonitorDoc | null {
  const at = event.metadata.occurredAt;
  if (event.type === 'MonitorCreated') {
    const state = monitorDecider.evolve(monitorDecider.initialState(), event);
    // A new monitor's first round is at once.
    const { id, accountId, config } = event.data;
    return { id, accountId, checkType: config.checkType, nextRunAt: Date.parse(at), places: placesOf(accountId, config.locations), state, lastRun: null, created_at: at, updated_at: at };
  }
  if (doc === null) return null;
  if (event.type === 'MonitorDeleted') return null;
  const state = monitorDecider.evolve(doc.state, event);
  switch (event.type) {
    case 'MonitorRunRecorded': {
      const run = runOf(event.data);
      // The next round follows this one's schedule, so a slow run does not push the ones after it.
      const next = run.final && run.roundAt === state.round?.at ? nextRun(state, Date.parse(run.roundAt)) : doc.nextRunAt;
      return { ...doc, state, lastRun: run, nextRunAt: next };
    }
    case 'MonitorStateChanged':
    case 'MonitorStillFailing':
      return { ...doc, state };
    case 'MonitorActivationChanged':
      return { ...doc, state, updated_at: at, nextRunAt: event.data.activated ? Date.parse(at) : null };
    default: {
      // A replaced config may deactivate (no next round), reactivate (a round at once) or shorten the wait.
      const soonest = nextRun(state, Date.parse(at));
      const nextRunAt = soonest === null ? null : doc.nextRunAt === null ? Date.parse(at) : Math.min(doc.nextRunAt, soonest);
      return { ...doc, state, updated_at: at, nextRunAt, places: placesOf(doc.accountId, state.config?.locations ?? []) };
    }
  }
}
