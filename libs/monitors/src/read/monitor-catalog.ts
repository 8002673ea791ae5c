import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CatalogCheck, OtherChecksSource } from '../../../heartbeats/src/heartbeats.api';
import { MAX_LISTED, MonitorsQuery } from './monitors.queries';

/** Monitors as Checkly's one list of checks and its check statuses show them, beside heartbeat checks. */
@Injectable()
export class MonitorCatalog implements OtherChecksSource {
  constructor(private readonly queries: QueryBus) {}

  async list(accountId: string, limit: number): Promise<CatalogCheck[]> {
    const rows = await this.queries.execute(new MonitorsQuery({ type: 'ListMonitors', accountId, limit: Math.min(limit, MAX_LISTED) }));
    return rows.slice(0, limit);
  }

  async get(accountId: string, id: string): Promise<CatalogCheck | null> {
    return (await this.queries.execute(new MonitorsQuery({ type: 'GetMonitor', accountId, id })))?.monitor ?? null;
  }

  statuses(accountId: string) {
    return this.queries.execute(new MonitorsQuery({ type: 'MonitorStatuses', accountId }));
  }

  async status(accountId: string, id: string) {
    return (await this.queries.execute(new MonitorsQuery({ type: 'MonitorStatuses', accountId, id })))[0] ?? null;
  }
}
