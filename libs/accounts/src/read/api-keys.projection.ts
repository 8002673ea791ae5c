import { Projection } from '../../../core/src/projection';
import { ApiKeyCreatedData, ApiKeyEvent } from '../domain/api-key.decider';

export interface ApiKeyDoc extends ApiKeyCreatedData {
  revoked: boolean;
  created_at: string;
  revoked_at: string | null;
  [field: string]: unknown;
}

export const apiKeysProjection: Projection<ApiKeyDoc, ApiKeyEvent> = {
  name: 'api_keys',
  version: 1,
  handles: ['ApiKeyCreated', 'ApiKeyRevoked'],
  indexes: [{ field: 'hash' }, { field: 'accountIds', array: true }, { field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'ApiKeyCreated':
        return { ...event.data, revoked: false, created_at: at, revoked_at: null };
      case 'ApiKeyRevoked':
        return doc ? { ...doc, revoked: true, revoked_at: at } : doc;
      default:
        return doc;
    }
  },
};
