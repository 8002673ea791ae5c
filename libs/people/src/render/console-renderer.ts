import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { CONSOLE_STYLESHEET } from './console-stylesheet';
import { CONSOLE, LAYOUT, MESSAGE, SIGN_IN } from './console-templates';

export const CONSOLE_ASSETS = '/console/assets';

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
  readonly stylesheetHref = `${CONSOLE_ASSETS}/console.${createHash('sha256').update(CONSOLE_STYLESHEET).digest('hex').slice(0, 12)}.css`;
  private readonly templates: Record<'message' | 'signIn' | 'console', Handlebars.TemplateDelegate>;

  constructor() {
    const hbs = Handlebars.create();
    hbs.registerPartial('layout', LAYOUT);
    const compile = (source: string) => hbs.compile(source, { strict: false, noEscape: false });
    this.templates = { message: compile(MESSAGE), signIn: compile(SIGN_IN), console: compile(CONSOLE) };
  }

  message(view: MessageView, chrome?: SessionChrome): string {
    return this.templates.message({ ...this.layout(view.heading, chrome), ...view });
  }

  signIn(view: SignInView): string {
    return this.templates.signIn({ ...this.layout('Sign in'), ...view });
  }

  console(view: object, chrome: SessionChrome): string {
    return this.templates.console({ ...this.layout('Console', chrome), ...view });
  }

  private layout(title: string, chrome?: SessionChrome) {
    return { title, cssHref: this.stylesheetHref, signedIn: chrome !== undefined, csrf: chrome?.csrf };
  }
}
