import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { ConsoleRenderer } from '../../../people/src/people.api';
import { Chrome, consoleNav } from './console-pages';
import { MONITOR, MONITORS } from './monitors-templates';

/** Renders the monitor pages in people's console layout, under the Monitors screen of the header. */
@Injectable()
export class MonitorPages {
  private readonly templates: Record<'monitors' | 'monitor', Handlebars.TemplateDelegate>;

  constructor(private readonly renderer: ConsoleRenderer) {
    this.templates = { monitors: renderer.compile(MONITORS), monitor: renderer.compile(MONITOR) };
  }

  render(page: 'monitors' | 'monitor', chrome: Chrome, view: object): string {
    const { q, title, csrf, notice, email, account } = chrome;
    const who = `Signed in as ${email}${account ? ` · ${account.name} (${account.role})` : ''}`;
    return this.templates[page]({ ...view, ...chrome, ...this.renderer.page(title, { csrf, nav: consoleNav(q, 'monitors'), who, q, notice }), qAnd: q ? `${q}&` : '?' });
  }
}
