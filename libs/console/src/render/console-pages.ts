import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { CHECK, CHECKS, INCIDENT, INCIDENTS, LAYOUT, MESSAGE, OVERVIEW } from './console-templates';
import { CONSOLE_STYLESHEET } from './console-stylesheet';
import { LIVE_SCRIPT } from './live-script';

export const STATIC_PREFIX = '/console/static';

/** A shield: Vigil's mark in the browser's tab. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#1d4ed8" d="M16 2 4 7v8c0 7.5 5.1 13.4 12 15 6.9-1.6 12-7.5 12-15V7z"/><path fill="#fff" d="m14 20.6-5-5 2.1-2.1 2.9 2.9 6.9-6.9 2.1 2.1z"/></svg>`;

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export type PageName = 'message' | 'overview' | 'incidents' | 'incident' | 'checks' | 'check';

/** What every page of a signed-in person shows around its content. */
export interface Chrome {
  title: string;
  email: string;
  csrf: string;
  account: { id: string; name: string; role: string } | null;
  /** `?account=ID` when the person belongs to several accounts, else empty. */
  q: string;
  nav?: 'overview' | 'incidents' | 'checks';
  notice?: string;
}

/** A static file served under STATIC_PREFIX by its content-hashed name (so it may be cached for good). */
export interface StaticFile {
  body: string;
  type: string;
}

/** Renders the console's pages with one Handlebars instance compiled at start. */
@Injectable()
export class ConsolePages {
  readonly files = new Map<string, StaticFile>();
  private readonly cssHref: string;
  private readonly scriptHref: string;
  private readonly faviconHref: string;
  private readonly templates: Record<PageName, Handlebars.TemplateDelegate>;

  constructor() {
    const add = (name: string, ext: string, body: string, type: string) => {
      const file = `${name}.${shortHash(body)}.${ext}`;
      this.files.set(file, { body, type });
      return `${STATIC_PREFIX}/${file}`;
    };
    this.cssHref = add('console', 'css', CONSOLE_STYLESHEET, 'text/css; charset=utf-8');
    this.scriptHref = add('live', 'js', LIVE_SCRIPT, 'text/javascript; charset=utf-8');
    this.faviconHref = add('favicon', 'svg', FAVICON, 'image/svg+xml');
    const hbs = Handlebars.create();
    hbs.registerPartial('layout', LAYOUT);
    const compile = (source: string) => hbs.compile(source, { strict: false, noEscape: false });
    this.templates = { message: compile(MESSAGE), overview: compile(OVERVIEW), incidents: compile(INCIDENTS), incident: compile(INCIDENT), checks: compile(CHECKS), check: compile(CHECK) };
  }

  render(page: PageName, chrome: Chrome, view: object): string {
    const q = chrome.q;
    return this.templates[page]({
      ...view,
      ...chrome,
      qAnd: q ? `${q}&` : '?',
      cssHref: this.cssHref,
      scriptHref: this.scriptHref,
      faviconHref: this.faviconHref,
      live: page === 'overview',
      navOverview: chrome.nav === 'overview',
      navIncidents: chrome.nav === 'incidents',
      navChecks: chrome.nav === 'checks',
    });
  }
}
