import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { MonitorsQuery, ServiceHealth, serviceMonitorsProjection } from '../../../monitors/src/monitors.api';
import { CLOCK, Clock } from '../../../core/src/clock';
import { BatchingReadStore } from '../../../read-store/src/batched-reads';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { incidentDate, IncidentDirectory, IncidentView } from '../../../incidents/src/incidents.api';
import { StatusPageDetailView, StatusPageDirectory } from '../../../status-pages/src/status-pages.api';
import { BAR_DAYS, ComponentStatus, currentStatus, DayBar, indicatorOf, Indicator, overallUptime, STATUS_OF_SEVERITY, uptimeBars, worse } from './component-status';
import { IncidentOutageDoc, incidentOutagesProjection } from './incident-outages.projection';
import { pageAddressesProjection } from './page-addresses.projection';
import { PublicMaintenance, PublicMaintenanceWindows } from './public-maintenance';

/** A page found by its public address; `base` is the path its public routes hang from. */
export interface PageRef {
  id: string;
  accountId: string;
  url: string;
  base: string;
}

export interface PublicService {
  id: string;
  name: string;
  description: string | null;
  status: ComponentStatus;
  bars: DayBar[];
  uptime: number | null;
  /** Hourly average response times (ms) of its monitors over the last 24 hours, oldest first; null without monitors. */
  responseTimes: (number | null)[] | null;
  created_at: string;
  updated_at: string;
}

export interface PublicCard {
  id: string;
  name: string;
  services: PublicService[];
  created_at: string;
  updated_at: string;
}

/** Everything the page, its JSON and its badges show, read at one instant. */
export interface PublicPageModel {
  ref: PageRef;
  page: StatusPageDetailView;
  now: Date;
  cards: PublicCard[];
  /** Each service once, in card order. */
  services: PublicService[];
  indicator: Indicator;
  open: IncidentView[];
  /** Resolved within the last 7 days. */
  recent: IncidentView[];
  maintenance: { active: PublicMaintenance[]; upcoming: PublicMaintenance[] };
}

/** Most incidents a history page or a feed lists. */
export const HISTORY_MAX = 200;
export const FEED_MAX = 50;
export const HISTORY_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;
/** Bounds the 90-day rollup read of one account. */
const OUTAGES_MAX = 5000;

/** Read side of the public pages: other contexts' exported queries plus this context's two read models. */
@Injectable()
export class PublicPages {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly pages: StatusPageDirectory,
    private readonly incidents: IncidentDirectory,
    private readonly maintenance: PublicMaintenanceWindows,
    private readonly queries: QueryBus,
  ) {}

  /** The page whose slug is `url`, or null. */
  async byUrl(url: string): Promise<PageRef | null> {
    const [doc] = await this.store.find(this.engine.collection(pageAddressesProjection), { filters: [{ field: 'url', op: 'eq', value: url }], limit: 1 });
    return doc ? { id: doc.id, accountId: doc.accountId, url: doc.url, base: `/status/${doc.url}` } : null;
  }

  /** The page whose custom domain is the request's host (port dropped, any case), or null. */
  async byHost(host: string | undefined): Promise<PageRef | null> {
    const domain = hostName(host);
    if (!domain) return null;
    const [doc] = await this.store.find(this.engine.collection(pageAddressesProjection), { filters: [{ field: 'domain', op: 'eq', value: domain }], limit: 1 });
    return doc ? { id: doc.id, accountId: doc.accountId, url: doc.url, base: '' } : null;
  }

  /**
   * Every read a page needs, in four round trips however many read models it shows (the reads of each step go
   * out together, BatchingReadStore): the page and the uptime rollups; its services, their checks, its
   * incidents, maintenance and monitors; the incidents' services.
   */
  model(ref: PageRef): Promise<PublicPageModel | null> {
    return BatchingReadStore.together(() => this.readModel(ref));
  }

  private async readModel(ref: PageRef): Promise<PublicPageModel | null> {
    const now = this.clock.now();
    const [found, outages] = await Promise.all([this.pages.getDoc(ref.accountId, ref.id), this.outages(ref.accountId, now)]);
    if (!found) return null;
    // Every service the page names; those still there (the views) are a part of them.
    const named = [...new Set(found.doc.serviceIds)];
    const [page, windows, health] = await Promise.all([
      this.pages.detail(ref.accountId, found.doc),
      this.maintenance.around(ref.accountId, named, now),
      this.queries.execute(new MonitorsQuery({ type: 'ServiceHealth', accountId: ref.accountId, serviceIds: named, now: now.getTime() })),
    ]);
    const views = new Map(page.cards.flatMap((card) => card.services).map((s) => [s.id, s]));
    const maintenance = { active: onlyServices(windows.active, views), upcoming: onlyServices(windows.upcoming, views) };
    const incidents: IncidentView[] = page.incidents;
    const open = incidents.filter((i) => i.lastUpdateStatus !== 'RESOLVED');
    const recent = incidents.filter((i) => i.lastUpdateStatus === 'RESOLVED');
    const bars = uptimeBars([...views.values()], outages, now);
    const inMaintenance = new Set(maintenance.active.flatMap((w) => w.serviceIds));
    const services = new Map<string, PublicService>();
    for (const [id, view] of views) {
      const severities = open.filter((i) => i.services.some((s) => s.id === id)).map((i) => i.severity);
      const serviceBars = bars.get(id) ?? [];
      services.set(id, {
        id,
        name: view.name,
        description: view.description ?? null,
        status: withMonitors(currentStatus(severities, inMaintenance.has(id)), health.get(id)),
        bars: serviceBars,
        uptime: overallUptime(serviceBars),
        responseTimes: health.get(id)?.hourly ?? null,
        created_at: view.created_at,
        updated_at: view.updated_at,
      });
    }
    const cards = page.cards.map((card) => ({
      id: card.id,
      name: card.name,
      services: card.services.flatMap((s) => services.get(s.id) ?? []),
      created_at: card.created_at,
      updated_at: card.updated_at,
    }));
    const list = [...services.values()];
    return { ref, page, now, cards, services: list, indicator: indicatorOf(list.map((s) => s.status)), open, recent, maintenance };
  }

  /** The incident if it shows on the page (touches one of its services), else null. */
  async incident(ref: PageRef, incidentId: string, serviceIds: string[]): Promise<IncidentView | null> {
    const found = await this.incidents.get(ref.accountId, incidentId);
    return found?.incident.services.some((s) => serviceIds.includes(s.id)) ? found.incident : null;
  }

  /**
   * History page `n` (1 = the latest): incidents of the page's services created in the `HISTORY_WINDOW_DAYS`
   * days ending `(n - 1) × HISTORY_WINDOW_DAYS` days ago, newest first, at most HISTORY_MAX.
   */
  async history(ref: PageRef, serviceIds: string[], n: number): Promise<{ incidents: IncidentView[]; from: Date; to: Date; more: boolean }> {
    const nowMs = this.clock.now().getTime();
    const to = new Date(nowMs - (n - 1) * HISTORY_WINDOW_DAYS * DAY_MS);
    const from = new Date(to.getTime() - HISTORY_WINDOW_DAYS * DAY_MS);
    if (serviceIds.length === 0) return { incidents: [], from, to, more: false };
    // Keyset start at the window's end: the list is (incidentDate, id) descending and ids are never above 'g'.
    const after = n === 1 ? undefined : { value: to.toISOString(), id: 'g' };
    const listed = await this.incidents.list(ref.accountId, HISTORY_MAX, after, { serviceIds });
    const inWindow = listed.filter((i) => incidentDate(i) >= from.toISOString()).slice(0, HISTORY_MAX);
    const older = await this.incidents.list(ref.accountId, 1, { value: from.toISOString(), id: 'g' }, { serviceIds });
    return { incidents: inWindow, from, to, more: older.length > 0 };
  }

  /** The latest incidents of the page's services, for feeds and incidents.json. */
  latest(ref: PageRef, serviceIds: string[], limit = FEED_MAX): Promise<IncidentView[]> {
    if (serviceIds.length === 0) return Promise.resolve([]);
    return this.incidents.list(ref.accountId, limit, undefined, { serviceIds }).then((list) => list.slice(0, limit));
  }

  /**
   * Changes whenever any public answer may have: every collection they read, and the minute (uptime of
   * today and the 7-day and 90-day windows move with time). Null: keep nothing.
   */
  changeToken(): string | null {
    const stores = this.incidents.changeToken([
      ...this.pages.readFrom(),
      this.engine.collection(pageAddressesProjection),
      this.engine.collection(incidentOutagesProjection),
      this.engine.collection(serviceMonitorsProjection),
    ]);
    const maintenance = this.maintenance.changeToken();
    if (stores === null || maintenance === null) return null;
    return `${stores}|${maintenance}|${Math.floor(this.clock.now().getTime() / 60_000)}`;
  }

  /** The daily rollups of the account's incidents that cover any of the last BAR_DAYS days. */
  private outages(accountId: string, now: Date): Promise<IncidentOutageDoc[]> {
    const firstDay = new Date(now.getTime() - (BAR_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    return this.store.find(this.engine.collection(incidentOutagesProjection), {
      filters: [
        { field: 'accountLastDay', op: 'gte', value: `${accountId}:${firstDay}` },
        // ';' follows ':' in code point order: the upper bound of this account's keys.
        { field: 'accountLastDay', op: 'lt', value: `${accountId};` },
      ],
      limit: OUTAGES_MAX,
    });
  }
}

/** Windows as they show beside these services: those naming none of them left out. */
function onlyServices(windows: PublicMaintenance[], services: ReadonlyMap<string, unknown>): PublicMaintenance[] {
  return windows.flatMap((window) => {
    const serviceIds = window.serviceIds.filter((id) => services.has(id));
    return serviceIds.length > 0 ? [{ ...window, serviceIds }] : [];
  });
}

/** A service's status with what its monitors say: failing as the severity its incident would have, slow as degraded. */
function withMonitors(status: ComponentStatus, health: ServiceHealth | undefined): ComponentStatus {
  if (!health || status === 'under_maintenance') return status;
  if (health.state === 'FAILING') return worse(status, STATUS_OF_SEVERITY[(health.severity ?? 'MAJOR') as keyof typeof STATUS_OF_SEVERITY]);
  if (health.state === 'DEGRADED') return worse(status, 'degraded_performance');
  return status;
}

/** The host name of a Host header, lower case, without port; null when absent or not a plain name. */
export function hostName(host: string | undefined): string | null {
  if (!host) return null;
  const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(name) ? name : null;
}
