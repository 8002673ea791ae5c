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

/** Set on every page of a signed-in person: the header's sign-out form needs the form token. */
export interface SessionChrome {
  csrf: string;
}

/** Renders the console's pages with one Handlebars instance compiled at start. */
@Injectable()
export class ConsoleRenderer {
  readonly stylesheet = CONSOLE_STYLESHEET;
  readonly stylesheetHref = `${CONSOLE_ASSETS}/console.${shortHash(CONSOLE_STYLESHEET)}.css`;
  readonly favicon = CONSOLE_FAVICON;
  readonly script = PASSKEYS_SCRIPT;
  readonly scriptHref = `${CONSOLE_ASSETS}/passkeys.${shortHash(PASSKEYS_SCRIPT)}.js`;
  readonly faviconHref = `${CONSOLE_ASSETS}/favicon.${shortHash(CONSOLE_FAVICON)}.svg`;
  private readonly templates: Record<'message' | 'signIn' | 'console', Handlebars.TemplateDelegate>;

  constructor(@Inject(VIGIL_CONFIG) private readonly config: VigilConfig) {
    const hbs = Handlebars.create();
    hbs.registerPartial('layout', LAYOUT);
    const compile = (source: string) => hbs.compile(source, { strict: false, noEscape: false });
    this.templates = { message: compile(MESSAGE), signIn: compile(SIGN_IN), console: compile(CONSOLE) };
  }

  message(view: MessageView, chrome?: SessionChrome): string {
    return this.templates.message({ ...this.layout(view.heading, chrome), ...view });
  }

  signIn(view: SignInView): string {
    return this.templates.signIn({ ...this.layout('Sign in'), passkeys: true, sso: this.config.oidc !== null, ...view });
  }

  console(view: object, chrome: SessionChrome): string {
    return this.templates.console({ ...this.layout('Console', chrome), passkeys: true, ...view });
  }

  private layout(title: string, chrome?: SessionChrome) {
    return { title, cssHref: this.stylesheetHref, faviconHref: this.faviconHref, scriptHref: this.scriptHref, signedIn: chrome !== undefined, csrf: chrome?.csrf };
  }
}
