import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { CheckRef } from '../../../status-pages/src/read/service-links';
import { CheckConfig } from '../domain/heartbeat-check.decider';
import { CheckDoc, heartbeatChecksProjection } from './heartbeat-checks.projection';

/** A heartbeat check as every response shows it. */
export interface CheckView extends Omit<CheckConfig, 'heartbeat'> {
  id: string;
  checkType: 'HEARTBEAT';
  heartbeat: CheckConfig['heartbeat'] & { pingUrl: string };
  created_at: string;
  updated_at: string;
}

/** The checks read model: the check API's queries, and a service's `checks` for status pages. */
@Injectable()
export class CheckDirectory {
  private readonly serviceChecks = new Map<string, { version: string; byService: Map<string, CheckRef[]> }>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async get(accountId: string, id: string): Promise<{ check: CheckView; revision: bigint } | null> {
    const stored = await this.store.get<CheckDoc>(this.collection(), id);
    if (!stored || stored.doc.accountId !== accountId) return null;
    return { check: this.present(stored.doc), revision: stored.revision };
  }

  /** True when the check exists and belongs to the account (endpoints 9 and 10). */
  async owns(accountId: string, id: string): Promise<boolean> {
    return (await this.get(accountId, id)) !== null;
  }

  /** One page, newest first, one row more than `limit`. */
  async list(accountId: string, limit: number, after: FindQuery['after']): Promise<CheckView[]> {
    const docs = await this.store.find<CheckDoc>(this.collection(), {
      filters: [{ field: 'accountId', op: 'eq', value: accountId }],
      sort: { field: 'created_at', direction: 'desc' },
      limit: limit + 1,
      after,
    });
    return docs.map((doc) => this.present(doc));
  }

  /**
   * Checks whose triggerIncident names one of the services, per service id, oldest first. Every
   * response that shows a service asks this, so each account's answer is kept in memory while the
   * checks collection's change token is unchanged (or, on a store that has none, while the event
   * log's head has not moved), which keeps reads read-your-writes across processes.
   */
  async checksOfServices(accountId: string, serviceIds: string[]): Promise<Map<string, CheckRef[]>> {
    const collection = this.collection();
    const version = this.store.changeToken([collection]) ?? `head:${await this.events.headPosition()}`;
    let cached = this.serviceChecks.get(accountId);
    if (!cached || cached.version !== version) {
      cached = { version, byService: await this.loadServiceChecks(accountId) };
      if (this.serviceChecks.size >= 10_000) this.serviceChecks.clear();
      this.serviceChecks.set(accountId, cached);
    }
    const out = new Map<string, CheckRef[]>();
    for (const id of serviceIds) {
      const checks = cached.byService.get(id);
      if (checks) out.set(id, checks);
    }
    return out;
  }

  private async loadServiceChecks(accountId: string): Promise<Map<string, CheckRef[]>> {
    const out = new Map<string, CheckRef[]>();
    const docs = await this.store.find<CheckDoc>(this.collection(), {
      filters: [{ field: 'accountId', op: 'eq', value: accountId }],
      sort: { field: 'created_at', direction: 'asc' },
      limit: 100_000,
    });
    for (const doc of docs) {
      if (!doc.serviceId) continue;
      const list = out.get(doc.serviceId) ?? [];
      list.push({ id: doc.id, name: doc.name });
      out.set(doc.serviceId, list);
    }
    return out;
  }

  present(doc: CheckDoc): CheckView {
    return {
      id: doc.id,
      checkType: 'HEARTBEAT',
      name: doc.name,
      activated: doc.activated,
      muted: doc.muted,
      tags: doc.tags,
      description: doc.description,
      heartbeat: { ...doc.heartbeat, pingUrl: `${this.config.publicUrl}/ping/${doc.heartbeat.pingToken}` },
      triggerIncident: doc.triggerIncident,
      alertSettings: doc.alertSettings,
      alertChannelSubscriptions: doc.alertChannelSubscriptions,
      created_at: doc.created_at,
      updated_at: doc.updated_at,
    };
  }

  /** The collection the checks are read from now. */
  collectionName(): string {
    return this.collection();
  }

  private collection(): string {
    return this.engine.collection(heartbeatChecksProjection);
  }
}
