import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConcurrencyError } from '../../../core/src/errors';
import { RecordedEvent } from '../../../core/src/event';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { heartbeatStream, scheduleChange } from '../domain/heartbeat-timer';
import { CheckRegistry } from './check-registry';
import { TimerLoader } from './timer-loader';

const MAX_ATTEMPTS = 20;

/**
 * Copies a check's schedule (period, grace, activation, token, deletion) onto its heartbeat stream
 * after every configuration change. Idempotent: it compares the check revision the timer reflects
 * with the check's own, so a retry, a second instance or the watchdog after a crash between the two
 * appends all converge on one HeartbeatScheduleChanged per configuration.
 */
@Injectable()
export class ScheduleSync {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly timers: TimerLoader,
    private readonly registry: CheckRegistry,
  ) {}

  /** Returns the appended event, if any. */
  async sync(checkId: string, actor: Actor): Promise<RecordedEvent[]> {
    for (let attempt = 1; ; attempt++) {
      const check = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
      if (check.revision === null || !check.state.accountId) return [];
      const { timer, revision } = await this.timers.load(checkId);
      const config = check.state.status === 'active' ? check.state.config : null;
      const change = scheduleChange(checkId, config, Number(check.revision), timer, this.clock.now());
      if (!change) return [];
      try {
        const result = await this.events.appendToStream(
          heartbeatStream(checkId),
          [
            {
              type: 'HeartbeatScheduleChanged',
              data: change as unknown as Record<string, unknown>,
              metadata: {
                accountId: check.state.accountId,
                keyId: actor.keyId ?? null,
                keyName: actor.keyName ?? null,
                requestId: actor.requestId ?? null,
                occurredAt: this.clock.now().toISOString(),
              },
            },
          ],
          { expectedRevision: revision ?? 'no_stream' },
        );
        await this.engine.applyAfterAppend(null, result.events);
        this.registry.observe(result.events);
        return result.events;
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }
}
