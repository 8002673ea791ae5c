import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { CheckDirectory, CheckView } from './check-directory';
import { CheckDoc, heartbeatChecksProjection } from './heartbeat-checks.projection';
import { CHECK_STATES, CheckState, checkState, liveTimer } from './check-state';
import { heartbeatTimersProjection, lastRunsOf, RunState, TimerDoc } from './heartbeat.projections';

const byName = new Intl.Collator().compare;

/** Failing first, then late, then the rest; by name within a state (the buckets' order). */
const STATE_ORDER: readonly CheckState[] = ['FAILING', 'LATE', 'NEW', 'UP', 'PAUSED'];

/** Accounts whose checks are kept in memory at once. */
const ACCOUNTS_KEPT = 100;

/** Counts of an account's checks: by state, per alert channel subscribed, and its tags. */
export interface CheckSummary {
  total: number;
  byState: Record<CheckState, number>;
  /** Active subscriptions per alert channel id. */
  byChannel: Record<string, number>;
  tags: string[];
}

/** A page of checks failing first (by name within a state), each with its last runs' states, and how many match. */
export interface CheckPage {
  checks: (CheckView & { lastRuns: RunState[] })[];
  total: number;
}

interface Entry {
  doc: CheckDoc;
  timer: TimerDoc | null;
}

/**
 * Console-sized answers about an account's checks: counts and one bounded page, never every check
 * presented. The account's documents are read once and kept while the log's head and both read models'
 * checkpoints stay where they were; states are worked out at each request's time.
 */
@Injectable()
export class CheckIndex {
  // Kept for the target "Console, 1,000 checks: p99 ≤ 50 ms" (docs/benchmarks.md); any append moves the key.
  private readonly cache = new Map<string, { version: string; entries: Promise<Entry[]> }>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly directory: CheckDirectory,
  ) {}

  async summary(accountId: string): Promise<CheckSummary> {
    const now = this.clock.now().getTime();
    const byState = Object.fromEntries(CHECK_STATES.map((s) => [s, 0])) as Record<CheckState, number>;
    const byChannel: Record<string, number> = {};
    const tags = new Set<string>();
    const entries = await this.entries(accountId);
    for (const entry of entries) {
      byState[checkState(entry.doc.activated, liveTimer(entry.timer), now)] += 1;
      for (const s of entry.doc.alertChannelSubscriptions ?? []) if (s.activated) byChannel[s.alertChannelId] = (byChannel[s.alertChannelId] ?? 0) + 1;
      for (const tag of entry.doc.tags ?? []) tags.add(tag);
    }
    return { total: entries.length, byState, byChannel, tags: [...tags].sort() };
  }

  /** Checks in the state and with the tag (when given), failing first, `limit` from `offset`. */
  async page(accountId: string, filter: { state?: CheckState; tag?: string }, offset: number, limit: number): Promise<CheckPage> {
    const now = this.clock.now().getTime();
    // Entries are kept sorted by name: bucketing by state keeps that order, with no sort per request.
    const buckets = new Map<CheckState, Entry[]>(STATE_ORDER.map((state) => [state, []]));
    for (const entry of await this.entries(accountId)) {
      const state = checkState(entry.doc.activated, liveTimer(entry.timer), now);
      if ((!filter.state || state === filter.state) && (!filter.tag || (entry.doc.tags ?? []).includes(filter.tag))) buckets.get(state)!.push(entry);
    }
    const matching = [...buckets.values()].flat();
    const checks = matching.slice(offset, offset + limit).map((entry) => ({ ...this.directory.present(entry.doc, entry.timer), lastRuns: lastRunsOf(entry.timer) }));
    return { checks, total: matching.length };
  }

  /** The first `limit` checks by name, and the named ones (`include`) wherever they sort, that are the account's. */
  async names(accountId: string, include: string[], limit: number): Promise<{ checks: { id: string; name: string }[]; total: number }> {
    const wanted = new Set(include);
    const entries = await this.entries(accountId);
    const checks = entries.filter((e, i) => i < limit || wanted.has(e.doc.id)).map((e) => ({ id: e.doc.id, name: e.doc.name }));
    return { checks, total: entries.length };
  }

  private async entries(accountId: string): Promise<Entry[]> {
    const version = await this.version();
    const cached = this.cache.get(accountId);
    if (cached && cached.version === version) return cached.entries;
    // One read serves the questions a page asks at once (its summary and its page).
    const entries = this.load(accountId);
    entries.catch(() => this.cache.get(accountId)?.entries === entries && this.cache.delete(accountId));
    // The accounts whose console is open: the least recently loaded one makes room.
    this.cache.delete(accountId);
    if (this.cache.size >= ACCOUNTS_KEPT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(accountId, { version, entries });
    return entries;
  }

  /**
   * The same key on every engine, read before the documents. Embedded, projections move with the append.
   * Elsewhere an instance applies its own append after it and the daemon moves the checkpoints after the
   * documents: a copy loaded in between is dropped once the daemon has caught up.
   */
  private async version(): Promise<string> {
    const checks = this.engine.collection(heartbeatChecksProjection);
    const timers = this.engine.collection(heartbeatTimersProjection);
    const [head, checked, timed] = await Promise.all([this.events.headPosition(), this.store.getCheckpoint(checks), this.store.getCheckpoint(timers)]);
    return `${head}:${checked}:${timed}`;
  }

  private async load(accountId: string): Promise<Entry[]> {
    const docs = await this.directory.allOf(accountId);
    const timers = await this.directory.timersOf(docs.map((d) => d.id));
    return docs.map((doc) => ({ doc, timer: timers.get(doc.id) ?? null })).sort((a, b) => byName(a.doc.name, b.doc.name) || (a.doc.id < b.doc.id ? -1 : 1));
  }
}
