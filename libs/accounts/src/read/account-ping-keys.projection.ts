import { EventOf } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { AccountEvent } from '../domain/account.decider';

export interface PingKeyDoc {
  /** The account id. */
  id: string;
  pingKey: string;
  updated_at: string;
  [field: string]: unknown;
}

/** Each account's current ping key, indexed by key: slug URLs resolve `/ping/{pingKey}/…` to an account. */
export const accountPingKeysProjection: Projection<PingKeyDoc, EventOf<AccountEvent, 'AccountPingKeyIssued'>> = {
  name: 'account_ping_keys',
  version: 1,
  handles: ['AccountPingKeyIssued'],
  indexes: [{ field: 'pingKey' }],
  ids: (event) => [event.data.id],
  evolve: (doc, event) => ({ id: event.data.id, pingKey: event.data.pingKey, updated_at: event.metadata.occurredAt }),
};
