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
import { monitorsProjection } from '../read/monitors.projection';
import { RunnerKeyDoc, runnerKeysProjection } from '../read/runner-keys.projection';
import { RUN_ACTOR, RunMonitorCommand } from './monitor.handler';
import { isActive, LEASE_MS, placeOf, RunnerPresence } from './runner-presence';

/** The most due monitors one lease looks at; the next lease takes the rest. */
const MAX_DUE = 20_000;
const KEY_TTL_MS = 1000;

export interface LeaseAnswer {
  at: string;
  leaseUntil: string;
  location: string;
  allowPrivateTargets: boolean;
  activeRunners: number;
  /** Each leased monitor's configuration, once. */
  monitors: Record<string, MonitorConfig>;
  runs: { monitorId: string; roundAt: string }[];
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
 * 1. A runner leases: it is recorded as active, and gets, until now + LEASE_MS, the due rounds of the
 *    monitors on its location that it owns among the location's active runners (rendezvous hashing).
 * 2. A round is due from the monitor's next round on, on its schedule; one missed by more than the lease
 *    (no runner was there) is not run late.
 * 3. A runner silent for LEASE_MS is no longer active: its monitors go to the others at their next lease.
 * 4. Reported runs are recorded through the monitor's command, from the key's location.
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

  async lease(key: RunnerKeyDoc, runner: string): Promise<LeaseAnswer> {
    const now = this.clock.now().getTime();
    await this.presence.beat({ accountId: key.accountId, location: key.location, keyId: key.id, runner }, now);
    const active = (await this.presence.ofPlace(key.accountId, key.location, now)).filter((p) => isActive(p, now)).map((p) => p.id);
    const self = `${key.id}:${runner}`;
    const until = now + LEASE_MS;
    const due = await this.store.find(this.engine.collection(monitorsProjection), {
      filters: [{ field: 'places', op: 'contains', value: placeOf(key.accountId, key.location) }, { field: 'nextRunAt', op: 'lt', value: until }],
      sort: { field: 'nextRunAt', direction: 'asc' },
      limit: MAX_DUE,
    });
    const answer: LeaseAnswer = { at: new Date(now).toISOString(), leaseUntil: new Date(until).toISOString(), location: key.location, allowPrivateTargets: key.allowPrivateTargets, activeRunners: active.length, monitors: {}, runs: [] };
    for (const doc of due) {
      const config = doc.state.config;
      if (!config || !config.activated || doc.nextRunAt === null || doc.accountId !== key.accountId) continue;
      if (ownerOf(doc.id, active) !== self) continue;
      const interval = intervalSeconds(config) * 1000;
      const skipped = Math.max(0, Math.ceil((now - LEASE_MS - doc.nextRunAt) / interval));
      for (let at = doc.nextRunAt + skipped * interval; at < until; at += interval) {
        answer.runs.push({ monitorId: doc.id, roundAt: new Date(at).toISOString() });
        answer.monitors[doc.id] = config;
      }
    }
    return answer;
  }

  /** Records each reported run of a monitor on the key's location; the others are answered, by index, with why not. */
  async report(key: RunnerKeyDoc, runs: ReportedRun[]): Promise<{ accepted: number; rejected: ViolationDetail[] }> {
    const rejected: ViolationDetail[] = [];
    const docs = new Map((await this.store.getMany(this.engine.collection(monitorsProjection), [...new Set(runs.map((r) => r.monitorId))])).map((s) => [s.doc.id, s.doc]));
    const actor = RUN_ACTOR;
    let accepted = 0;
    await Promise.all(
      runs.map(async ({ monitorId, ...run }, index) => {
        const doc = docs.get(monitorId);
        if (!doc || doc.accountId !== key.accountId || !doc.state.config?.locations.includes(key.location)) {
          rejected.push({ path: `results[${index}].monitorId`, message: `no monitor of this account runs on ${key.location}` });
          return;
        }
        try {
          await this.commands.execute(new RunMonitorCommand({ type: 'RecordMonitorRun', id: monitorId, run: { location: key.location, ...run }, failThreshold: this.config.monitorsFailThreshold }, actor));
          accepted++;
        } catch (error) {
          rejected.push({ path: `results[${index}]`, message: error instanceof Error ? error.message : 'not recorded' });
        }
      }),
    );
    return { accepted, rejected };
  }
}
