import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { ChannelSettings } from './alert-channel';
import { alertChannelDecider, AlertChannelEvent, alertChannelStream } from './alert-channel.decider';

const ID = '01900000-0000-7000-8000-0000000000c1';
const ACCOUNT = 'acc-1';
const spec = specFor(alertChannelDecider);
const settings = (address = 'a@example.com'): ChannelSettings => ({
  type: 'EMAIL',
  config: { address },
  sendRecovery: true,
  sendFailure: true,
  sendDegraded: false,
  sslExpiry: false,
  sslExpiryThreshold: 30,
});
const created: AlertChannelEvent = { type: 'AlertChannelCreated', data: { id: ID, accountId: ACCOUNT, settings: settings() } };

describe('alert channel decider', () => {
  it('keeps each channel in its own stream', () => expect(alertChannelStream(ID)).toBe(`alertchannel-${ID}`));

  it('creates once', () => {
    spec.given([]).when({ type: 'CreateAlertChannel', id: ID, accountId: ACCOUNT, settings: settings() }).then([created]);
    spec.given([created]).when({ type: 'CreateAlertChannel', id: ID, accountId: ACCOUNT, settings: settings() }).thenThrows(ConflictError);
  });

  it('updates only what changed', () => {
    spec.given([created]).when({ type: 'UpdateAlertChannel', id: ID, accountId: ACCOUNT, settings: settings() }).then([]);
    spec
      .given([created])
      .when({ type: 'UpdateAlertChannel', id: ID, accountId: ACCOUNT, settings: settings('b@example.com') })
      .then([{ type: 'AlertChannelUpdated', data: { id: ID, settings: settings('b@example.com') } }]);
  });

  it('hides other accounts and deleted channels behind 404', () => {
    spec.given([created]).when({ type: 'DeleteAlertChannel', id: ID, accountId: 'acc-2' }).thenThrows(NotFoundError);
    spec.given([created, { type: 'AlertChannelDeleted', data: { id: ID } }]).when({ type: 'RequestAlertChannelTest', id: ID, accountId: ACCOUNT, notificationId: 'n' }).thenThrows(NotFoundError);
    spec.given([]).when({ type: 'UpdateAlertChannel', id: ID, accountId: ACCOUNT, settings: settings() }).thenThrows(NotFoundError);
  });

  it('records test requests with their notification id', () => {
    spec
      .given([created])
      .when({ type: 'RequestAlertChannelTest', id: ID, accountId: ACCOUNT, notificationId: 'n1' })
      .then([{ type: 'AlertChannelTestRequested', data: { id: ID, accountId: ACCOUNT, notificationId: 'n1' } }]);
  });

  it('retries a FAILED delivery of its own channel only, recording who asked', () => {
    const retry = { type: 'RetryAlertDelivery' as const, id: ID, accountId: ACCOUNT, notificationId: 'n2', failed: true };
    spec.given([created]).when(retry).then([{ type: 'AlertChannelDeliveryRetried', data: { id: ID, accountId: ACCOUNT, notificationId: 'n2' } }]);
    spec.given([created]).when({ ...retry, failed: false }).then([]);
    spec.given([created]).when({ ...retry, accountId: 'acc-2' }).thenThrows(NotFoundError);
    spec.given([created, { type: 'AlertChannelDeleted', data: { id: ID } }]).when(retry).thenThrows(NotFoundError);
  });
});
