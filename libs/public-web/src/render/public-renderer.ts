import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { IncidentView } from '../../../incidents/src/incidents.api';
import { ComponentStatus, DayBar, IMPACT_OF_SEVERITY, Indicator, INDICATOR_DESCRIPTION, overallUptime, STATUS_LABEL, STATUS_OF_SEVERITY } from '../read/component-status';
import { PublicMaintenance } from '../read/public-maintenance';
import { PageRef, PublicPageModel } from '../read/public-pages.query';
import { dayText, percentText, plural, statusWord, timeText } from './formatting';
import { createMarkdown, Markdown } from './markdown';
import { FAVICON_SVG, STYLESHEET } from './stylesheet';
import { responseChart } from './response-chart';
import { BADGE, HISTORY, INCIDENT_PAGE, INCIDENT_PARTIAL, LAYOUT, MAINTENANCE_PARTIAL, MESSAGE, PAGE, SUBSCRIBE_PARTIAL } from './templates';
import { shortHash, themeStylesheet } from './theme-stylesheet';
import { shortened, xmlSafe } from './xml-text';
import { StatusPageDetailView } from '../../../status-pages/src/status-pages.api';

/** Where Vigil's own assets are served; outside /status/{url} so no page slug can shadow them. */
export const ASSET_PREFIX = '/_vigil';

const ICON: Record<ComponentStatus, string> = {
  operational: '✓',
  degraded_performance: '!',
  partial_outage: '!',
  major_outage: '✕',
  under_maintenance: '⚙',
};

const BANNER_ICON: Record<Indicator, string> = { none: '✓', minor: '!', major: '!', critical: '✕' };

/** `form`: a button posting to `action` (a link in an email acts only on this POST, never on the GET); `back: false` drops the home link. */
export interface MessageOptions {
  form?: { action: string; button: string };
  back?: boolean;
}

/** What every page's layout needs. */
interface LayoutView {
  title: string;
  summary: string | null;
  colorScheme: string;
  cssHref: string;
  themeHref: string;
  faviconHref: string;
  base: string;
  home: string;
  name: string;
  logo: string | null;
  logoDark: string | null;
  redirectTo: string | null;
  /** Not a page's own (an unknown address): no navigation, no feeds. */
  plain: boolean;
}

/** A run of consecutive bars shown as one element: clean days are grouped, every other day stands alone. */
interface BarRun {
  /** Short class of the status (the bars are most of a page's bytes). */
  code: string;
  days: number;
  text: string;
  /** Older than the last NARROW_DAYS: left out on narrow screens, where 90 bars would be slivers. */
  old: boolean;
}

/** Days of bars a narrow screen (below 600 px) shows. */
export const NARROW_DAYS = 30;

const BAR_CODE: Record<DayBar['status'], string> = {
  operational: 'op',
  degraded_performance: 'dg',
  partial_outage: 'po',
  major_outage: 'mo',
  under_maintenance: 'um',
  no_data: 'nd',
};

/** "17 Nov 2026", "17 – 18 Nov 2026", "28 Aug – 15 Oct 2026", "28 Dec 2025 – 2 Jan 2026". */
function rangeText(from: string, to: string): string {
  if (from === to) return dayText(from);
  const a = dayText(from).split(' ');
  const b = dayText(to).split(' ');
  if (a[2] !== b[2]) return `${a.join(' ')} – ${b.join(' ')}`;
  if (a[1] !== b[1]) return `${a[0]} ${a[1]} – ${b.join(' ')}`;
  return `${a[0]} – ${b.join(' ')}`;
}

const SAFE_URL = /^https?:\/\//i;
const safeUrl = (url: string | null | undefined): string | null => (url && SAFE_URL.test(url) ? url : null);

export function barRuns(bars: DayBar[]): BarRun[] {
  const runs: { status: DayBar['status']; from: DayBar; to: DayBar; days: number; clean: boolean; old: boolean }[] = [];
  bars.forEach((bar, i) => {
    const clean = bar.status === 'no_data' || (bar.incidents === 0 && bar.uptime === 100);
    // A run never crosses the narrow screens' first day, so CSS can hide whole runs.
    const old = i < bars.length - NARROW_DAYS;
    const last = runs[runs.length - 1];
    if (clean && last && last.clean && last.status === bar.status && last.old === old) {
      last.to = bar;
      last.days += 1;
    } else {
      runs.push({ status: bar.status, from: bar, to: bar, days: 1, clean, old });
    }
  });
  return runs.map((run) => {
    const when = rangeText(run.from.day, run.to.day);
    const code = BAR_CODE[run.status];
    if (run.status === 'no_data') return { code, days: run.days, text: `${when}: no data`, old: run.old };
    const incidents = run.from.incidents === 0 ? 'no incidents' : plural(run.from.incidents, 'incident', 'incidents');
    const label = run.status === 'operational' ? '' : ` (${STATUS_LABEL[run.status].toLowerCase()})`;
    return { code, days: run.days, text: `${when}: ${percentText(run.from.uptime as number)} uptime, ${incidents}${label}`, old: run.old };
  });
}

/** Renders the public pages (HTML, SVG) with one Handlebars instance compiled at start. */
@Injectable()
export class PublicRenderer {
  readonly markdown: Markdown = createMarkdown();
  readonly stylesheet = STYLESHEET;
  readonly stylesheetHref = `${ASSET_PREFIX}/vigil.${shortHash(STYLESHEET)}.css`;
  readonly favicon = FAVICON_SVG;
  readonly faviconHref = `${ASSET_PREFIX}/favicon.${shortHash(FAVICON_SVG)}.svg`;
  private readonly templates: Record<'page' | 'history' | 'incident' | 'message' | 'badge' | 'card', Handlebars.TemplateDelegate>;

  constructor() {
    const hbs = Handlebars.create();
    hbs.registerHelper('md', (text: unknown) => new hbs.SafeString(this.markdown.render(typeof text === 'string' ? text : '')));
    hbs.registerPartial({ layout: LAYOUT, incident: INCIDENT_PARTIAL, maintenance: MAINTENANCE_PARTIAL, subscribe: SUBSCRIBE_PARTIAL });
    const options = { strict: false, noEscape: false, knownHelpersOnly: false };
    this.templates = {
      page: hbs.compile(PAGE, options),
      history: hbs.compile(HISTORY, options),
      incident: hbs.compile(INCIDENT_PAGE, options),
      message: hbs.compile(MESSAGE, options),
      badge: hbs.compile(BADGE, options),
      card: hbs.compile('{{> incident}}', options),
    };
  }

  /** The page's theme stylesheet and the name it is served under (changes with the theme, so it can be cached long). */
  theme(page: StatusPageDetailView): { css: string; hash: string } {
    const css = themeStylesheet(page.defaultTheme, page.themeColors);
    return { css, hash: shortHash(css) };
  }

  page(model: PublicPageModel): string {
    const { page, ref } = model;
    const banner = this.banner(model);
    return this.templates.page({
      ...this.layout(ref, page, page.name, page.description),
      name: page.name,
      description: page.description,
      ...banner,
      open: model.open.map((i) => this.incidentView(ref, i)),
      recent: model.recent.map((i) => this.incidentView(ref, i)),
      maintenance: {
        active: model.maintenance.active.map((w) => this.maintenanceView(model, w)),
        upcoming: model.maintenance.upcoming.map((w) => this.maintenanceView(model, w)),
      },
      cards: model.cards.map((card) => ({
        id: card.id,
        name: card.name,
        services: card.services.map((s) => ({
          name: s.name,
          description: s.description,
          status: s.status,
          statusLabel: STATUS_LABEL[s.status],
          icon: ICON[s.status],
          runs: barRuns(s.bars),
          chart: responseChart(s.responseTimes),
          uptimeText: uptimeText(s.uptime),
          // Narrow screens show the last 30 days; the figure under them is of those days.
          narrowUptimeText: uptimeText(overallUptime(s.bars.slice(-NARROW_DAYS))),
        })),
      })),
    });
  }

  history(ref: PageRef, page: StatusPageDetailView, incidents: IncidentView[], range: { from: Date; to: Date; n: number; more: boolean }): string {
    return this.templates.history({
      ...this.layout(ref, page, `Incident history – ${page.name}`, null),
      rangeText: `${dayText(range.from)} – ${dayText(range.to)}`,
      incidents: incidents.map((i) => this.incidentView(ref, i)),
      newer: range.n > 1 ? (range.n === 2 ? `${ref.base}/history` : `${ref.base}/history?page=${range.n - 1}`) : null,
      older: range.more ? `${ref.base}/history?page=${range.n + 1}` : null,
    });
  }

  incident(ref: PageRef, page: StatusPageDetailView, incident: IncidentView): string {
    // The page's h1 names the incident; its card does not say it again.
    return this.templates.incident({ ...this.layout(ref, page, `${incident.name} – ${page.name}`, null), incident: { ...this.incidentView(ref, incident), standalone: true } });
  }

  /** An incident's card as status pages show it, without its link: the console's preview of what customers will read. */
  incidentCard(incident: IncidentView): string {
    return this.templates.card({ ...this.incidentView({ id: '', accountId: '', url: '', base: '' }, incident), standalone: true });
  }

  /** A short page of its own (not found, subscribed, too many requests, a subscriber link), in the page's look when there is one. */
  message(ref: PageRef | null, page: StatusPageDetailView | null, heading: string, paragraphs: string[], options: MessageOptions = {}): string {
    const layout = page && ref ? this.layout(ref, page, `${heading} – ${page.name}`, null) : this.plainLayout(heading);
    const backText = options.back === false ? null : page ? 'Back to current status' : 'Vigil';
    return this.templates.message({ ...layout, heading, paragraphs, form: options.form ?? null, backText });
  }

  /** A subscriber link's page (confirm, unsubscribe) in the look of the status page it belongs to, when it still exists. */
  subscriberPage(page: StatusPageDetailView | null, heading: string, paragraphs: string[], options: MessageOptions = {}): string {
    const ref = page ? { id: page.id, accountId: page.accountId, url: page.url, base: `/status/${encodeURIComponent(page.url)}` } : null;
    return this.message(ref, page, heading, paragraphs, options);
  }

  badge(label: string, message: string, color: string): string {
    const shortLabel = shortened(xmlSafe(label), 40);
    const shortMessage = xmlSafe(message);
    const labelWidth = textWidth(shortLabel) + 10;
    const messageWidth = textWidth(shortMessage) + 10;
    return this.templates.badge({
      label: shortLabel,
      message: shortMessage,
      color,
      width: labelWidth + messageWidth,
      labelWidth,
      messageWidth,
      labelX: labelWidth / 2,
      messageX: labelWidth + messageWidth / 2,
    });
  }

  private banner(model: PublicPageModel): { bannerClass: string; bannerText: string; bannerIcon: string } {
    if (model.indicator === 'none' && model.maintenance.active.length > 0) {
      return { bannerClass: 'maint', bannerText: 'Maintenance in progress', bannerIcon: '⚙' };
    }
    const text = model.indicator === 'none' ? 'All systems operational' : INDICATOR_DESCRIPTION[model.indicator];
    return { bannerClass: model.indicator, bannerText: text, bannerIcon: BANNER_ICON[model.indicator] };
  }

  private layout(ref: PageRef, page: StatusPageDetailView, title: string, summary: string | null): LayoutView {
    const logo = safeUrl(page.logo);
    return {
      title,
      summary,
      colorScheme: page.defaultTheme === 'LIGHT' ? 'light' : page.defaultTheme === 'DARK' ? 'dark' : 'light dark',
      cssHref: this.stylesheetHref,
      themeHref: `${ref.base}/theme/${this.theme(page).hash}.css`,
      faviconHref: safeUrl(page.favicon) ?? this.faviconHref,
      base: ref.base,
      home: ref.base === '' ? '/' : ref.base,
      name: page.name,
      logo,
      logoDark: logo ? safeUrl(page.logoDark) : null,
      redirectTo: safeUrl(page.redirectTo),
      plain: false,
    };
  }

  private plainLayout(title: string): LayoutView {
    return {
      title,
      summary: null,
      colorScheme: 'light dark',
      cssHref: this.stylesheetHref,
      themeHref: `${ASSET_PREFIX}/theme-default.css`,
      faviconHref: this.faviconHref,
      base: '',
      home: '/',
      name: 'Vigil',
      logo: null,
      logoDark: null,
      redirectTo: null,
      plain: true,
    };
  }

  private incidentView(ref: PageRef, incident: IncidentView) {
    const status = STATUS_OF_SEVERITY[incident.severity];
    const resolved = incident.lastUpdateStatus === 'RESOLVED';
    const latest = incident.incidentUpdates[incident.incidentUpdates.length - 1];
    return {
      id: incident.id,
      name: incident.name,
      href: `${ref.base}/incidents/${incident.id}`,
      impactStatus: resolved ? 'operational' : status,
      impactIcon: resolved ? ICON.operational : ICON[status],
      impactLabel: resolved ? 'Resolved' : STATUS_LABEL[status],
      statusLabel: resolved ? `Impact: ${IMPACT_OF_SEVERITY[incident.severity]}` : statusWord(incident.lastUpdateStatus),
      affected: incident.services.length === 0 ? 'No services' : `Affects ${incident.services.map((s) => s.name).join(', ')}`,
      lastAt: latest?.publicIncidentUpdateDate ?? null,
      lastAtText: latest ? timeText(latest.publicIncidentUpdateDate) : null,
      // Newest first, as status pages show a timeline.
      updates: [...incident.incidentUpdates].reverse().map((u) => ({
        statusLabel: statusWord(u.status),
        at: u.publicIncidentUpdateDate,
        atText: timeText(u.publicIncidentUpdateDate),
        description: u.description,
      })),
    };
  }

  private maintenanceView(model: PublicPageModel, window: PublicMaintenance) {
    const names = model.services.filter((s) => window.serviceIds.includes(s.id)).map((s) => s.name);
    return {
      name: window.name,
      startsAt: window.startsAt,
      endsAt: window.endsAt,
      startsText: timeText(window.startsAt),
      endsText: timeText(window.endsAt),
      affected: names.length > 0 ? `Affects ${names.join(', ')}` : null,
    };
  }
}

const uptimeText = (uptime: number | null): string => (uptime === null ? 'No data yet' : `${percentText(uptime)} uptime`);

/** Approximate width in px of 11 px Verdana, enough to size a badge. */
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[A-Z@%MW]/.test(ch) ? 8.5 : /[iljtf.,:;'|!]/.test(ch) ? 3.5 : 7;
  return Math.ceil(width);
}
