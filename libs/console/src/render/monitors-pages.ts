import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { Chrome, ConsolePages } from './console-pages';
import { LAYOUT } from './console-templates';
import { MONITOR, MONITORS } from './monitors-templates';

/** Renders the monitor pages in the console's layout, with the console's static files. */
@Injectable()
export class MonitorPages {
  private readonly templates: Record<'monitors' | 'monitor', Handlebars.TemplateDelegate>;
  private readonly hrefs: { cssHref: string; scriptHref: string; faviconHref: string };

  constructor(pages: ConsolePages) {
    const hbs = Handlebars.create();
    hbs.registerPartial('layout', LAYOUT);
    this.templates = { monitors: hbs.compile(MONITORS, { strict: false }), monitor: hbs.compile(MONITOR, { strict: false }) };
    // The console's content-hashed files, found by name.
    const href = (prefix: string, ext: string) => `/console/static/${[...pages.files.keys()].find((f) => f.startsWith(`${prefix}.`) && f.endsWith(`.${ext}`)) ?? ''}`;
    this.hrefs = { cssHref: href('console', 'css'), scriptHref: href('live', 'js'), faviconHref: href('favicon', 'svg') };
  }

  render(page: 'monitors' | 'monitor', chrome: Chrome, view: object): string {
    return this.templates[page]({ ...view, ...chrome, ...this.hrefs, qAnd: chrome.q ? `${chrome.q}&` : '?', live: false, navMonitors: true });
  }
}
