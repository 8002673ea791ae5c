import { Projection } from '../../../core/src/projection';
import { MonitorEvent } from '../domain/monitor.decider';
import { CheckType, MonitorConfig } from '../domain/monitor-config';
import { LOCAL_LOCATION } from './locations';

/**
 * A monitor's configuration as its API shows it, indexed for lists and leases. Runs never write it: what they
 * change (state, last run, next round) is its monitor_states document's.
 */
export interface MonitorDoc {
  [field: string]: unknown;
  id: string;
  accountId: string;
  checkType: CheckType;
  /** Where it runs, indexed: `local`, and `<accountId>:<location>` per runner location. */
  places: string[];
  config: MonitorConfig;
  created_at: string;
  updated_at: string;
}

/** A document's configuration; a version 3 document (served while version 4 builds after an upgrade) keeps it in its `state`. */
export const configOf = (doc: MonitorDoc): MonitorConfig => doc.config ?? (doc as { state?: { config: MonitorConfig } }).state!.config;

/** The places a monitor's locations name: the embedded one as is, runner locations within the account. */
export const placesOf = (accountId: string, locations: string[]): string[] => locations.map((l) => (l === LOCAL_LOCATION ? l : `${accountId}:${l}`));

/** The configuration events: a document's revision is its newest one's, which monitor_states keeps as `configRevision`. */
export const CONFIG_EVENTS = ['MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'MonitorActivationChanged', 'MonitorMuteChanged'] as const;

/** One document per monitor, from its configuration events; deleted monitors disappear. */
export const monitorsProjection: Projection<MonitorDoc, MonitorEvent> = {
  name: 'monitors',
  version: 4,
  handles: CONFIG_EVENTS,
  indexes: [{ field: 'accountId' }, { field: 'checkType' }, { field: 'places', array: true }, { field: 'created_at' }, { field: 'updated_at' }],
  sortField: 'created_at',
  ids: (event) => (event.type === 'MonitorRunRecorded' ? [] : [event.data.id]),
  evolve(doc, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'MonitorCreated': {
        const { id, accountId, config } = event.data;
        return { id, accountId, checkType: config.checkType, places: placesOf(accountId, config.locations), config, created_at: at, updated_at: at };
      }
      case 'MonitorUpdated':
        return doc === null ? null : { ...doc, config: event.data.config, places: placesOf(doc.accountId, event.data.config.locations), updated_at: at };
      case 'MonitorActivationChanged':
        return doc === null ? null : { ...doc, config: { ...doc.config, activated: event.data.activated }, updated_at: at };
      case 'MonitorMuteChanged':
        return doc === null ? null : { ...doc, config: { ...doc.config, muted: event.data.muted }, updated_at: at };
      default:
        return null;
    }
  },
};
