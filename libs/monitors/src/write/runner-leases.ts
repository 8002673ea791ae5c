import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { UnauthorizedError, ViolationDetail } from '../../../core/src/errors';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { intervalSeconds, MonitorConfig } from '../domain/monitor-config';
import { MonitorRun } from '../domain/round';
import { hashRunnerKey } from '../domain/runner-key-secret';
import { configOf, MonitorDoc, monitorsProjection } from '../read/monitors.projection';
import { monitorStatesProjection } from '../read/monitor-states.projection';
import { RunnerKeyDoc, runnerKeysProjection } from '../read/runner-keys.projection';
import { RUN_ACTOR, RunMonitorCommand } from './monitor.handler';
import { LEASE_PAGE, takePage } from './lease-page';
import { isActive, LEASE_MS, placeOf, RunnerPresence } from './runner-presence';

/** Changed monitors one delta lease looks at; more, and the lease is a full one. */
const MAX_CHANGED = 1000;
/** How far ahead a runner holds its rounds: it starts them on its own timer, so the API's latency never delays one. */
export const LEASE_AHEAD_MS = 30_000;
/** Changes committed around the previous lease (which read before its `at`) are looked at again: the same config again changes nothing. */
const CHANGE_MARGIN_MS = 15_000;
const KEY_TTL_MS = 1000;

/**
 * What a runner asks: from its previous answer, `since` (its `at`) and `membership`; without them, or when the
 * location's runners changed, it gets a full lease. `after` (with `membership`, without `since`) continues a full
 * lease from the previous answer's `continueAfter`.
 */
export interface LeaseRequest {
  since: string | null;
  membership: string | null;
  after?: string | null;
}

export interface LeaseAnswer {
  at: string;
  leaseUntil: string;
  location: string;
  allowPrivateTargets: boolean;
  activeRunners: number;
  /** The active runners of the location, fingerprinted: a change makes the runner's next lease a full one. */
  membership: string;
  /** True: `monitors` is every monitor this runner holds (drop the others); false: only those changed since `since`. */
  full: boolean;
  /** Each held monitor's configuration. */
  monitors: Record<string, MonitorConfig>;
  /** Each monitor's first round to run (ISO); the runner runs the next ones every interval, up to `leaseUntil`. */
  nextRounds: Record<string, string>;
  /** Monitors changed since `since` that this runner no longer holds (deactivated, moved, another runner's). */
  released: string[];
  /** Set while a full lease has more pages: the runner asks again at once with it as `after`; the full lease ends at the answer where it is null. */
  continueAfter: string | null;
}

/** A run as a runner reports it: the run without its location, which the key gives. */
export type ReportedRun = { monitorId: string } & Omit<MonitorRun, 'location'>;

/** FNV-1a: a cheap, stable score for rendezvous hashing. */
function score(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The active runner a monitor's runs go to: the highest score, so a lost runner's monitors spread over the others. */
export function ownerOf(monitorId: string, runners: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const runner of runners) {
    const s = score(`${monitorId}|${runner}`);
    if (s > bestScore) [best, bestScore] = [runner, s];
  }
  return best;
}

/**
 * The runs of runner locations.
 * 1. A runner leases every few seconds: it is recorded as active, and holds the monitors on its location that
 *    it owns among the location's active runners (rendezvous hashing), with each one's next round; it runs
 *    their rounds on its own timer up to LEASE_AHEAD_MS ahead, so a slow API delays no start.
 * 2. A lease is full (every held monitor) at first and whenever the location's active runners change;
 *    otherwise it carries only the monitors changed since the previous one (config, activation, locations).
 *    A full lease comes in pages (LEASE_PAGE monitors looked at, LEASE_BYTES of configurations), each asked
 *    for at once: one answer's size and work stay bounded whatever the location holds.
 * 3. A round missed by more than LEASE_MS (no runner was there) is not run late.
 * 4. A runner silent for LEASE_MS is no longer active: the others' next lease is full, and takes its monitors.
 * 5. Reported runs are recorded through the monitor's command, from the key's location.
 */
@Injectable()
export class RunnerLeases {
  private readonly keys = new Map<string, { key: RunnerKeyDoc | null; until: number }>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    private readonly presence: RunnerPresence,
    private readonly commands: CommandBus,
  ) {}

  /** The runner key a bearer token is, or 401; a revocation takes effect within a second. */
  async authenticate(token: string | undefined): Promise<RunnerKeyDoc> {
    if (token === undefined) throw new UnauthorizedError('Missing or malformed Authorization header; expected "Bearer <runner key>"');
    const hash = hashRunnerKey(token);
    const now = Date.now();
    let hit = this.keys.get(hash);
    if (!hit || hit.until <= now) {
      const [key] = await this.store.find(this.engine.collection(runnerKeysProjection), { filters: [{ field: 'hash', op: 'eq', value: hash }], limit: 1 });
      if (this.keys.size > 1000) this.keys.clear();
      hit = { key: key ?? null, until: now + KEY_TTL_MS };
      this.keys.set(hash, hit);
    }
    if (!hit.key || hit.key.revoked) throw new UnauthorizedError('Unknown or revoked runner key');
    return hit.key;
  }

  async lease(key: RunnerKeyDoc, runner: string, request: LeaseRequest = { since: null, membership: null }): Promise<LeaseAnswer> {
    const now = this.clock.now().getTime();
    await this.presence.beat({ accountId: key.accountId, location: key.location, keyId: key.id, runner }, now);
    const active = (await this.presence.ofPlace(key.accountId, key.location, now)).filter((p) => isActive(p, now)).map((p) => p.id);
    const self = `${key.id}:${runner}`;
    const place = placeOf(key.accountId, key.location);
    const membership = score(active.join(',')).toString(36);
    const collection = this.engine.collection(monitorsProjection);
    const held = (doc: MonitorDoc) => doc.accountId === key.accountId && configOf(doc).activated && doc.places.includes(place) && ownerOf(doc.id, active) === self;
    const sizeOf = (doc: MonitorDoc) => (held(doc) ? JSON.stringify(configOf(doc)).length : null);
    // A full lease is read a page at a time, by id; a continued one holds only while the location's runners are the same.
    const fullPage = async (after: string | null) => {
      const docs = await this.store.find(collection, { filters: [{ field: 'places', op: 'contains', value: place }], sort: { field: 'id', direction: 'asc' }, limit: LEASE_PAGE, ...(after ? { after: { value: after, id: after } } : {}) });
      const page = takePage(docs, sizeOf);
      return { ...page, more: page.cut || docs.length === LEASE_PAGE };
    };
    let full = request.since === null || request.membership !== membership;
    let page = { taken: [] as MonitorDoc[], cut: false, more: false };
    if (!full) {
      // Only what changed: configs, activation, locations (a run changes none of them).
      const since = new Date(Date.parse(request.since!) - CHANGE_MARGIN_MS).toISOString();
      const docs = await this.store.find(collection, { filters: [{ field: 'updated_at', op: 'gt', value: since }], sort: { field: 'updated_at', direction: 'asc' }, limit: MAX_CHANGED });
      page = { ...takePage(docs.filter((doc) => doc.accountId === key.accountId), sizeOf), more: false };
      // Too many changes, or too large to carry in one answer: the lease is a full one.
      full = docs.length >= MAX_CHANGED || page.cut;
    }
    if (full) page = await fullPage(request.after && request.membership === membership ? request.after : null);
    const docs = page.taken;
    const until = now + LEASE_AHEAD_MS;
    const continueAfter = page.more && docs.length > 0 ? docs[docs.length - 1].id : null;
    const answer: LeaseAnswer = { at: new Date(now).toISOString(), leaseUntil: new Date(until).toISOString(), location: key.location, allowPrivateTargets: key.allowPrivateTargets, activeRunners: active.length, membership, full, monitors: {}, nextRounds: {}, released: [], continueAfter };
    const mine = docs.filter(held);
    // Each held monitor's next round is its state document's.
    const states = mine.length === 0 ? [] : await this.store.getMany(this.engine.collection(monitorStatesProjection), mine.map((doc) => doc.id));
    const nextRunAt = new Map(states.map(({ doc }) => [doc.id, doc.nextRunAt]));
    for (const doc of docs) {
      const next = nextRunAt.get(doc.id) ?? null;
      if (next === null) {
        if (!full) answer.released.push(doc.id);
        continue;
      }
      // A round missed by more than the presence lease (no runner was there) is not run late.
      const interval = intervalSeconds(configOf(doc)) * 1000;
      const skipped = Math.max(0, Math.ceil((now - LEASE_MS - next) / interval));
      answer.monitors[doc.id] = configOf(doc);
      answer.nextRounds[doc.id] = new Date(next + skipped * interval).toISOString();
    }
    // The runner sets its clock by `at`: the time the answer leaves, not the time the lease began.
    answer.at = this.clock.now().toISOString();
    return answer;
  }

  /** Records each reported run of a monitor on the key's location; the others are answered, by index, with why not. */
  async report(key: RunnerKeyDoc, runs: ReportedRun[]): Promise<{ accepted: number; rejected: ViolationDetail[] }> {
    const rejected: ViolationDetail[] = [];
    // The monitors' small state documents: who they are, where they run, and each one's first snapshot.
    const docs = new Map((await this.store.getMany(this.engine.collection(monitorStatesProjection), [...new Set(runs.map((r) => r.monitorId))])).map((s) => [s.doc.id, s]));
    const actor = RUN_ACTOR;
    // A monitor's document just read is the snapshot of its first run here; a later run of it reads the one that run wrote.
    const snapshotted = new Set<string>();
    let accepted = 0;
    await Promise.all(
      runs.map(async ({ monitorId, ...run }, index) => {
        const stored = docs.get(monitorId);
        const rounds = stored?.doc.rounds;
        if (!rounds || rounds.deleted || rounds.accountId !== key.accountId || !rounds.locations.includes(key.location)) {
          rejected.push({ path: `results[${index}].monitorId`, message: `no monitor of this account runs on ${key.location}` });
          return;
        }
        const snapshot = snapshotted.has(monitorId) ? undefined : stored;
        snapshotted.add(monitorId);
        try {
          const command = { type: 'RecordMonitorRun' as const, id: monitorId, run: { location: key.location, ...run }, failThreshold: this.config.monitorsFailThreshold };
          await this.commands.execute(new RunMonitorCommand(command, actor, undefined, snapshot));
          accepted++;
        } catch (error) {
          rejected.push({ path: `results[${index}]`, message: error instanceof Error ? error.message : 'not recorded' });
        }
      }),
    );
    return { accepted, rejected };
  }
}
