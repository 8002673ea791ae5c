import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const AXE = join(__dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js');
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** `describe` where Chromium is installed; elsewhere `describe.skip`, with a warning naming what is skipped. */
export function chromiumDescribe(what: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  console.warn(`Skipping the ${what}: ${CHROMIUM} is absent.`);
  return describe.skip;
}

/** Headless Chromium as every browser test runs it; `args` are added to its flags (a host resolver rule). */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...args] });
}

export interface WatchOptions {
  /** Failed requests that are expected (an event stream cut when the page goes away). */
  ignore?: (url: string) => boolean;
  /** Console warnings and answers ≥ 400 count too (the public pages promise none). */
  strict?: boolean;
}

/** Console errors, page errors, failed and third-party requests of a page. */
export function watchPage(page: Page, origin: string, { ignore = () => false, strict = false }: WatchOptions = {}): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || (strict && message.type() === 'warning')) problems.push(`console${strict ? ` ${message.type()}` : ''}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (!ignore(request.url())) problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  if (strict) {
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
  }
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) problems.push(`third-party request: ${request.url()}`);
  });
  return problems;
}

/** A browser context of a signed-in person: the session cookie (`name=value`) of a CLI sign-in link. */
export async function signedInContext(browser: Browser, origin: string, cookie: string, options: Record<string, unknown> = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 900 }, ...options });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: origin }]);
  return context;
}

/** axe's serious and critical WCAG 2.2 AA (and best-practice) violations on the page as it is loaded (its CSP bypassed). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(AXE, 'utf8') });
  return page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}
