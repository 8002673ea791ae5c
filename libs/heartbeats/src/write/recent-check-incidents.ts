import { Inject, Injectable } from '@nestjs/common';
import { collectionOf } from '../../../core/src/projection';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VersionedRecords } from '../../../read-store/src/versioned-records';
import { FLAP_WINDOW_MS } from '../domain/incident-wording';

/** The latest incident a check opened (or reopened), and when it was resolved: what a flapping check reopens. */
export interface RecentCheckIncidentDoc {
  id: string;
  accountId: string;
  incidentId: string;
  resolvedAt: string | null;
  /** Reopened at least once since it was opened: its later updates are not emailed again. */
  reopened: boolean;
  /** The outage (its first FAILING's eventId) that opened or last reopened it. */
  outageKey?: string;
  /** Orders the writes by event time (an open at t before a resolve at t), so a replayed or late one changes nothing. */
  order?: number;
  [field: string]: unknown;
}

export const RECENT_CHECK_INCIDENTS = collectionOf<RecentCheckIncidentDoc>('heartbeat_recent_incidents');

/** Written by OutageIncidents as it opens and resolves, in the order of the event times, so replays change nothing. */
@Injectable()
export class RecentCheckIncidents {
  private ready: Promise<void> | null = null;
  private readonly records: VersionedRecords<RecentCheckIncidentDoc>;

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {
    this.records = new VersionedRecords(store, RECENT_CHECK_INCIDENTS);
  }

  private async ensure(): Promise<VersionedRecords<RecentCheckIncidentDoc>> {
    this.ready ??= this.store.ensureCollection({ name: RECENT_CHECK_INCIDENTS, indexes: [] });
    await this.ready;
    return this.records;
  }

  /** The incident a check failing at `failedAt` reopens: its last one, resolved within the flap window. */
  async reopenable(checkId: string, failedAt: string): Promise<string | null> {
    const stored = await (await this.ensure()).get(checkId);
    if (!stored || stored.doc.resolvedAt === null) return null;
    const gap = Date.parse(failedAt) - Date.parse(stored.doc.resolvedAt);
    return gap >= 0 && gap <= FLAP_WINDOW_MS ? stored.doc.incidentId : null;
  }

  async get(checkId: string): Promise<RecentCheckIncidentDoc | null> {
    return (await (await this.ensure()).get(checkId))?.doc ?? null;
  }

  async opened(accountId: string, checkId: string, incidentId: string, at: string, reopened: boolean, outageKey: string): Promise<void> {
    await this.write({ id: checkId, accountId, incidentId, resolvedAt: null, reopened, outageKey, order: Date.parse(at) * 2 });
  }

  async resolved(doc: RecentCheckIncidentDoc, at: string): Promise<void> {
    await this.write({ ...doc, resolvedAt: at, order: Date.parse(at) * 2 + 1 });
  }

  /** Writes `doc` unless the stored record comes from the same or a later event. */
  private async write(doc: RecentCheckIncidentDoc & { order: number }): Promise<void> {
    const records = await this.ensure();
    // A lost race is retried against the winner's record; three losses mean a newer writer owns it.
    for (let tries = 0; tries < 3; tries++) {
      const stored = await records.get(doc.id);
      if (!stored) {
        if (await records.insert(doc)) return;
        continue;
      }
      // Records without `order` kept it as their version.
      if ((stored.doc.order ?? Number(stored.version)) >= doc.order) return;
      if (await records.compareAndSet(doc, stored.version)) return;
    }
  }
}
