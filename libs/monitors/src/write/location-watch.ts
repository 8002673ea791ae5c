import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED } from '../../../platform/src/tokens';
import { RunLocationCommand } from './location.handler';
import { isActive, PresenceDoc, RunnerPresence } from './runner-presence';

const EVERY_MS = 2000;

/**
 * Where background work runs: tells each runner location's stream when its last active runner went
 * silent (LocationRunnersLost, which alerting tells the account) and when one reports again.
 */
@Injectable()
export class LocationWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  /** The up state each place's stream was last told, so an unchanged place costs no command. */
  private readonly told = new Map<string, boolean>();
  private timer: NodeJS.Timeout | null = null;
  private passes = 0;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly presence: RunnerPresence,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.daemon) return;
    const loop = async () => {
      await this.runOnce().catch((error: unknown) => this.logger.warn({ err: error }, 'location watch pass failed'));
      this.timer = setTimeout(loop, EVERY_MS);
    };
    this.timer = setTimeout(loop, EVERY_MS);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async runOnce(): Promise<void> {
    const now = this.clock.now().getTime();
    const places = new Map<string, PresenceDoc[]>();
    for (const doc of await this.presence.recent(now)) places.set(doc.place, [...(places.get(doc.place) ?? []), doc]);
    for (const [place, runners] of places) {
      const active = runners.filter((r) => isActive(r, now)).length;
      if (this.told.get(place) === active > 0) continue;
      const { accountId, location } = runners[0];
      await this.commands.execute(new RunLocationCommand({ type: 'ObserveLocation', accountId, location, activeRunners: active, at: new Date(now).toISOString() }, { accountId, keyName: 'location-watch' }));
      this.told.set(place, active > 0);
    }
    if (++this.passes % 900 === 0) await this.presence.forget(now);
  }
}
