import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { MonitorsQuery } from '../../../monitors/src/monitors.api';
import { collectionOf } from '../../../core/src/projection';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VersionedRecords } from '../../../read-store/src/versioned-records';

/** Delayed alerts and reminders of a monitor carry `whileOutage` ids with this prefix. */
export const MONITOR_OUTAGE_PREFIX = 'monitor:';
export const monitorOutageId = (monitorId: string, startedAt: string) => `${MONITOR_OUTAGE_PREFIX}${monitorId}:${startedAt}`;

/** A monitor's current (or last) outage as the monitor notifier follows it. */
export interface MonitorOutageDoc {
  id: string;
  accountId: string;
  outageId: string;
  startedAt: string;
  failingRounds: number;
  recoveredAt: string | null;
  /** The certificate-expiry alert took the place of the failure alert: no failure, no recovery. */
  sslExpiry: boolean;
  /** Log position of the last event applied (decimal), so an event handled again is recognised. */
  position: string;
  [field: string]: unknown;
}

export const MONITOR_OUTAGES = collectionOf<MonitorOutageDoc>('alert_monitor_outages');

const TRIES = 3;

/** One record per monitor, changed by compare-and-set; an event handled again gets what its first pass stored. */
@Injectable()
export class MonitorOutages {
  private ready: Promise<void> | null = null;
  private readonly records: VersionedRecords<MonitorOutageDoc>;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly queries: QueryBus,
  ) {
    this.records = new VersionedRecords(store, MONITOR_OUTAGES);
  }

  private async ensure(): Promise<VersionedRecords<MonitorOutageDoc>> {
    this.ready ??= this.store.ensureCollection({ name: MONITOR_OUTAGES, indexes: [] });
    await this.ready;
    return this.records;
  }

  async get(monitorId: string): Promise<MonitorOutageDoc | null> {
    return (await (await this.ensure()).get(monitorId))?.doc ?? null;
  }

  /** Whether the outage `outageId` is still the monitor's, has not recovered, and the monitor is neither muted nor deactivated. */
  async lastsAlertable(accountId: string, monitorId: string, outageId: string): Promise<boolean> {
    const outage = await this.get(monitorId);
    if (outage === null || outage.outageId !== outageId || outage.recoveredAt !== null) return false;
    const found = await this.queries.execute(new MonitorsQuery({ type: 'GetMonitor', accountId, id: monitorId }));
    return found !== null && !found.monitor.muted && found.monitor.activated;
  }

  /**
   * The record after the event at `position`: `change` gives the new record from the previous one (null: none
   * to follow). An event applied before returns what was stored then; a later event having moved on, null.
   */
  async apply(monitorId: string, position: bigint, change: (previous: MonitorOutageDoc | null) => Omit<MonitorOutageDoc, 'position'> | null): Promise<MonitorOutageDoc | null> {
    const records = await this.ensure();
    for (let tries = 0; tries < TRIES; tries++) {
      const previous = await records.get(monitorId);
      if (previous && BigInt(previous.doc.position) >= position) return BigInt(previous.doc.position) === position ? previous.doc : null;
      const next = change(previous?.doc ?? null);
      if (next === null) return null;
      const doc = { ...next, position: String(position) } as MonitorOutageDoc;
      if (await (previous ? records.compareAndSet(doc, previous.version) : records.insert(doc))) return doc;
    }
    return null;
  }
}
