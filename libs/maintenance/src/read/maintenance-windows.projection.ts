import { Projection } from '../../../core/src/projection';
import { MaintenanceWindowEvent, WindowConfig } from '../domain/maintenance-window.decider';

export interface MaintenanceWindowDoc extends WindowConfig {
  id: string;
  accountId: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

/** Maintenance windows as the API shows them; `serviceIds` indexed for "is this service still used". */
export const maintenanceWindowsProjection: Projection<MaintenanceWindowDoc, MaintenanceWindowEvent> = {
  name: 'maintenance_windows',
  version: 1,
  handles: ['MaintenanceWindowCreated', 'MaintenanceWindowUpdated', 'MaintenanceWindowDeleted'],
  indexes: [{ field: 'accountId' }, { field: 'serviceIds', array: true }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'MaintenanceWindowCreated':
        return { ...e.data.config, id: e.data.id, accountId: e.data.accountId, created_at: at, updated_at: at };
      case 'MaintenanceWindowUpdated':
        return doc && { ...e.data.config, id: doc.id, accountId: doc.accountId, created_at: doc.created_at, updated_at: at };
      case 'MaintenanceWindowDeleted':
        return null;
      default:
        return doc;
    }
  },
};
