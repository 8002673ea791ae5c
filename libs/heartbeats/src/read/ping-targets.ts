import { Inject, Injectable } from '@nestjs/common';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { heartbeatStream } from '../domain/heartbeat.decider';
import { CheckDoc, heartbeatChecksProjection } from './heartbeat-checks.projection';
import { heartbeatTimersProjection, TimerDoc } from './heartbeat.projections';

/** How many ping tokens' checks are remembered: the tokens pinged lately, a few hundred KB at most. */
const KNOWN_TOKENS = 10_000;

/** The timer a ping starts from: by token (remembering each token's check) or by check (slug URLs). */
@Injectable()
export class PingTargets {
  /** Ping token → check, oldest first: a hit is confirmed by the timer it names, read by key instead of by index. */
  private readonly checkOfToken = new Map<string, string>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  /** The timer of the live check a ping token belongs to, or null. */
  async timerOfToken(token: string): Promise<TimerDoc | null> {
    const known = this.checkOfToken.get(token);
    if (known !== undefined) {
      const timer = await this.timerOf(known);
      if (timer && timer.pingToken === token) return timer;
      this.checkOfToken.delete(token);
    }
    const [check] = await this.store.find<CheckDoc>(this.engine.collection(heartbeatChecksProjection), {
      filters: [{ field: 'pingToken', op: 'eq', value: token }],
      limit: 1,
    });
    // The timer takes a changed token when it is rescheduled: until then, the token it holds is the one it answers to.
    const timer = check ? await this.timerOf(check.id, check) : null;
    if (!timer || timer.pingToken !== token) return null;
    if (this.checkOfToken.size >= KNOWN_TOKENS) this.checkOfToken.delete(this.checkOfToken.keys().next().value as string);
    this.checkOfToken.set(token, timer.id);
    return timer;
  }

  /**
   * The timer of a live check, or null; `check`, when the caller has just read it, is not read again. The ping's
   * append folds onto this copy rather than reading it again (Ping intake target), unless the copy gains an account.
   */
  async timerOf(checkId: string, check?: CheckDoc): Promise<TimerDoc | null> {
    const collection = this.engine.collection(heartbeatTimersProjection);
    const stored = await this.store.get<TimerDoc>(collection, checkId);
    if (!stored || stored.doc.deleted) return null;
    if (stored.doc.accountId) this.engine.knownDocs.note(collection, heartbeatStream(checkId), stored);
    return this.withAccount(stored.doc, check);
  }

  /** Timers written before they carried their account take it from the check. */
  private async withAccount(timer: TimerDoc, check?: CheckDoc): Promise<TimerDoc | null> {
    if (timer.accountId) return timer;
    const owner = check ?? (await this.store.get<CheckDoc>(this.engine.collection(heartbeatChecksProjection), timer.id))?.doc;
    return owner ? { ...timer, accountId: owner.accountId } : null;
  }
}
