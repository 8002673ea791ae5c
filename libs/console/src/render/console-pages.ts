import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { ConsoleRenderer, NavLink } from '../../../people/src/people.api';
import { MESSAGE, OVERVIEW } from './console-templates';
import { INCIDENT, INCIDENT_UPDATE, INCIDENTS } from './incident-templates';
import { CHECK, CHECKS, PING } from './checks-templates';
import { KEYS } from './keys-templates';
import { LIVE_SCRIPT } from './live-script';
import { MAINTENANCE, MAINTENANCE_WINDOW } from './maintenance-templates';
import { SERVICE, SERVICES } from './services-templates';
import { STATUS_PAGE, STATUS_PAGES, SUBSCRIBERS } from './status-page-templates';
import { THEME_SCRIPT } from './theme-script';
import { CHANNEL, CHANNEL_NEW, CHANNELS } from './channel-templates';
import { AUDIT, INCIDENT_AS_OF, STATUS_PAGE_AS_OF } from './audit-templates';
import { INCIDENT_TEMPLATE, INCIDENT_TEMPLATES } from './incident-template-screens';

export type PageName = 'message' | 'overview' | 'incidents' | 'incident' | 'incident-update' | 'checks' | 'check' | 'incident-templates' | 'incident-template';
export type PagesPageName = 'services' | 'service' | 'maintenance' | 'maintenance-window' | 'status-pages' | 'status-page' | 'subscribers';
export type OpsPageName = 'channels' | 'channelNew' | 'channel' | 'ping' | 'keys';
export type AuditPageName = 'audit' | 'incidentAsOf' | 'statusPageAsOf';

/** The console's screens, in the header's order: `nav` of a page names the one it belongs to. */
const SCREENS = [
  { key: 'overview', path: '', text: 'Overview' },
  { key: 'incidents', path: '/incidents', text: 'Incidents' },
  { key: 'checks', path: '/checks', text: 'Checks' },
  { key: 'monitors', path: '/monitors', text: 'Monitors' },
  { key: 'status-pages', path: '/status-pages', text: 'Status pages' },
  { key: 'services', path: '/services', text: 'Services' },
  { key: 'maintenance', path: '/maintenance', text: 'Maintenance' },
  { key: 'channels', path: '/alert-channels', text: 'Alert channels' },
  { key: 'keys', path: '/api-keys', text: 'API keys' },
  { key: 'audit', path: '/audit', text: 'Audit log' },
  { key: 'account', path: '/account', text: 'Account and members' },
] as const;

export type Screen = (typeof SCREENS)[number]['key'];

/** The header's links, the one of `current` marked. */
export const consoleNav = (q: string, current?: Screen): NavLink[] => SCREENS.map((s) => ({ href: `/console${s.path}${q}`, text: s.text, current: s.key === current }));

/** What every page of a signed-in person shows around its content. */
export interface Chrome {
  title: string;
  email: string;
  csrf: string;
  account: { id: string; name: string; role: string } | null;
  /** `?account=ID` when the person belongs to several accounts, else empty. */
  q: string;
  nav?: Screen;
  notice?: string;
}

/** Renders the console's pages in people's console layout (one stylesheet, one set of static files). */
@Injectable()
export class ConsolePages {
  private readonly liveHref: string;
  private readonly themeHref: string;
  private readonly templates: Record<PageName | PagesPageName | OpsPageName | AuditPageName, Handlebars.TemplateDelegate>;

  constructor(private readonly renderer: ConsoleRenderer) {
    this.liveHref = renderer.addFile('live', 'js', LIVE_SCRIPT, 'text/javascript; charset=utf-8');
    this.themeHref = renderer.addFile('theme', 'js', THEME_SCRIPT, 'text/javascript; charset=utf-8');
    const compile = (source: string) => renderer.compile(source);
    this.templates = { message: compile(MESSAGE), overview: compile(OVERVIEW), incidents: compile(INCIDENTS), incident: compile(INCIDENT), checks: compile(CHECKS), check: compile(CHECK),
      services: compile(SERVICES), service: compile(SERVICE), maintenance: compile(MAINTENANCE), 'maintenance-window': compile(MAINTENANCE_WINDOW), 'status-pages': compile(STATUS_PAGES), 'status-page': compile(STATUS_PAGE), subscribers: compile(SUBSCRIBERS),
      channels: compile(CHANNELS), channelNew: compile(CHANNEL_NEW), channel: compile(CHANNEL), ping: compile(PING), keys: compile(KEYS),
      audit: compile(AUDIT), incidentAsOf: compile(INCIDENT_AS_OF), statusPageAsOf: compile(STATUS_PAGE_AS_OF),
      'incident-update': compile(INCIDENT_UPDATE),
      'incident-templates': compile(INCIDENT_TEMPLATES), 'incident-template': compile(INCIDENT_TEMPLATE) };
  }

  render(page: PageName | PagesPageName | OpsPageName | AuditPageName, chrome: Chrome, view: object): string {
    const { q, title, csrf, notice, email, account } = chrome;
    const nav = consoleNav(q, chrome.nav);
    const who = `Signed in as ${email}${account ? ` · ${account.name} (${account.role})` : ''}`;
    return this.templates[page]({
      ...view,
      ...chrome,
      ...this.renderer.page(title, { csrf, nav, who, q, notice }, page === 'overview' ? [this.liveHref] : page === 'status-page' ? [this.themeHref] : []),
      qAnd: q ? `${q}&` : '?',
    });
  }
}
