import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../../core/src/event';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { evolveTimer, heartbeatStream, TimerState } from '../domain/heartbeat-timer';
import { CheckDoc } from '../read/heartbeat-checks.projection';
import { TimerLoader } from './timer-loader';

/** What the ping path knows of one check. */
export interface CheckEntry {
  checkId: string;
  /** `heartbeat-<checkId>`, made once: every ping appends to it. */
  stream: string;
  accountId: string;
  timer: TimerState;
  /**
   * Revision of `heartbeat-<id>` after the last event folded into `timer`, including appends still
   * waiting for their commit: the next append expects exactly this revision.
   */
  revision: bigint | null;
  /** Set when `timer` may be wrong (a failed append, a gap in the events seen): reload before use. */
  stale: boolean;
}

/** Whether the entry's check is live and still has this token. */
function pingable(entry: CheckEntry, token: string): boolean {
  return !entry.timer.deleted && entry.timer.pingToken === token;
}

const HEARTBEAT_TYPES = new Set(['HeartbeatScheduleChanged', 'HeartbeatPingReceived', 'HeartbeatFailed']);

/**
 * Token → check, in memory, for the hot path. Filled on first use from the read store; kept fresh by
 * this process's own appends (`observe`) and by the projection daemon's event feed. A stale entry is
 * harmless: the append that relies on it expects a revision that no longer holds and is retried.
 */
@Injectable()
export class CheckRegistry {
  private readonly byToken = new Map<string, CheckEntry>();
  private readonly byCheck = new Map<string, CheckEntry>();
  private readonly loading = new Map<string, Promise<CheckEntry | null>>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly timers: TimerLoader,
  ) {
    engine.onEvent((event) => this.observe([event]));
  }

  /** The check a token pings, or null when no live check has it. */
  async resolve(token: string): Promise<CheckEntry | null> {
    let entry = this.byToken.get(token) ?? null;
    if (!entry) {
      let pending = this.loading.get(token);
      if (!pending) {
        pending = this.load(token).finally(() => this.loading.delete(token));
        this.loading.set(token, pending);
      }
      entry = await pending;
      if (!entry) return null;
    }
    if (entry.stale) await this.refresh(entry);
    if (!pingable(entry, token)) {
      // The token moved to another value or the check is gone.
      if (this.byToken.get(token) === entry) this.byToken.delete(token);
      return null;
    }
    return entry;
  }

  /**
   * The check a token pings when memory alone can say so (known, fresh, live), else null: resolve
   * then loads, refreshes or says no. For the ping fast path, which must decide without waiting.
   */
  peek(token: string): CheckEntry | null {
    const entry = this.byToken.get(token);
    return entry && !entry.stale && pingable(entry, token) ? entry : null;
  }

  /** Reloads the committed timer after a conflict or a failure. */
  async refresh(entry: CheckEntry): Promise<void> {
    const loaded = await this.timers.load(entry.checkId);
    entry.timer = loaded.timer;
    entry.revision = loaded.revision;
    entry.stale = false;
    this.index(entry);
  }

  /** Folds committed events of heartbeat streams into known entries; idempotent by revision. */
  observe(events: RecordedEvent[]): void {
    for (const event of events) {
      if (!HEARTBEAT_TYPES.has(event.type)) continue;
      const entry = this.byCheck.get((event.data as { checkId: string }).checkId);
      if (!entry) continue;
      const next = entry.revision === null ? 0n : entry.revision + 1n;
      if (event.revision < next) continue;
      if (event.revision > next) {
        entry.stale = true;
        continue;
      }
      entry.timer = evolveTimer(entry.timer, event);
      entry.revision = event.revision;
      this.index(entry);
    }
  }

  forget(checkId: string): void {
    const entry = this.byCheck.get(checkId);
    if (!entry) return;
    this.byCheck.delete(checkId);
    if (entry.timer.pingToken && this.byToken.get(entry.timer.pingToken) === entry) this.byToken.delete(entry.timer.pingToken);
  }

  private async load(token: string): Promise<CheckEntry | null> {
    const [check] = await this.store.find<CheckDoc>(this.engine.collection('heartbeat_checks'), {
      filters: [{ field: 'pingToken', op: 'eq', value: token }],
      limit: 1,
    });
    if (!check) return null;
    const known = this.byCheck.get(check.id);
    if (known) {
      await this.refresh(known);
      return known;
    }
    const loaded = await this.timers.load(check.id);
    const entry: CheckEntry = { checkId: check.id, stream: heartbeatStream(check.id), accountId: check.accountId, timer: loaded.timer, revision: loaded.revision, stale: false };
    this.byCheck.set(check.id, entry);
    this.index(entry);
    return entry;
  }

  private index(entry: CheckEntry): void {
    if (entry.timer.pingToken && !entry.timer.deleted) this.byToken.set(entry.timer.pingToken, entry);
  }
}
