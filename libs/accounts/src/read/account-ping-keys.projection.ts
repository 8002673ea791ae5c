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
export const accountPingKeysProjection: Projection<PingKeyDoc> = {
  name: 'account_ping_keys',
  version: 1,
  handles: ['AccountPingKeyIssued'],
  indexes: [{ field: 'pingKey' }],
  ids: (event) => [(event.data as { id: string }).id],
  evolve(doc, event) {
    const e = event as unknown as AccountEvent;
    if (e.type !== 'AccountPingKeyIssued') return doc;
    return { id: e.data.id, pingKey: e.data.pingKey, updated_at: event.metadata.occurredAt };
  },
};
