import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { iso } from '../../../core/src/time';
import { Actor, CommandRunner, RunResult, SnapshotLoader } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { HeartbeatCommand, heartbeatDecider, PingSignal } from '../domain/heartbeat.decider';
import { HeartbeatEvent, heartbeatStream, TimerState } from '../domain/heartbeat-timer';
import { CheckDoc, heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { newEventId } from '../read/heartbeat-keys';
import { heartbeatTimersProjection, TimerDoc, toTimerState } from '../read/heartbeat-timers.projection';

export interface PingRequest {
  source: string | null;
  userAgent: string | null;
  requestId: string | null;
  signal?: PingSignal;
  exitCode?: number;
  rid?: string | null;
  /** The raw POST body; its first PING_BODY_LIMIT bytes are kept. */
  body?: Buffer | null;
}

/** Contract §4.1: the first 10,000 bytes of a POST body are stored with its event (header `Ping-Body-Limit`). */
export const PING_BODY_LIMIT = 10_000;

/** A ping of a deactivated check is answered but not recorded. */
export type PingOutcome = { recorded: true; eventId: string; state: string } | { recorded: false };

/**
 * Every write to `heartbeat-<id>` (pings, the watchdog's failures, schedule copies) is a command of
 * the heartbeat decider run by the shared command runner, starting from the timer document as a
 * snapshot: the decision sees every committed event, and a conflict is decided again.
 */
@Injectable()
export class HeartbeatCommands {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The timer of the live check a ping token belongs to (indexed read-model query), or null. */
  async timerOfToken(token: string): Promise<TimerDoc | null> {
    const [timer] = await this.store.find<TimerDoc>(this.engine.collection(heartbeatTimersProjection), {
      filters: [{ field: 'pingToken', op: 'eq', value: token }],
      limit: 1,
    });
    if (!timer || timer.deleted) return null;
    if (timer.accountId) return timer;
    const check = await this.store.get<CheckDoc>(this.engine.collection(heartbeatChecksProjection), timer.id);
    return check ? { ...timer, accountId: check.doc.accountId } : null;
  }

  /** Resolves once the ping is committed; the timer just read is the snapshot of the first attempt. */
  async ping(timer: TimerDoc, request: PingRequest): Promise<PingOutcome> {
    const now = this.clock.now().getTime();
    const command: HeartbeatCommand = { type: 'Ping', eventId: newEventId(now), at: iso(now), source: request.source, userAgent: request.userAgent };
    if (request.signal) command.signal = request.signal;
    if (request.exitCode !== undefined) command.exitCode = request.exitCode;
    if (request.rid) command.rid = request.rid;
    if (request.body && request.body.length > 0) {
      command.body = request.body.subarray(0, PING_BODY_LIMIT).toString('utf8');
      if (request.body.length > PING_BODY_LIMIT) command.truncated = true;
    }
    let first: TimerDoc | null = timer;
    const snapshot: SnapshotLoader<TimerState> = async () => {
      const doc = first ?? (await this.store.get<TimerDoc>(this.engine.collection(heartbeatTimersProjection), timer.id))?.doc;
      first = null;
      return doc ? { state: toTimerState(doc), revision: BigInt(doc.streamRevision) } : null;
    };
    const actor = { accountId: timer.accountId ?? null, requestId: request.requestId };
    const { decided } = await this.runner.run(heartbeatStream(timer.id), heartbeatDecider, command, actor, { snapshot });
    const event = decided[0];
    if (!event || !('eventId' in event.data)) return { recorded: false };
    return { recorded: true, eventId: event.data.eventId, state: event.type === 'HeartbeatPingReceived' ? event.data.state : event.type };
  }

  /** Restarts the timer at `until` (a maintenance's end) instead of failing `deadline`; true when written. `timer`: the watchdog's copy, the first snapshot. */
  async deferForMaintenance(check: CheckDoc, deadline: number, until: number, timer?: TimerDoc): Promise<boolean> {
    const command: HeartbeatCommand = { type: 'DeferForMaintenance', deadline, until };
    const { appended } = await this.run(check.id, command, { accountId: check.accountId, keyName: 'watchdog' }, timer);
    return appended.length > 0;
  }

  /** Stops the timer until the next ping; false when the check has no running timer (deactivated, deleted). */
  async pause(checkId: string, actor: Actor): Promise<boolean> {
    const command: HeartbeatCommand = { type: 'Pause', at: iso(this.clock.now().getTime()) };
    const { appended } = await this.run(checkId, command, actor);
    return appended.length > 0;
  }

  /** Fails `deadline` unless a ping or another watchdog moved it first; true when this call wrote the FAILING. `timer`: as above. */
  async fail(check: CheckDoc, deadline: number, timer?: TimerDoc): Promise<boolean> {
    const command: HeartbeatCommand = { type: 'Fail', eventId: newEventId(deadline), deadline };
    const { appended } = await this.run(check.id, command, { accountId: check.accountId, keyName: 'watchdog' }, timer);
    return appended.length > 0;
  }

  /** Copies the check's configuration onto its timer; idempotent, so retries and other instances converge. */
  async reschedule(checkId: string, actor: Actor): Promise<boolean> {
    const check = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
    if (check.revision === null || !check.state.accountId) return false;
    const config = check.state.status === 'active' ? check.state.config : null;
    const command: HeartbeatCommand = { type: 'Reschedule', checkId, config, checkRevision: Number(check.revision), at: this.clock.now() };
    const { appended } = await this.run(checkId, command, { ...actor, accountId: check.state.accountId });
    return appended.length > 0;
  }

  private run(checkId: string, command: HeartbeatCommand, actor: Actor, first?: TimerDoc): Promise<RunResult<TimerState, HeartbeatEvent>> {
    return this.runner.run(heartbeatStream(checkId), heartbeatDecider, command, actor, { snapshot: this.timerSnapshot(checkId, first) });
  }

  /** The timer document as the snapshot; `first` (a copy the caller already read) serves the first attempt, a retry reads again. */
  private timerSnapshot(checkId: string, first?: TimerDoc): SnapshotLoader<TimerState> {
    let given = first ?? null;
    return async () => {
      const doc = given ?? (await this.store.get<TimerDoc>(this.engine.collection(heartbeatTimersProjection), checkId))?.doc;
      given = null;
      return doc ? { state: toTimerState(doc), revision: BigInt(doc.streamRevision) } : null;
    };
  }
}
