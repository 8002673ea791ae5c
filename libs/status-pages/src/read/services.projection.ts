import { Projection } from '../../../core/src/projection';
import { ServiceEvent } from '../domain/service.decider';

export interface ServiceDoc {
  id: string;
  accountId: string;
  name: string;
  /** Absent in docs built before services had one. */
  description?: string | null;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export const servicesProjection: Projection<ServiceDoc, ServiceEvent> = {
  name: 'services',
  version: 1,
  handles: ['ServiceCreated', 'ServiceUpdated', 'ServiceDeleted'],
  indexes: [{ field: 'accountId' }, { field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'ServiceCreated':
        return { id: e.data.id, accountId: e.data.accountId, name: e.data.name, description: e.data.description ?? null, created_at: at, updated_at: at };
      case 'ServiceUpdated':
        return doc && { ...doc, name: e.data.name, description: e.data.description ?? null, updated_at: at };
      case 'ServiceDeleted':
        return null;
      default:
        return doc;
    }
  },
};
