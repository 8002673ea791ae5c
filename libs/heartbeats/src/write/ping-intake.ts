import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConcurrencyError, NotFoundError } from '../../../core/src/errors';
import { EventToAppend } from '../../../core/src/event';
import { iso } from '../../../core/src/time';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { PingReceivedData, pingedTimer, pingState } from '../domain/heartbeat-timer';
import { newEventId } from '../read/heartbeat-keys';
import { CheckEntry, CheckRegistry } from './check-registry';

export interface PingRequest {
  token: string;
  source: string | null;
  userAgent: string | null;
  requestId: string | null;
}

export type PingOutcome = { recorded: true; eventId: string; state: string } | { recorded: false };

const MAX_ATTEMPTS = 10;

/**
 * The hot path: token → check from memory, state from the check's timer, one append to
 * `heartbeat-<id>` expecting the revision the timer reflects. The promise resolves after the
 * commit (group commit in SQLite), so a 200 means durable. A conflict (another instance, the
 * watchdog, a reconfiguration got there first) reloads the timer and decides again.
 */
@Injectable()
export class PingIntake {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly registry: CheckRegistry,
  ) {}

  /** The live check a token pings, or null. */
  lookup(token: string): Promise<CheckEntry | null> {
    return this.registry.resolve(token);
  }

  /** The live check a token pings if memory alone tells (see CheckRegistry.peek), else null. */
  peek(token: string): CheckEntry | null {
    return this.registry.peek(token);
  }

  /** Throws NotFoundError for an unknown token. */
  async ping(request: PingRequest): Promise<PingOutcome> {
    const entry = await this.registry.resolve(request.token);
    if (!entry) throw new NotFoundError('Unknown ping token');
    return this.record(entry, request);
  }

  /** Records a ping for a check found by `lookup`; resolves once the event is committed. */
  async record(entry: CheckEntry, request: Omit<PingRequest, 'token'>): Promise<PingOutcome> {
    for (let attempt = 1; ; attempt++) {
      if (!entry.timer.activated) return { recorded: false };
      const now = this.clock.now().getTime();
      const before = entry.timer;
      const data: PingReceivedData = {
        eventId: newEventId(now),
        checkId: entry.checkId,
        state: pingState(before, now),
        at: iso(now),
        source: request.source,
        userAgent: request.userAgent,
      };
      if (before.failing) data.recoveredFrom = before.failingSince;
      const event: EventToAppend = {
        type: 'HeartbeatPingReceived',
        data: data as unknown as Record<string, unknown>,
        metadata: { accountId: entry.accountId, requestId: request.requestId, occurredAt: data.at },
      };
      const expectedRevision = entry.revision ?? 'no_stream';
      // Pings that follow in the same tick build on this one; a failed append unwinds them by conflict.
      entry.timer = pingedTimer(before, now);
      entry.revision = (entry.revision ?? -1n) + 1n;
      try {
        const result = await this.events.appendToStream(entry.stream, [event], { expectedRevision });
        void this.engine.applyAfterAppend(null, result.events);
        return { recorded: true, eventId: data.eventId, state: data.state };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) {
          entry.stale = true;
          throw error;
        }
        await this.registry.refresh(entry);
      }
    }
  }
}
