import { Inject } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContextQuery } from '../../../read-store/src/context-query';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { PageAfter, READ_STORE, ReadStore, StoredDoc } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { CheckType, MonitorConfig, SslRequestConfig } from '../domain/monitor-config';
import { MonitorRun, MonitorStatus } from '../domain/round';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { LOCATIONS, LocationView } from './locations';
import { isActive, RunnerPresence } from '../write/runner-presence';
import { runnerKeysProjection, runnerLocationsProjection } from './runner-keys.projection';
import { CheckResultView, readResults, ResultsFilter } from './monitor-results';
import { monitorRollupsProjection, percentile, rollupRange } from './monitor-rollups.projection';
import { configOf, MonitorDoc, monitorsProjection } from './monitors.projection';
import { lastRunOf, MonitorStateDoc, monitorStatesProjection } from './monitor-states.projection';
import { serviceHealth, ServiceHealth } from './service-health';
import { mergeRollups, MonitorMetrics, monitorStatus } from './monitor-analytics';

export type MonitorsQuestion =
  | { type: 'GetMonitor'; accountId: string; id: string; checkType?: CheckType }
  /** For background reactors (alerting): a monitor and its account by id alone, as its events name it. */
  | { type: 'MonitorOf'; id: string }
  | { type: 'ListMonitors'; accountId: string; checkType?: CheckType; limit: number; after?: PageAfter }
  | { type: 'GetMonitorRollups'; accountId: string; id: string; granularity: 'h' | 'd'; from: string; to: string }
  | { type: 'ListLocations'; accountId: string }
  | { type: 'ListRunnerKeys'; accountId: string }
  | { type: 'ListMonitorResults'; accountId: string; id: string; filter: ResultsFilter }
  /** Every monitor's status in Checkly's `check-statuses` shape (one if `id`). */
  | { type: 'MonitorStatuses'; accountId: string; id?: string }
  /** The merged rollups of each monitor over [from, to), from hourly or daily buckets. */
  | { type: 'MonitorMetrics'; accountId: string; ids: string[]; granularity: 'h' | 'd'; from: string; to: string }
  /** What the monitors linked to each service (by `triggerIncident`) say about it, for the public pages. */
  | { type: 'ServiceHealth'; accountId: string; serviceIds: string[]; now: number }
  /** When the monitor's current outage began (its FAILING round), or null when it is not failing. */
  | { type: 'OngoingOutage'; accountId: string; id: string };

/** A monitor as every response shows it: its configuration in Checkly's shape, its state and its last run. */
export type MonitorView = Omit<MonitorConfig, 'request'> & {
  id: string;
  request: Record<string, unknown>;
  status: { state: MonitorStatus | null; since: string | null; lastRun: MonitorRun | null; nextRunAt: string | null };
  created_at: string;
  updated_at: string;
};

export interface RollupView {
  at: string;
  runs: number;
  availability: number | null;
  failed: number;
  degraded: number;
  responseTime: { avg: number | null; p50: number | null; p95: number | null; p99: number | null };
}

export interface MonitorsAnswers {
  GetMonitor: { monitor: MonitorView; revision: bigint } | null;
  MonitorOf: { accountId: string; monitor: MonitorView } | null;
  ListMonitors: MonitorView[];
  GetMonitorRollups: RollupView[] | null;
  ListLocations: LocationView[];
  ListRunnerKeys: RunnerKeySummary[];
  ListMonitorResults: { entries: CheckResultView[]; nextId: string | null } | null;
  MonitorStatuses: ReturnType<typeof monitorStatus>[];
  MonitorMetrics: Map<string, { monitor: MonitorView; metrics: MonitorMetrics }>;
  ServiceHealth: Map<string, ServiceHealth>;
  OngoingOutage: string | null;
}

/** The most monitors one unpaged answer (statuses, Checkly's combined list) carries. */
export const MAX_LISTED = 5000;
/** A runner key as lists show it: never its hash. */
export interface RunnerKeySummary {
  id: string;
  location: string;
  name: string | null;
  prefix: string;
  allowPrivateTargets: boolean;
  revoked: boolean;
  created_at: string;
  revoked_at: string | null;
}

export class MonitorsQuery<T extends MonitorsQuestion['type']> extends ContextQuery<MonitorsQuestion, MonitorsAnswers, T> {}

/** A monitor from its configuration and what its runs changed (absent only while its read models catch up). */
export function presentMonitor(doc: MonitorDoc, state: MonitorStateDoc | null): MonitorView {
  const config = configOf(doc);
  const { request, ...rest } = config;
  const shown: Record<string, unknown> =
    config.checkType === 'SSL'
      ? (({ assertions, ...sslConfig }: SslRequestConfig) => ({ sslConfig, assertions }))(request as SslRequestConfig)
      : { ...request };
  return {
    id: doc.id,
    ...rest,
    alertChannelSubscriptions: rest.alertChannelSubscriptions ?? [],
    triggerIncident: rest.triggerIncident ?? null,
    request: shown,
    status: {
      state: state?.rounds.status ?? null,
      since: state?.rounds.statusSince ?? null,
      lastRun: lastRunOf(state),
      nextRunAt: state?.nextRunAt == null ? null : new Date(state.nextRunAt).toISOString(),
    },
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/** The monitors context's one read side; every question is answered within the caller's account. */
@QueryHandler(MonitorsQuery)
export class MonitorsQueryHandler implements IQueryHandler<MonitorsQuery<MonitorsQuestion['type']>> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly presence: RunnerPresence,
  ) {}

  async execute({ query }: MonitorsQuery<MonitorsQuestion['type']>): Promise<MonitorsAnswers[MonitorsQuestion['type']]> {
    switch (query.type) {
      case 'GetMonitor': {
        const [stored, state] = await this.monitor(query.id);
        if (!stored || stored.doc.accountId !== query.accountId) return null;
        if (query.checkType !== undefined && stored.doc.checkType !== query.checkType) return null;
        // The ETag is the stream's revision, which the state document (every event's) reflects.
        return { monitor: presentMonitor(stored.doc, state?.doc ?? null), revision: state?.revision ?? stored.revision };
      }
      case 'MonitorOf': {
        const [stored, state] = await this.monitor(query.id);
        return stored ? { accountId: stored.doc.accountId, monitor: presentMonitor(stored.doc, state?.doc ?? null) } : null;
      }
      case 'ListMonitors': {
        const filters = [{ field: 'accountId', op: 'eq' as const, value: query.accountId }];
        if (query.checkType) filters.push({ field: 'checkType', op: 'eq', value: query.checkType });
        const docs = await this.store.find(this.engine.collection(monitorsProjection), { filters, sort: { field: 'created_at', direction: 'desc' }, limit: query.limit + 1, after: query.after });
        const states = await this.statesOf(docs);
        return docs.map((doc) => presentMonitor(doc, states.get(doc.id) ?? null));
      }
      case 'GetMonitorRollups': {
        const owner = await this.store.get(this.engine.collection(monitorsProjection), query.id);
        if (!owner || owner.doc.accountId !== query.accountId) return null;
        const docs = await this.store.find(this.engine.collection(monitorRollupsProjection), {
          filters: rollupRange(owner.doc.id, query.granularity, query.from, query.to),
          sort: { field: 'id', direction: 'asc' },
          limit: query.granularity === 'h' ? 24 * 31 : 366,
        });
        return docs.map((d) => {
          const measured = d.runs - d.failed;
          return {
            at: d.bucketAt,
            runs: d.runs,
            failed: d.failed,
            degraded: d.degraded,
            availability: d.runs === 0 ? null : Math.round(((d.runs - d.failed) / d.runs) * 100_000) / 1000,
            responseTime: { avg: measured === 0 ? null : Math.round(d.sumMs / measured), p50: percentile(d.histogram, 50), p95: percentile(d.histogram, 95), p99: percentile(d.histogram, 99) },
          };
        });
      }
      case 'ListLocations':
        return [...LOCATIONS, ...(await this.runnerLocations(query.accountId))];
      case 'ServiceHealth':
        return serviceHealth(this.store, this.engine, query.accountId, query.serviceIds, query.now);
      case 'MonitorStatuses': {
        if (query.id !== undefined) {
          const [stored, state] = await this.monitor(query.id);
          return stored && stored.doc.accountId === query.accountId ? [monitorStatus(stored.doc, state?.doc ?? null)] : [];
        }
        const docs = await this.store.find(this.engine.collection(monitorsProjection), { filters: [{ field: 'accountId', op: 'eq', value: query.accountId }], sort: { field: 'created_at', direction: 'asc' }, limit: MAX_LISTED });
        const states = await this.statesOf(docs);
        return docs.map((doc) => monitorStatus(doc, states.get(doc.id) ?? null));
      }
      case 'MonitorMetrics': {
        const out = new Map<string, { monitor: MonitorView; metrics: MonitorMetrics }>();
        const owners = (await this.store.getMany(this.engine.collection(monitorsProjection), [...new Set(query.ids)].slice(0, 100))).filter((owner) => owner.doc.accountId === query.accountId);
        const states = await this.statesOf(owners.map((owner) => owner.doc));
        for (const owner of owners) {
          const docs = await this.store.find(this.engine.collection(monitorRollupsProjection), {
            filters: rollupRange(owner.doc.id, query.granularity, query.from, query.to),
            sort: { field: 'id', direction: 'asc' },
            limit: query.granularity === 'h' ? 24 * 31 : 366,
          });
          out.set(owner.doc.id, { monitor: presentMonitor(owner.doc, states.get(owner.doc.id) ?? null), metrics: mergeRollups(docs) });
        }
        return out;
      }
      case 'ListRunnerKeys': {
        const keys = await this.store.find(this.engine.collection(runnerKeysProjection), { filters: [{ field: 'accountId', op: 'eq', value: query.accountId }], sort: { field: 'created_at', direction: 'asc' }, limit: 1000 });
        return keys.map(({ id, location, name, prefix, allowPrivateTargets, revoked, created_at, revoked_at }) => ({ id, location, name, prefix, allowPrivateTargets, revoked, created_at, revoked_at }));
      }
      case 'OngoingOutage': {
        const stored = await this.store.get(this.engine.collection(monitorStatesProjection), query.id);
        const rounds = stored?.doc.rounds;
        if (!rounds || rounds.accountId !== query.accountId || rounds.status !== 'FAILING') return null;
        // A state kept before it knew its outage still knows when FAILING began.
        return rounds.outage?.startedAt ?? rounds.statusSince;
      }
      case 'ListMonitorResults': {
        const owner = await this.store.get(this.engine.collection(monitorsProjection), query.id);
        if (!owner || owner.doc.accountId !== query.accountId) return null;
        return readResults(this.events, query.id, configOf(owner.doc), query.filter);
      }
    }
  }

  /** A monitor's configuration and state documents, in one read. */
  private async monitor(id: string): Promise<[StoredDoc<MonitorDoc> | undefined, StoredDoc<MonitorStateDoc> | undefined]> {
    const [[config], [state]] = await this.store.getManyOf([
      { collection: this.engine.collection(monitorsProjection), ids: [id] },
      { collection: this.engine.collection(monitorStatesProjection), ids: [id] },
    ]);
    return [config as StoredDoc<MonitorDoc> | undefined, state as StoredDoc<MonitorStateDoc> | undefined];
  }

  /** The state documents of monitors, by id. */
  private async statesOf(docs: readonly MonitorDoc[]): Promise<Map<string, MonitorStateDoc>> {
    if (docs.length === 0) return new Map();
    return new Map((await this.store.getMany(this.engine.collection(monitorStatesProjection), docs.map((d) => d.id))).map(({ doc }) => [doc.id, doc]));
  }

  /** The account's runner locations (one per location its runner keys name) and their runners seen within a day. */
  private async runnerLocations(accountId: string): Promise<LocationView[]> {
    const keys = await this.store.find(this.engine.collection(runnerKeysProjection), { filters: [{ field: 'accountId', op: 'eq', value: accountId }], limit: 1000 });
    const states = await this.store.find(this.engine.collection(runnerLocationsProjection), { filters: [{ field: 'accountId', op: 'eq', value: accountId }], limit: 1000 });
    const now = this.clock.now().getTime();
    const names = [...new Set(keys.map((k) => k.location))].sort();
    return Promise.all(
      names.map(async (location) => {
        const runners = (await this.presence.ofPlace(accountId, location, now)).map((p) => ({ id: p.runner, lastSeenAt: new Date(p.lastSeen).toISOString(), state: isActive(p, now) ? ('ACTIVE' as const) : ('LOST' as const) }));
        const state = states.find((s) => s.location === location);
        const status = runners.some((r) => r.state === 'ACTIVE') ? 'UP' : runners.length > 0 || state ? 'DOWN' : 'NEW';
        const allowPrivateTargets = keys.some((k) => k.location === location && !k.revoked && k.allowPrivateTargets);
        return { region: location, name: location, kind: 'runner' as const, status, downSince: status === 'DOWN' && state && !state.up ? state.since : null, allowPrivateTargets, runners };
      }),
    );
  }
}
