import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { ConsoleRenderer, NavLink } from '../../../people/src/people.api';
import { CHECK, CHECKS, MESSAGE, OVERVIEW } from './console-templates';
import { INCIDENT, INCIDENT_UPDATE, INCIDENTS } from './incident-templates';
import { LIVE_SCRIPT } from './live-script';

export type PageName = 'message' | 'overview' | 'incidents' | 'incident' | 'checks' | 'check'
  | 'incident-update';

/** The console's screens, in the header's order: `nav` of a page names the one it belongs to. */
const SCREENS = [
  { key: 'overview', path: '', text: 'Overview' },
  { key: 'incidents', path: '/incidents', text: 'Incidents' },
  { key: 'checks', path: '/checks', text: 'Checks' },
  { key: 'account', path: '/account', text: 'Your account' },
] as const;

export type Screen = (typeof SCREENS)[number]['key'];

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
  private readonly templates: Record<PageName, Handlebars.TemplateDelegate>;

  constructor(private readonly renderer: ConsoleRenderer) {
    this.liveHref = renderer.addFile('live', 'js', LIVE_SCRIPT, 'text/javascript; charset=utf-8');
    const compile = (source: string) => renderer.compile(source);
    this.templates = { message: compile(MESSAGE), overview: compile(OVERVIEW), incidents: compile(INCIDENTS), incident: compile(INCIDENT), checks: compile(CHECKS), check: compile(CHECK),
      'incident-update': compile(INCIDENT_UPDATE),
    };
  }

  render(page: PageName, chrome: Chrome, view: object): string {
    const { q, title, csrf, notice, email, account } = chrome;
    const nav: NavLink[] = SCREENS.map((s) => ({ href: `/console${s.path}${q}`, text: s.text, current: s.key === chrome.nav }));
    const who = `Signed in as ${email}${account ? ` · ${account.name} (${account.role})` : ''}`;
    return this.templates[page]({
      ...view,
      ...chrome,
      ...this.renderer.page(title, { csrf, nav, who, q, notice }, page === 'overview' ? [this.liveHref] : []),
      qAnd: q ? `${q}&` : '?',
    });
  }
}
