import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { LocationEvent } from '../../../monitors/src/monitors.api';
import { CheckAlert } from '../domain/alert-message';
import { ChannelDirectory } from '../read/channel-directory';
import { channelDelivery } from './alert-fan-out';
import { deliveryId, Outbox } from './outbox';

const MAX_CHANNELS = 1000;

/**
 * A runner location whose runners all stopped reporting alerts every channel of its account that sends
 * failures (no check subscribes to a location); one that reports again, those that send recoveries.
 * Delivery ids come from the event, so handling it twice adds nothing.
 */
@Injectable()
export class LocationAlerts implements Processor<LocationEvent> {
  readonly name = 'location-alerts';
  readonly handles = ['LocationRunnersLost', 'LocationRunnersReporting'] as const;
  readonly startAt = 'head' as const;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly channels: ChannelDirectory,
    private readonly outbox: Outbox,
  ) {}

  async handle(event: RecordedEvent<LocationEvent>): Promise<void> {
    const { accountId, location, at } = event.data;
    const lost = event.type === 'LocationRunnersLost';
    if (!lost && event.data.downtimeMs === null) return;
    const alert: CheckAlert = {
      alertType: lost ? 'ALERT_FAILURE' : 'ALERT_RECOVERY',
      checkId: null,
      checkName: lost ? `Location ${location}: no runner reports` : `Location ${location}: runners report again`,
      tags: [`location:${location}`],
      outageId: null,
      startedAt: lost ? at : null,
      at,
      downtimeSeconds: lost ? null : Math.round((event.data.downtimeMs ?? 0) / 1000),
    };
    const now = this.clock.now();
    for (const channel of await this.channels.list(accountId, MAX_CHANNELS, undefined)) {
      if (lost ? !channel.sendFailure : !channel.sendRecovery) continue;
      await this.outbox.add(channelDelivery(channel, alert, deliveryId(event.stream, event.revision.toString(), alert.alertType, channel.id), now));
    }
  }
}
