import { monitorIdOf } from '../domain/run-codec';
import { Projection } from '../../../core/src/projection';
import { MonitorEvent } from '../domain/monitor.decider';
import { MonitorConfig } from '../domain/monitor-config';

/** A monitor whose `triggerIncident` names a service: the link public pages follow to show the service's state. */
export interface ServiceMonitorDoc {
  [field: string]: unknown;
  id: string;
  accountId: string;
  serviceId: string;
  name: string;
  activated: boolean;
  severity: string;
  /** The monitor's state, kept here so a page's cache changes with states, not with every run. */
  state: string | null;
}

const linkOf = (id: string, accountId: string | null | undefined, config: MonitorConfig, state: string | null): ServiceMonitorDoc | null =>
  config.triggerIncident && accountId ? { id, accountId, serviceId: config.triggerIncident.serviceId, name: config.name, activated: config.activated, severity: config.triggerIncident.severity, state } : null;

/** One document per monitor linked to a service, indexed by service; a monitor unlinked or deleted leaves it. */
export const serviceMonitorsProjection: Projection<ServiceMonitorDoc, MonitorEvent> = {
  name: 'service_monitors',
  version: 1,
  handles: ['MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'MonitorActivationChanged', 'MonitorStateChanged'],
  indexes: [{ field: 'serviceId' }],
  sortField: 'id',
  ids: (event) => [event.type === 'MonitorRunRecorded' ? monitorIdOf(event.stream) : event.data.id],
  evolve(doc, event) {
    switch (event.type) {
      case 'MonitorCreated':
        return linkOf(event.data.id, event.data.accountId, event.data.config, null);
      case 'MonitorUpdated':
        // A monitor linked only now has had its state all along: it shows from its next change.
        return linkOf(event.data.id, doc?.accountId ?? event.metadata.accountId, event.data.config, doc?.state ?? null);
      case 'MonitorDeleted':
        return null;
      case 'MonitorActivationChanged':
        return doc === null ? null : { ...doc, activated: event.data.activated };
      case 'MonitorStateChanged':
        return doc === null ? null : { ...doc, state: event.data.to };
      default:
        return doc;
    }
  },
};
