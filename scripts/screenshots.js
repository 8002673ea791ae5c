'use strict';
// The README's console screenshots: docs/images/console-overview.png and docs/images/incident-composer.png.
// Run: npm run build && node scripts/screenshots.js   (needs Chromium: CHROMIUM=/path, default /usr/bin/chromium)
//
// Starts the built server on a fresh data directory, writes a small example through the API, signs a person
// in as README says (the admin CLI's `users create` and `users login-link`), and photographs two pages.
const { mkdirSync } = require('node:fs');
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { startVigil, ROOT } = require('../test/bench/lib');

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT = join(ROOT, 'docs', 'images');

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body && JSON.stringify(body) });
  const json = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function cli(vigil, args) {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'), ...args], { env: { ...process.env, VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PUBLIC_URL: vigil.url, LOG_LEVEL: 'error' }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cli ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  return run.stdout.trim().split('\n').pop();
}

async function example(vigil) {
  const services = [];
  for (const name of ['Website', 'API', 'Checkout', 'Search']) services.push(await api(vigil, 'POST', '/v1/status-pages/services', { name }));
  await api(vigil, 'POST', '/v1/status-pages', { name: 'Acme status', url: 'acme', cards: [{ name: 'Acme', services: services.map((s) => ({ id: s.id })) }] });
  await api(vigil, 'POST', '/v1/status-pages/incidents', { name: 'Slow search results', severity: 'MINOR', services: [{ id: services[3].id }], incidentUpdates: [{ description: 'Search answers in 5–10 s; we are looking into it.', status: 'IDENTIFIED' }] });
  const checks = [];
  for (const name of ['nightly-backup', 'invoice-export', 'cache-warmup', 'log-rotation', 'sitemap']) {
    checks.push(await api(vigil, 'POST', '/v1/checks/heartbeat', { name, heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }));
  }
  for (const [i, check] of checks.entries()) if (i < 4) await fetch(`${vigil.url}/ping/${check.heartbeat.pingToken}${i === 1 ? '/fail' : ''}`);
  await api(vigil, 'POST', '/v1/maintenance-windows', { name: 'Database upgrade', startsAt: new Date(Date.now() + 86_400_000).toISOString(), endsAt: new Date(Date.now() + 90_000_000).toISOString(), services: [{ id: services[1].id }] }).catch(() => null);
}

async function main() {
  const accountId = randomUUID();
  const vigil = await startVigil({ VIGIL_BOOTSTRAP_ACCOUNT_ID: accountId });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    await example(vigil);
    cli(vigil, ['users', 'create', '--email', 'ada@example.com', '--account', accountId, '--role', 'ADMIN']);
    const { url } = JSON.parse(cli(vigil, ['users', 'login-link', '--email', 'ada@example.com', '--json']));
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await Promise.all([page.waitForURL(/\/console$/), page.locator('main button[type=submit]').first().click()]);
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'console-overview.png'), fullPage: true });

    await page.goto(`${vigil.url}/console/incidents`, { waitUntil: 'load' });
    const form = page.locator('form.declare');
    await form.getByLabel('Name', { exact: true }).fill('Checkout fails for some cards');
    await form.getByLabel('Severity').selectOption('MAJOR');
    await form.getByLabel('Checkout').check();
    await form.getByLabel('API').check();
    await form.getByLabel('First update').fill('Some **card payments** are declined. We are investigating with our payment provider.');
    await Promise.all([page.waitForLoadState('load'), form.getByRole('button', { name: 'Preview' }).click()]);
    const box = await page.locator('section[aria-labelledby=declare-h]').boundingBox();
    await page.screenshot({ path: join(OUT, 'incident-composer.png'), fullPage: true, clip: box ?? undefined });
    console.log(`wrote ${join(OUT, 'console-overview.png')} and ${join(OUT, 'incident-composer.png')}`);
  } finally {
    await browser.close();
    await vigil.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
