import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import Handlebars from 'handlebars';
import { CONSOLE_STYLESHEET } from './console-stylesheet';
import { PASSKEYS_SCRIPT } from './passkeys-script';
import { CONSOLE, LAYOUT, MESSAGE, SIGN_IN } from './console-templates';

export const CONSOLE_ASSETS = '/console/assets';

/** A shield: Vigil's mark in the browser's tab. */
const CONSOLE_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#1d4ed8" d="M16 2 4 7v8c0 7.5 5.1 13.4 12 15 6.9-1.6 12-7.5 12-15V7z"/><path fill="#fff" d="m14 20.6-5-5 2.1-2.1 2.9 2.9 6.9-6.9 2.1 2.1z"/></svg>`;

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** A button that POSTs (with hidden fields): what a link's page offers, so that fetching the link does nothing. */
export interface MessageForm {
  action: string;
  button: string;
  fields: Record<string, string>;
}

export interface MessageView {
  heading: string;
  paragraphs: string[];
  form?: MessageForm;
  link?: { href: string; text: string };
}

export interface SignInView {
  sent?: boolean;
  error?: string;
  email?: string;
}

/** One link of the header's navigation. */
export interface NavLink {
  href: string;
  text: string;
  current?: boolean;
}

/** What the layout shows around a signed-in person's page: the form token, and optionally navigation. */
export interface SessionChrome {
  csrf: string;
  nav?: NavLink[];
  /** "Signed in as …" beside the navigation. */
  who?: string;
  /** `?account=ID` when the person belongs to several accounts, else empty. */
  q?: string;
  notice?: string;
}

/** A static file served under CONSOLE_ASSETS by its content-hashed name (so it may be cached for good). */
export interface StaticFile {
  body: string;
  type: string;
}

/**
 * The console's one layout, stylesheet, icon and static files, and the Handlebars instance every console page
 * (people's and the console context's) is compiled with.
 */
@Injectable()
export class ConsoleRenderer {
  readonly files = new Map<string, StaticFile>();
  private readonly cssHref: string;
  private readonly faviconHref: string;
  private readonly passkeysHref: string;
  private readonly hbs = Handlebars.create();
  private readonly templates: Record<'message' | 'signIn' | 'console', Handlebars.TemplateDelegate>;

  constructor(@Inject(VIGIL_CONFIG) private readonly config: VigilConfig) {
    this.cssHref = this.addFile('console', 'css', CONSOLE_STYLESHEET, 'text/css; charset=utf-8');
    this.faviconHref = this.addFile('favicon', 'svg', CONSOLE_FAVICON, 'image/svg+xml');
    this.passkeysHref = this.addFile('passkeys', 'js', PASSKEYS_SCRIPT, 'text/javascript; charset=utf-8');
    this.hbs.registerPartial('layout', LAYOUT);
    this.templates = { message: this.compile(MESSAGE), signIn: this.compile(SIGN_IN), console: this.compile(CONSOLE) };
  }

  /** Adds a static file; returns its address. */
  addFile(name: string, ext: string, body: string, type: string): string {
    const file = `${name}.${shortHash(body)}.${ext}`;
    this.files.set(file, { body, type });
    return `${CONSOLE_ASSETS}/${file}`;
  }

  /** A page template that may use `{{#> layout}}`; render it with `page()`'s data. */
  compile(source: string): Handlebars.TemplateDelegate {
    return this.hbs.compile(source, { strict: false, noEscape: false });
  }

  /** What the layout needs: title, assets, scripts (by address) and, when signed in, the chrome. */
  page(title: string, chrome?: SessionChrome, scripts: string[] = []) {
    return { title, cssHref: this.cssHref, faviconHref: this.faviconHref, scripts, signedIn: chrome !== undefined, q: '', ...chrome };
  }

  message(view: MessageView, chrome?: SessionChrome): string {
    return this.templates.message({ ...this.page(view.heading, chrome), ...view });
  }

  signIn(view: SignInView): string {
    return this.templates.signIn({ ...this.page('Sign in', undefined, [this.passkeysHref]), sso: this.config.oidc !== null, ...view });
  }

  /** The person's page; the console's overview and the person's page are linked from its header. */
  console(view: object, chrome: SessionChrome): string {
    const q = chrome.q ?? '';
    const nav = chrome.nav ?? [{ href: `/console${q}`, text: 'Overview' }, { href: `/console/account${q}`, text: 'Your account', current: true }];
    return this.templates.console({ ...this.page('Your account', { ...chrome, nav }, [this.passkeysHref]), ...view });
  }
}
