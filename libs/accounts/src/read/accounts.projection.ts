import { asDecided, RecordedEvent } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { AccountEvent } from '../domain/account.decider';

export interface AccountDoc {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export const accountsProjection: Projection<AccountDoc> = {
  name: 'accounts',
  version: 1,
  handles: ['AccountCreated'],
  indexes: [{ field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [(event.data as { id: string }).id],
  evolve(doc, event: RecordedEvent) {
    const e = asDecided<AccountEvent & { metadata: { occurredAt: string } }>(event);
    switch (e.type) {
      case 'AccountCreated':
        return { id: e.data.id, name: e.data.name, created_at: event.metadata.occurredAt, updated_at: event.metadata.occurredAt };
      default:
        return doc;
    }
  },
};
