import { Inject, Injectable } from '@nestjs/common';
import { Collection } from '../../../core/src/projection';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { WindowConfig } from '../domain/maintenance-window.decider';
import { activeAt, maintenanceEnd, Occurrence, occurrencesBetween } from '../domain/window-occurrences';
import { MaintenanceWindowDoc, maintenanceWindowsProjection } from './maintenance-windows.projection';
import { getOwn } from '../../../read-store/src/account-docs';
import { newestOfAccount } from '../../../http/src/account-pages';

/** A maintenance window as every response shows it. */
export interface MaintenanceWindowView extends WindowConfig {
  id: string;
  created_at: string;
  updated_at: string;
}

/** A window and one of its occurrences. */
export interface WindowOccurrence {
  window: MaintenanceWindowView;
  start: Date;
  end: Date;
}

/** Which windows a question is about: those with one of these tags or naming one of these services (either matches). */
export interface WindowFilter {
  tags?: string[];
  serviceIds?: string[];
}

const PAGE = 500;

function matches(window: WindowConfig, filter: WindowFilter): boolean {
  if (!filter.tags && !filter.serviceIds) return true;
  return (filter.tags ?? []).some((tag) => window.tags.includes(tag)) || (filter.serviceIds ?? []).some((id) => window.serviceIds.includes(id));
}

/**
 * The maintenance windows read model: the API's queries, and what the watchdog, the alerts and the
 * public pages ask — which windows are active at an instant, which occur in a range.
 */
@Injectable()
export class MaintenanceDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async get(accountId: string, id: string): Promise<{ window: MaintenanceWindowView; revision: bigint } | null> {
    const stored = await getOwn(this.store, this.collection(), accountId, id);
    if (!stored) return null;
    return { window: present(stored.doc), revision: stored.revision };
  }

  /** One page, newest first, one row more than `limit`. */
  async list(accountId: string, limit: number, after: FindQuery['after']): Promise<MaintenanceWindowView[]> {
    return (await newestOfAccount(this.store, this.collection(), accountId, limit, after)).map(present);
  }

  /** The windows active at `instant` (filtered), each with the occurrence it is in. */
  async windowsActiveAt(accountId: string, instant: Date, filter: WindowFilter = {}): Promise<WindowOccurrence[]> {
    const out: WindowOccurrence[] = [];
    for (const window of await this.all(accountId)) {
      if (!matches(window, filter)) continue;
      const found: Occurrence | null = activeAt(window, instant);
      if (found) out.push({ window, start: found.start, end: found.end });
    }
    return out.sort((a, b) => a.start.getTime() - b.start.getTime());
  }

  /** Occurrences overlapping [from, until) — active ones included — by start time (filtered). */
  async upcoming(accountId: string, from: Date, until: Date, filter: WindowFilter = {}): Promise<WindowOccurrence[]> {
    const out: WindowOccurrence[] = [];
    for (const window of await this.all(accountId)) {
      if (!matches(window, filter)) continue;
      for (const found of occurrencesBetween(window, from, until)) out.push({ window, start: found.start, end: found.end });
    }
    return out.sort((a, b) => a.start.getTime() - b.start.getTime() || a.window.id.localeCompare(b.window.id));
  }

  /**
   * When the maintenance covering `instant` (filtered, chained over back-to-back windows) ends, or null
   * when none covers it: where a deadline the watchdog must not fail restarts.
   */
  async maintenanceEnd(accountId: string, instant: Date, filter: WindowFilter = {}): Promise<Date | null> {
    return (await this.maintenanceEnds(accountId))(instant, filter);
  }

  /** maintenanceEnd for many instants of one account with one read of its windows (a watchdog pass). */
  async maintenanceEnds(accountId: string): Promise<(instant: Date, filter?: WindowFilter) => Date | null> {
    const windows = await this.all(accountId);
    return (instant, filter = {}) => (windows.length === 0 ? null : maintenanceEnd(windows.filter((window) => matches(window, filter)), instant));
  }

  /** A window naming the service, for "still used" (409 on deleting the service), or null. */
  async usingService(accountId: string, serviceId: string): Promise<MaintenanceWindowView | null> {
    const docs = await this.store.find(this.collection(), {
      filters: [
        { field: 'serviceIds', op: 'contains', value: serviceId },
        { field: 'accountId', op: 'eq', value: accountId },
      ],
      limit: 1,
    });
    return docs[0] ? present(docs[0]) : null;
  }

  /** Changes whenever a window may have; null: nothing may be cached. */
  changeToken(): string | null {
    return this.store.changeToken([this.collection()]);
  }

  private async all(accountId: string): Promise<MaintenanceWindowView[]> {
    const out: MaintenanceWindowView[] = [];
    let after: FindQuery['after'];
    for (;;) {
      const docs = await this.store.find(this.collection(), {
        filters: [{ field: 'accountId', op: 'eq', value: accountId }],
        sort: { field: 'created_at', direction: 'asc' },
        limit: PAGE,
        after,
      });
      out.push(...docs.map(present));
      if (docs.length < PAGE) return out;
      const last = docs[docs.length - 1];
      after = { value: last.created_at, id: last.id };
    }
  }

  private collection(): Collection<MaintenanceWindowDoc> {
    return this.engine.collection(maintenanceWindowsProjection);
  }
}

function present(doc: MaintenanceWindowDoc): MaintenanceWindowView {
  return {
    id: doc.id,
    name: doc.name,
    tags: doc.tags,
    startsAt: doc.startsAt,
    endsAt: doc.endsAt,
    repeatInterval: doc.repeatInterval,
    repeatUnit: doc.repeatUnit,
    repeatEndsAt: doc.repeatEndsAt,
    timezone: doc.timezone,
    serviceIds: doc.serviceIds,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}
