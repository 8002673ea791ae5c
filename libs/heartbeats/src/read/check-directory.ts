import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Collection } from '../../../core/src/projection';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { CheckRef } from '../../../status-pages/src/status-pages.api';
import { CheckConfig } from '../domain/heartbeat-check.decider';
import { CheckDoc, heartbeatChecksProjection } from './heartbeat-checks.projection';
import { CheckState, checkState, liveTimer } from './check-state';
import { heartbeatTimersProjection, TimerDoc } from './heartbeat.projections';
import { nextDueAt } from './next-due';
import { getOwn } from '../../../read-store/src/account-docs';

/** A heartbeat check as every response shows it. */
export interface CheckView extends Omit<CheckConfig, 'heartbeat' | 'slug'> {
  id: string;
  checkType: 'HEARTBEAT';
  slug: string | null;
  heartbeat: CheckConfig['heartbeat'] & { schedule: string | null; timezone: string | null; pingUrl: string; nextDueAt: string | null };
  state: CheckState;
  lastPingAt: string | null;
  lastFailedAt: string | null;
  created_at: string;
  updated_at: string;
}

/** A check's status in Checkly's shape (`GET /v1/check-statuses`): a heartbeat has no runs, locations or certificate. */
export interface CheckStatusView {
  name: string;
  checkId: string;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  longestRun: number | null;
  shortestRun: number | null;
  lastRunLocation: string | null;
  lastCheckRunId: string | null;
  sslDaysRemaining: number | null;
  created_at: string;
  updated_at: string | null;
}

const isoOrNull = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** The checks read model: the check API's queries, and a service's `checks` for status pages. */
@Injectable()
export class CheckDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(accountId: string, id: string): Promise<{ check: CheckView; revision: bigint } | null> {
    const stored = await getOwn(this.store, this.collection(), accountId, id);
    if (!stored) return null;
    const timers = await this.timersOf([id]);
    return { check: this.present(stored.doc, timers.get(id) ?? null), revision: stored.revision };
  }

  /** The live check of an account with this slug (slug URLs), or null: its document, without the timer. */
  async checkBySlug(accountId: string, slug: string): Promise<CheckDoc | null> {
    const [doc] = await this.store.find(this.collection(), {
      filters: [
        { field: 'slug', op: 'eq', value: slug },
        { field: 'accountId', op: 'eq', value: accountId },
      ],
      limit: 1,
    });
    return doc ?? null;
  }

  /** A check of any account: for background work that acts for the account of its event (alerting). */
  async byId(id: string): Promise<CheckDoc | null> {
    return (await this.store.get(this.collection(), id))?.doc ?? null;
  }

  /** True when the check exists and belongs to the account (endpoints 9 and 10). */
  async owns(accountId: string, id: string): Promise<boolean> {
    return (await this.store.get(this.collection(), id))?.doc.accountId === accountId;
  }

  /** One page, newest first, one row more than `limit`. */
  async list(accountId: string, limit: number, after: FindQuery['after']): Promise<CheckView[]> {
    const docs = await this.store.find(this.collection(), {
      filters: [{ field: 'accountId', op: 'eq', value: accountId }],
      sort: { field: 'created_at', direction: 'desc' },
      limit: limit + 1,
      after,
    });
    const timers = await this.timersOf(docs.map((doc) => doc.id));
    return docs.map((doc) => this.present(doc, timers.get(doc.id) ?? null));
  }

  /** Every check of the account with its status, oldest first. */
  async statuses(accountId: string): Promise<CheckStatusView[]> {
    const docs = await this.allOf(accountId);
    const timers = await this.timersOf(docs.map((doc) => doc.id));
    return docs.map((doc) => this.status(this.present(doc, timers.get(doc.id) ?? null)));
  }

  /** One check's status, or null when it is not the account's. */
  async statusOf(accountId: string, id: string): Promise<CheckStatusView | null> {
    const found = await this.get(accountId, id);
    return found ? this.status(found.check) : null;
  }

  private status(check: CheckView): CheckStatusView {
    const changes = [check.lastPingAt, check.lastFailedAt].filter((at): at is string => at !== null).sort();
    return {
      name: check.name,
      checkId: check.id,
      hasFailures: check.state === 'FAILING',
      hasErrors: false,
      isDegraded: check.state === 'LATE',
      longestRun: null,
      shortestRun: null,
      lastRunLocation: null,
      lastCheckRunId: null,
      sslDaysRemaining: null,
      created_at: check.created_at,
      updated_at: changes[changes.length - 1] ?? null,
    };
  }

  /** The outage (its first FAILING's eventId) the check is in, or null. */
  async ongoingOutage(id: string): Promise<string | null> {
    const timer = (await this.timersOf([id])).get(id);
    return timer?.failing ? timer.failingSince : null;
  }

  /** Every check of the account, oldest first, without their timers. */
  allOf(accountId: string): Promise<CheckDoc[]> {
    return this.store.find(this.collection(), {
      filters: [{ field: 'accountId', op: 'eq', value: accountId }],
      sort: { field: 'created_at', direction: 'asc' },
      limit: 100_000,
    });
  }

  /** The timers of these checks, read from the timers read model in one query. */
  async timersOf(ids: string[]): Promise<Map<string, TimerDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.store.find(this.engine.collection(heartbeatTimersProjection), {
      filters: [{ field: 'id', op: 'in', value: ids }],
      limit: ids.length,
    });
    return new Map(docs.map((doc) => [doc.id, doc]));
  }

  /** Checks whose triggerIncident names one of the services, per service id, oldest first. */
  async checksOfServices(accountId: string, serviceIds: string[]): Promise<Map<string, CheckRef[]>> {
    const docs = await this.store.find(this.collection(), {
      filters: [
        { field: 'accountId', op: 'eq', value: accountId },
        { field: 'serviceId', op: 'in', value: serviceIds },
      ],
      sort: { field: 'created_at', direction: 'asc' },
      limit: 100_000,
    });
    const out = new Map<string, CheckRef[]>();
    for (const doc of docs) out.set(doc.serviceId!, [...(out.get(doc.serviceId!) ?? []), { id: doc.id, name: doc.name }]);
    return out;
  }

  present(doc: CheckDoc, stored: TimerDoc | null): CheckView {
    const timer = liveTimer(stored);
    const due = nextDueAt(doc, doc.created_at, timer);
    return {
      id: doc.id,
      checkType: 'HEARTBEAT',
      name: doc.name,
      activated: doc.activated,
      muted: doc.muted,
      tags: doc.tags,
      description: doc.description,
      slug: doc.slug ?? null,
      heartbeat: {
        ...doc.heartbeat,
        schedule: doc.heartbeat.schedule ?? null,
        timezone: doc.heartbeat.timezone ?? null,
        pingUrl: `${this.config.publicUrl}/ping/${doc.heartbeat.pingToken}`,
        nextDueAt: due ? due.toISOString() : null,
      },
      state: checkState(doc.activated, timer, this.clock.now().getTime()),
      lastPingAt: isoOrNull(timer?.lastPingAt),
      lastFailedAt: isoOrNull(timer?.lastFailedAt),
      triggerIncident: doc.triggerIncident,
      alertSettings: doc.alertSettings,
      alertChannelSubscriptions: doc.alertChannelSubscriptions,
      created_at: doc.created_at,
      updated_at: doc.updated_at,
    };
  }

  /** The collection the checks are read from now (a rebuild moves it). */
  collection(): Collection<CheckDoc> {
    return this.engine.collection(heartbeatChecksProjection);
  }
}
