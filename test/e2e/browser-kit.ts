import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const AXE = join(__dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js');

/** Console errors, page errors, failed and third-party requests of a page (`ignore`: failures that are expected). */
export function watchPage(page: Page, origin: string, ignore: (url: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (!ignore(request.url())) problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
  });
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

/** axe's serious and critical WCAG 2.2 AA (and best-practice) violations on the page as it is loaded. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(AXE, 'utf8') });
  return page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}
