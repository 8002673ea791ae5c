import { Projection } from '../../../core/src/projection';
import { AccountEvent } from '../domain/account.decider';

export interface AccountDoc {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export const accountsProjection: Projection<AccountDoc, AccountEvent> = {
  name: 'accounts',
  version: 1,
  handles: ['AccountCreated'],
  indexes: [{ field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, event) {
    switch (event.type) {
      case 'AccountCreated':
        return { id: event.data.id, name: event.data.name, created_at: event.metadata.occurredAt, updated_at: event.metadata.occurredAt };
      default:
        return doc;
    }
  },
};
