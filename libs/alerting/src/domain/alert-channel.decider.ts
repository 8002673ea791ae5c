import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { ChannelSettings } from './alert-channel';

export type AlertChannelEvent =
  | { type: 'AlertChannelCreated'; data: { id: string; accountId: string; settings: ChannelSettings } }
  | { type: 'AlertChannelUpdated'; data: { id: string; settings: ChannelSettings } }
  | { type: 'AlertChannelDeleted'; data: { id: string } }
  /** POST …/test: the notifier turns it into an ALERT_TEST delivery with this id. */
  | { type: 'AlertChannelTestRequested'; data: { id: string; accountId: string; notificationId: string } }
  /** A FAILED delivery of the channel is sent again (the handler makes it due in the outbox). */
  | { type: 'AlertChannelDeliveryRetried'; data: { id: string; accountId: string; notificationId: string } };

export type AlertChannelCommand =
  | { type: 'CreateAlertChannel'; id: string; accountId: string; settings: ChannelSettings }
  | { type: 'UpdateAlertChannel'; id: string; accountId: string; settings: ChannelSettings }
  | { type: 'DeleteAlertChannel'; id: string; accountId: string }
  | { type: 'RequestAlertChannelTest'; id: string; accountId: string; notificationId: string }
  /** `failed`: the delivery's status in the outbox, read by the handler; only a FAILED one is retried. */
  | { type: 'RetryAlertDelivery'; id: string; accountId: string; notificationId: string; failed: boolean };

export interface AlertChannelState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  settings: ChannelSettings | null;
}

export function requireChannel(state: AlertChannelState, accountId: string): ChannelSettings {
  // Another account's channel is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId || !state.settings) throw new NotFoundError('Alert channel not found');
  return state.settings;
}

export const alertChannelDecider: Decider<AlertChannelState, AlertChannelCommand, AlertChannelEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, settings: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateAlertChannel':
        if (state.status !== 'absent') throw new ConflictError('Alert channel already exists');
        return [{ type: 'AlertChannelCreated', data: { id: command.id, accountId: command.accountId, settings: command.settings } }];
      case 'UpdateAlertChannel': {
        const current = requireChannel(state, command.accountId);
        if (JSON.stringify(current) === JSON.stringify(command.settings)) return [];
        return [{ type: 'AlertChannelUpdated', data: { id: command.id, settings: command.settings } }];
      }
      case 'DeleteAlertChannel':
        requireChannel(state, command.accountId);
        return [{ type: 'AlertChannelDeleted', data: { id: command.id } }];
      case 'RequestAlertChannelTest':
        requireChannel(state, command.accountId);
        return [{ type: 'AlertChannelTestRequested', data: { id: command.id, accountId: command.accountId, notificationId: command.notificationId } }];
      case 'RetryAlertDelivery':
        requireChannel(state, command.accountId);
        // Sent, pending or suppressed: nothing to retry, and nothing recorded.
        return command.failed ? [{ type: 'AlertChannelDeliveryRetried', data: { id: command.id, accountId: command.accountId, notificationId: command.notificationId } }] : [];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AlertChannelCreated':
        return { status: 'active', accountId: event.data.accountId, settings: event.data.settings };
      case 'AlertChannelUpdated':
        return { ...state, settings: event.data.settings };
      case 'AlertChannelDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const alertChannelStream = (id: string) => `alertchannel-${id}`;
