import { Projection } from '../../../core/src/projection';
import { ChannelSettings } from '../domain/alert-channel';
import { AlertChannelEvent } from '../domain/alert-channel.decider';

export interface ChannelDoc extends ChannelSettings {
  id: string;
  accountId: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

/** One document per channel, its secrets unmasked (masking is the response's job). */
export const alertChannelsProjection: Projection<ChannelDoc, AlertChannelEvent> = {
  name: 'alert_channels',
  version: 1,
  handles: ['AlertChannelCreated', 'AlertChannelUpdated', 'AlertChannelDeleted'],
  indexes: [{ field: 'accountId' }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'AlertChannelCreated':
        return { id: e.data.id, accountId: e.data.accountId, ...e.data.settings, created_at: at, updated_at: at };
      case 'AlertChannelUpdated':
        return doc && { ...doc, ...e.data.settings, updated_at: at };
      case 'AlertChannelDeleted':
        return null;
      default:
        return doc;
    }
  },
};
