import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED } from '../../../platform/src/tokens';
import { RunLocationCommand } from './location.handler';
import { isActive, PresenceDoc, RunnerPresence } from './runner-presence';

/** While any runner reported within a day: how often presence is looked at. */
const EVERY_MS = 2000;
/** With none: a runner's first report is noticed within this. */
const IDLE_MS = 10_000;

/**
 * Where background work runs: tells each runner location's stream when its last active runner went
 * silent (LocationRunnersLost, which alerting tells the account) and when one reports again.
 */
@Injectable()
export class LocationWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  /** The up state each place's stream was last told, so an unchanged place costs no command. */
  private readonly told = new Map<string, boolean>();
  private readonly loop: BackgroundLoop;
  private passes = 0;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly presence: RunnerPresence,
    private readonly commands: CommandBus,
  ) {
    this.loop = new BackgroundLoop({ name: 'location watch', idleMs: IDLE_MS, firstMs: EVERY_MS, logger: this.logger, pass: () => this.runOnce() });
  }

  onApplicationBootstrap(): void {
    if (this.daemon) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Returns the wait until the next pass: EVERY_MS while runners are known, else the idle poll. */
  async runOnce(): Promise<number | null> {
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
    return places.size > 0 ? EVERY_MS : null;
  }
}
