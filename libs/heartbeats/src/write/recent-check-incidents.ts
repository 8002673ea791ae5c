import { Inject, Injectable } from '@nestjs/common';
import { collectionOf } from '../../../core/src/projection';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
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
  [field: string]: unknown;
}

export const RECENT_CHECK_INCIDENTS = collectionOf<RecentCheckIncidentDoc>('heartbeat_recent_incidents');

/** Written by OutageIncidents as it opens and resolves; revisions are the event times, so replays change nothing. */
@Injectable()
export class RecentCheckIncidents {
  private ready: Promise<void> | null = null;

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  private async collection() {
    this.ready ??= this.store.ensureCollection({ name: RECENT_CHECK_INCIDENTS, indexes: [] });
    await this.ready;
    return RECENT_CHECK_INCIDENTS;
  }

  /** The incident a check failing at `failedAt` reopens: its last one, resolved within the flap window. */
  async reopenable(checkId: string, failedAt: string): Promise<string | null> {
    const stored = await this.store.get(await this.collection(), checkId);
    if (!stored || stored.doc.resolvedAt === null) return null;
    const gap = Date.parse(failedAt) - Date.parse(stored.doc.resolvedAt);
    return gap >= 0 && gap <= FLAP_WINDOW_MS ? stored.doc.incidentId : null;
  }

  async get(checkId: string): Promise<RecentCheckIncidentDoc | null> {
    return (await this.store.get(await this.collection(), checkId))?.doc ?? null;
  }

  async opened(accountId: string, checkId: string, incidentId: string, at: string, reopened: boolean, outageKey: string): Promise<void> {
    await this.store.put(await this.collection(), { id: checkId, accountId, incidentId, resolvedAt: null, reopened, outageKey }, BigInt(Date.parse(at)) * 2n);
  }

  async resolved(doc: RecentCheckIncidentDoc, at: string): Promise<void> {
    await this.store.put(await this.collection(), { ...doc, resolvedAt: at }, BigInt(Date.parse(at)) * 2n + 1n);
  }
}
