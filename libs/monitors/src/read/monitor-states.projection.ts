import { RecordedEvent } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { MonitorEvent } from '../domain/monitor.decider';
import { evolveRounds, initialRounds, MonitorRounds } from '../domain/monitor-rounds.decider';
import { intervalSeconds, MonitorConfig } from '../domain/monitor-config';
import { MonitorRun } from '../domain/round';
import { monitorIdOf, RunRecordedData, runOf } from '../domain/run-codec';
import { LOCAL_LOCATION } from './locations';
import { CONFIG_EVENTS } from './monitors.projection';

/**
 * What a monitor's runs change, apart from its configuration: its rounds (the runs' command snapshot), its last
 * run, its next round. Small and indexed once, so a run writes little; its revision is the stream's.
 */
export interface MonitorStateDoc {
  [field: string]: unknown;
  id: string;
  rounds: MonitorRounds;
  /** The last run as its event holds it (read with `lastRunOf`). */
  lastRun: RunRecordedData | null;
  /** Activated monitors' next round time (ms); null when deactivated. */
  nextRunAt: number | null;
  /** nextRunAt of monitors on the embedded location, indexed: the scheduler's question, never a scan of runner locations' monitors. */
  localRunAt: number | null;
  activated: boolean;
  /** The interval between rounds (ms). */
  everyMs: number;
  /** The revision of the newest configuration event: the monitor's `monitors` document is as current as this one when its revision is this. */
  configRevision: number;
}

export const lastRunOf = (doc: MonitorStateDoc | null): MonitorRun | null => (doc?.lastRun ? runOf(doc.lastRun) : null);

const CONFIG_TYPES = new Set<string>(CONFIG_EVENTS);

/** Where a configuration leaves the schedule: whether it runs, how often, and whether on the embedded location. */
const scheduleOf = (config: MonitorConfig) => ({ activated: config.activated, everyMs: intervalSeconds(config) * 1000 });

/** One document per monitor, from every event of its stream; deleted monitors disappear. */
export const monitorStatesProjection: Projection<MonitorStateDoc, MonitorEvent> = {
  name: 'monitor_states',
  version: 1,
  handles: ['MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'MonitorActivationChanged', 'MonitorMuteChanged', 'MonitorRunRecorded', 'MonitorStateChanged', 'MonitorStillFailing'],
  indexes: [{ field: 'localRunAt' }],
  sortField: 'id',
  ids: (event) => [event.type === 'MonitorRunRecorded' ? monitorIdOf(event.stream) : event.data.id],
  evolve(doc, event) {
    const next = evolveDoc(doc, event);
    if (next === null) return null;
    const localRunAt = next.rounds.locations.includes(LOCAL_LOCATION) ? next.nextRunAt : null;
    return { ...next, localRunAt, configRevision: CONFIG_TYPES.has(event.type) ? Number(event.revision) : next.configRevision };
  },
};

function evolveDoc(doc: MonitorStateDoc | null, event: RecordedEvent<MonitorEvent>): MonitorStateDoc | null {
  const at = Date.parse(event.metadata.occurredAt);
  if (event.type === 'MonitorCreated') {
    // A new monitor's first round is at once.
    const rounds = evolveRounds(initialRounds(), event);
    return { id: event.data.id, rounds, lastRun: null, nextRunAt: at, localRunAt: null, ...scheduleOf(event.data.config), configRevision: Number(event.revision) };
  }
  if (doc === null || event.type === 'MonitorDeleted') return null;
  const rounds = evolveRounds(doc.rounds, event);
  switch (event.type) {
    case 'MonitorRunRecorded': {
      const run = runOf(event.data);
      // The next round follows this one's schedule, so a slow run does not push the ones after it.
      const next = run.final && run.roundAt === rounds.round?.at ? (doc.activated ? Date.parse(run.roundAt) + doc.everyMs : null) : doc.nextRunAt;
      return { ...doc, rounds, lastRun: event.data, nextRunAt: next };
    }
    case 'MonitorStateChanged':
    case 'MonitorStillFailing':
      return { ...doc, rounds };
    case 'MonitorActivationChanged':
      return { ...doc, rounds, activated: event.data.activated, nextRunAt: event.data.activated ? at : null };
    default: {
      // A replaced config may deactivate (no next round), reactivate (a round at once) or shorten the wait.
      const schedule = event.type === 'MonitorUpdated' ? scheduleOf(event.data.config) : { activated: doc.activated, everyMs: doc.everyMs };
      const nextRunAt = !schedule.activated ? null : doc.nextRunAt === null ? at : Math.min(doc.nextRunAt, at + schedule.everyMs);
      return { ...doc, rounds, ...schedule, nextRunAt };
    }
  }
}
