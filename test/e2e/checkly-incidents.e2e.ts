import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { Api, IncidentBody, IncidentUpdateBody, INCIDENTS, ServiceBody } from './incidents-fixtures';

/**
 * The real `checkly` CLI (8.x, a dev dependency) pointed at Vigil, as an operator would run it:
 * `CHECKLY_ENV=local CHECKLY_API_URL=… checkly incidents create|list|update|resolve`.
 *
 * What the CLI calls (node_modules/checkly/dist/rest/incidents.js and commands/incidents/*):
 * - every command: `GET /next/accounts/{id}` first (authentication), `x-checkly-account` on every request;
 * - create: `GET /v1/status-pages/{id}` (services come from its cards, sent as `{id, name, accountId}`), then
 *   `POST /v1/status-pages/incidents` with one update `{description, status: INVESTIGATING, notifySubscribers}`;
 * - list: `GET /v1/status-pages/incidents?limit=25`, filtering by `lastUpdateStatus` (and by the page's services
 *   for `--status-page-id`, through `GET /v1/status-pages/{id}`) on its own side;
 * - update: `GET …/incidents/{id}`, `PATCH …/incidents/{id}` `{severity}` only with `--severity`, then
 *   `POST …/incidents/{id}/incident-updates` `{description, status, notifySubscribers}`;
 * - resolve: `GET …/incidents/{id}`, then the same POST with `status: RESOLVED`.
 * Writes ask for confirmation unless `--force`; `CHECKLY_CLI_MODE=ci` makes a missing `--force` exit 2 at once
 * instead of waiting for a prompt.
 */
const CHECKLY = join(__dirname, '..', '..', 'node_modules', 'checkly', 'bin', 'run');
// The CLI's own start takes seconds, and tens of them on a loaded two-core runner (as in checkly-checks).
const CLI_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 180_000;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: TestServer;
let home: string;
let account: TestAccount;
let api: Api;
let stranger: TestAccount;
/** Services on the page "Acme", in card order: Core [API, Web], Data [DB]. */
let apiService: ServiceBody;
let web: ServiceBody;
let db: ServiceBody;
/** A service of the account on another page only. */
let billing: ServiceBody;
let acme: { id: string };
let shop: { id: string };

/** Async on purpose: the server answering the CLI runs in this very process. */
function checkly(args: string[], as: { id: string; key: string } = account): Promise<CliResult> {
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    CHECKLY_ENV: 'local',
    CHECKLY_API_URL: server.url,
    CHECKLY_API_KEY: as.key,
    CHECKLY_ACCOUNT_ID: as.id,
    CHECKLY_SKIP_NEW_VERSION_CHECK: 'true',
    CHECKLY_CLI_MODE: 'ci',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [CHECKLY, ...args], { env, cwd: home, timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const rows = (text: string) => text.split('\n').map((line) => line.trim().split(/\s{2,}/));
/** `Label:  value` lines of the CLI's detail views. */
function field(text: string, label: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim().startsWith(`${label}:`));
  return line?.trim().slice(label.length + 1).trim();
}

async function incident(id: string): Promise<IncidentBody> {
  const response = await api.get<IncidentBody>(`${INCIDENTS}/${id}`);
  expect(response.status).toBe(200);
  return response.body;
}
async function historyTypes(id: string): Promise<string[]> {
  const response = await api.get(`${INCIDENTS}/${id}/history`);
  expect(response.status).toBe(200);
  return response.body.entries.map((e: { type: string }) => e.type);
}
/** An incident created over HTTP, to be worked on with the CLI. */
async function seeded(name: string, services: ServiceBody[], severity = 'MAJOR'): Promise<IncidentBody> {
  const response = await api.post<IncidentBody>(INCIDENTS, {
    name,
    severity,
    services: services.map((s) => ({ id: s.id })),
    incidentUpdates: [{ description: 'Seen by monitoring.' }],
  });
  expect(response.status).toBe(201);
  return response.body;
}
async function allIncidentIds(): Promise<string[]> {
  const response = await api.get(`${INCIDENTS}?limit=100`);
  expect(response.status).toBe(200);
  return response.body.entries.map((i: IncidentBody) => i.id);
}

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  home = mkdtempSync(join(tmpdir(), 'vigil-checkly-incidents-'));
  account = await server.account('CLI incidents');
  api = new Api(server.http, account.key);
  apiService = await api.service('API');
  web = await api.service('Web');
  db = await api.service('DB');
  billing = await api.service('Billing');
  const page = (name: string, url: string, cards: { name: string; services: ServiceBody[] }[]) =>
    api.post('/v1/status-pages', { name, url, cards: cards.map((c) => ({ name: c.name, services: c.services.map((s) => ({ id: s.id })) })) });
  acme = (
    await page('Acme', 'acme-incidents-cli', [
      { name: 'Core', services: [apiService, web] },
      { name: 'Data', services: [db] },
    ])
  ).body;
  shop = (await page('Shop', 'shop-incidents-cli', [{ name: 'Checkout', services: [billing] }])).body;
  stranger = await server.account('Stranger');
}, 30_000);

afterAll(async () => {
  await server?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('checkly incidents create', () => {
  it('-o json with --services, --severity, --message and --no-notify-subscribers: prints the 201 body, which GET then shows', async () => {
    const result = await checkly([
      'incidents', 'create', '--status-page-id', acme.id, '--title', 'Checkout errors',
      '--services', `${db.id},${apiService.id}`, '--severity', 'major', '--message', 'Payments fail for some users.',
      '--no-notify-subscribers', '--force', '-o', 'json',
    ]);
    expect(result).toMatchObject({ code: 0 });
    const printed: IncidentBody = JSON.parse(result.stdout);
    const stored = await incident(printed.id);
    expect(printed).toEqual(stored);
    expect(stored).toMatchObject({
      name: 'Checkout errors',
      severity: 'MAJOR',
      lastUpdateStatus: 'INVESTIGATING',
      // The CLI sent {id, name, accountId} in the order given; Vigil answers full services in that order.
      services: [db, apiService],
    });
    expect(stored.incidentUpdates).toEqual([
      expect.objectContaining({ description: 'Payments fail for some users.', status: 'INVESTIGATING', notifySubscribers: false }),
    ]);
    expect(await historyTypes(printed.id)).toEqual(['IncidentCreated', 'IncidentUpdatePosted']);
  }, TEST_TIMEOUT_MS);

  it('table output with the defaults: every service of the page in card order, minor, the default message, subscribers notified', async () => {
    const result = await checkly(['incidents', 'create', '--status-page-id', acme.id, '--title', 'Everything is slow', '--force']);
    expect(result.code).toBe(0);
    const id = field(result.stdout, 'ID')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await incident(id);
    expect(stored).toMatchObject({ name: 'Everything is slow', severity: 'MINOR', lastUpdateStatus: 'INVESTIGATING', services: [apiService, web, db] });
    expect(stored.incidentUpdates).toEqual([
      expect.objectContaining({ description: 'We are investigating this incident.', status: 'INVESTIGATING', notifySubscribers: true }),
    ]);

    const lines = rows(result.stdout);
    expect(lines[0]).toEqual(['Everything is slow']);
    expect(field(result.stdout, 'Severity')).toBe('minor');
    expect(field(result.stdout, 'Status')).toBe('investigating');
    expect(field(result.stdout, 'Services')).toBe('3');
    expect(lines).toContainEqual(['SERVICE', 'ID']);
    expect(lines).toContainEqual(['API', apiService.id]);
    expect(lines).toContainEqual(['Web', web.id]);
    expect(lines).toContainEqual(['DB', db.id]);
    expect(field(result.stdout, 'Message')).toBe('We are investigating this incident.');
    expect(result.stdout).toContain(`checkly incidents resolve ${id}`);
  }, TEST_TIMEOUT_MS);

  it('a repeated --services id is Vigil’s 400: the CLI reports the failure and nothing is stored', async () => {
    const before = await allIncidentIds();
    const result = await checkly([
      'incidents', 'create', '--status-page-id', acme.id, '--title', 'Twice', '--services', apiService.id, '--services', apiService.id, '--force',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Failed to create incident.');
    expect(result.stdout).toContain('Validation failed');
    expect(await allIncidentIds()).toEqual(before);
  }, TEST_TIMEOUT_MS);

  it('another account’s status page is not found, and nothing is stored in either account', async () => {
    const theirPage = await server.http.post('/v1/status-pages', { name: 'Theirs', url: 'theirs-incidents-cli', cards: [] }, { key: stranger.key });
    expect(theirPage.status).toBe(201);
    const before = await allIncidentIds();
    const result = await checkly(['incidents', 'create', '--status-page-id', theirPage.body.id, '--title', 'Nope', '--force']);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('Status page not found');
    expect(await allIncidentIds()).toEqual(before);
    const theirs = await server.http.get(`${INCIDENTS}?limit=100`, { key: stranger.key });
    expect(theirs.body).toEqual({ length: 0, entries: [], nextId: null });
  }, TEST_TIMEOUT_MS);

  it('without --force (non-interactive) it only previews: exit 2, nothing stored', async () => {
    const before = await allIncidentIds();
    const result = await checkly(['incidents', 'create', '--status-page-id', acme.id, '--title', 'Not yet']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'confirmation_required', command: 'incidents create' });
    expect(await allIncidentIds()).toEqual(before);
  }, TEST_TIMEOUT_MS);

  it('a READ_ONLY key is refused by Vigil (403) and nothing is stored', async () => {
    const readOnly = await account.newKey('READ_ONLY');
    const before = await allIncidentIds();
    const result = await checkly(['incidents', 'create', '--status-page-id', acme.id, '--title', 'Read only', '--force'], { id: account.id, key: readOnly.apiKey });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Failed to create incident.');
    expect(result.stdout).toContain('This API key is read-only');
    expect(await allIncidentIds()).toEqual(before);
  }, TEST_TIMEOUT_MS);
});

describe('checkly incidents list', () => {
  // A fresh account, so that the list holds exactly these three incidents.
  let lister: TestAccount;
  let listApi: Api;
  let onAcme: IncidentBody;
  let onShop: IncidentBody;
  let resolved: IncidentBody;
  let services: ServiceBody[];
  let listPage: { id: string };

  beforeAll(async () => {
    lister = await server.account('CLI lister');
    listApi = new Api(server.http, lister.key);
    services = [await listApi.service('Edge'), await listApi.service('Mail')];
    listPage = (await listApi.post('/v1/status-pages', { name: 'Edge page', url: 'edge-incidents-cli', cards: [{ name: 'Edge', services: [{ id: services[0].id }] }] })).body;
    const create = async (name: string, service: ServiceBody, severity: string) =>
      (await listApi.post(INCIDENTS, { name, severity, services: [{ id: service.id }], incidentUpdates: [{ description: 'Looking.' }] })).body as IncidentBody;
    onAcme = await create('Edge timeouts', services[0], 'CRITICAL');
    onShop = await create('Mail delays', services[1], 'MEDIUM');
    resolved = await create('Old edge outage', services[0], 'MINOR');
    expect((await listApi.post(`${INCIDENTS}/${resolved.id}/incident-updates`, { description: 'Fixed.', status: 'RESOLVED' })).status).toBe(200);
    resolved = (await listApi.get(`${INCIDENTS}/${resolved.id}`)).body;
  }, 30_000);

  it('-o json: the open incidents exactly as GET /v1/status-pages/incidents shows them, newest first', async () => {
    const result = await checkly(['incidents', 'list', '-o', 'json'], lister);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    const stored = await listApi.get(`${INCIDENTS}?limit=25`);
    expect(stored.body.entries.map((i: IncidentBody) => i.name)).toEqual(['Old edge outage', 'Mail delays', 'Edge timeouts']);
    expect(printed).toEqual({ data: [stored.body.entries[1], stored.body.entries[2]], count: 2 });
  }, TEST_TIMEOUT_MS);

  it('--status resolved, --status all, --status-page-id and --limit', async () => {
    const [resolvedOnly, all, page, limited] = await Promise.all([
      checkly(['incidents', 'list', '--status', 'resolved', '-o', 'json'], lister),
      checkly(['incidents', 'list', '--status', 'all', '-o', 'json'], lister),
      checkly(['incidents', 'list', '--status', 'all', '--status-page-id', listPage.id, '-o', 'json'], lister),
      checkly(['incidents', 'list', '--status', 'all', '--limit', '2', '-o', 'json'], lister),
    ]);
    const ids = (result: CliResult) => {
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout).data.map((i: IncidentBody) => i.id);
    };
    expect(ids(resolvedOnly)).toEqual([resolved.id]);
    expect(JSON.parse(resolvedOnly.stdout).data[0]).toEqual(resolved);
    expect(ids(all)).toEqual([resolved.id, onShop.id, onAcme.id]);
    expect(ids(page)).toEqual([resolved.id, onAcme.id]);
    // Vigil's cursor is passed through as the CLI's nextId.
    expect(ids(limited)).toEqual([resolved.id, onShop.id]);
    const next = JSON.parse(limited.stdout).nextId;
    expect(next).toEqual(expect.any(String));
    const rest = await listApi.get(`${INCIDENTS}?limit=2&nextId=${encodeURIComponent(next)}`);
    expect(rest.body.entries.map((i: IncidentBody) => i.id)).toEqual([onAcme.id]);
  }, TEST_TIMEOUT_MS);

  it('table output: name, severity, status, service count and id of each open incident', async () => {
    const result = await checkly(['incidents', 'list'], lister);
    expect(result.code).toBe(0);
    const table = rows(result.stdout);
    expect(table).toContainEqual(['NAME', 'SEVERITY', 'STATUS', 'SERVICES', 'UPDATED', 'ID']);
    expect(table).toContainEqual(['Mail delays', 'medium', 'investigating', '1', expect.stringMatching(/ago$/), onShop.id]);
    expect(table).toContainEqual(['Edge timeouts', 'critical', 'investigating', '1', expect.stringMatching(/ago$/), onAcme.id]);
    expect(result.stdout).not.toContain('Old edge outage');
    expect(result.stdout).toContain('Showing 2 incidents (status=open)');
  }, TEST_TIMEOUT_MS);

  it('an account without incidents, and an out-of-range --limit (Vigil’s 400)', async () => {
    const newcomer = await server.account('CLI newcomer');
    const [empty, tooMany] = await Promise.all([checkly(['incidents', 'list'], newcomer), checkly(['incidents', 'list', '--limit', '101'], lister)]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No incidents found.');
    expect(tooMany.code).toBe(1);
    expect(tooMany.stdout).toContain('Failed to list incidents.');
  }, TEST_TIMEOUT_MS);
});

describe('checkly incidents update', () => {
  it('without --severity: posts one update (-o json prints it as GET shows it); severity untouched, no PATCH', async () => {
    const seed = await seeded('Slow logins', [apiService]);
    const result = await checkly(['incidents', 'update', seed.id, '--message', 'Cause found: a bad deploy.', '--status', 'identified', '--force', '-o', 'json']);
    expect(result.code).toBe(0);
    const printed: IncidentUpdateBody = JSON.parse(result.stdout);
    const stored = await api.get(`${INCIDENTS}/${seed.id}/incident-updates/${printed.id}`);
    expect(stored.status).toBe(200);
    expect(printed).toEqual(stored.body);
    expect(printed).toMatchObject({ description: 'Cause found: a bad deploy.', status: 'IDENTIFIED', notifySubscribers: true });

    const after = await incident(seed.id);
    expect(after).toMatchObject({ severity: 'MAJOR', lastUpdateStatus: 'IDENTIFIED', updated_at: printed.created_at });
    expect(after.incidentUpdates.map((u) => u.description)).toEqual(['Seen by monitoring.', 'Cause found: a bad deploy.']);
    expect(await historyTypes(seed.id)).toEqual(['IncidentCreated', 'IncidentUpdatePosted', 'IncidentUpdatePosted']);
  }, TEST_TIMEOUT_MS);

  it('with --severity: PATCHes the severity, then posts the update (table output)', async () => {
    const seed = await seeded('Queue backlog', [db], 'MINOR');
    const result = await checkly(['incidents', 'update', seed.id, '--message', 'Backlog draining.', '--status', 'monitoring', '--severity', 'critical', '--force']);
    expect(result.code).toBe(0);
    expect(rows(result.stdout)[0]).toEqual(['Incident Update Posted']);
    expect(field(result.stdout, 'Incident ID')).toBe(seed.id);
    expect(field(result.stdout, 'Status')).toBe('monitoring');
    expect(field(result.stdout, 'Message')).toBe('Backlog draining.');
    expect(field(result.stdout, 'Severity')).toBe('critical');

    const after = await incident(seed.id);
    const updateId = field(result.stdout, 'Update ID');
    expect(after).toMatchObject({ name: 'Queue backlog', severity: 'CRITICAL', lastUpdateStatus: 'MONITORING', services: [db] });
    expect(after.incidentUpdates[1]).toMatchObject({ id: updateId, description: 'Backlog draining.', status: 'MONITORING', notifySubscribers: true });
    const history = (await api.get(`${INCIDENTS}/${seed.id}/history`)).body.entries;
    expect(history.map((e: { type: string }) => e.type)).toEqual(['IncidentCreated', 'IncidentUpdatePosted', 'IncidentDetailsChanged', 'IncidentUpdatePosted']);
    expect(history[2].data).toEqual({ incidentId: seed.id, severity: 'CRITICAL' });
    expect(history[2].actor).toEqual({ keyId: account.keyId, keyName: 'test' });
  }, TEST_TIMEOUT_MS);

  it('--severity equal to the current one changes nothing but posts the update', async () => {
    const seed = await seeded('Flaky DNS', [web], 'MEDIUM');
    const result = await checkly(['incidents', 'update', seed.id, '--message', 'Still flaky.', '--severity', 'medium', '--no-notify-subscribers', '--force', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ description: 'Still flaky.', status: 'INVESTIGATING', notifySubscribers: false });
    expect(await incident(seed.id)).toMatchObject({ severity: 'MEDIUM', lastUpdateStatus: 'INVESTIGATING' });
    expect(await historyTypes(seed.id)).toEqual(['IncidentCreated', 'IncidentUpdatePosted', 'IncidentUpdatePosted']);
  }, TEST_TIMEOUT_MS);

  it('an unknown id, and another account’s incident, are not found; nothing is written', async () => {
    const theirService = (await server.http.post('/v1/status-pages/services', { name: 'Theirs' }, { key: stranger.key })).body;
    const theirs = await server.http.post(
      INCIDENTS,
      { name: 'Their incident', severity: 'MINOR', services: [{ id: theirService.id }], incidentUpdates: [{ description: 'Theirs.' }] },
      { key: stranger.key },
    );
    expect(theirs.status).toBe(201);
    const [unknown, foreign] = await Promise.all([
      checkly(['incidents', 'update', '01900000-0000-7000-8000-000000000abc', '--message', 'x', '--force']),
      checkly(['incidents', 'update', theirs.body.id, '--message', 'x', '--severity', 'critical', '--force']),
    ]);
    for (const result of [unknown, foreign]) {
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('Incident not found');
    }
    const after = await server.http.get(`${INCIDENTS}/${theirs.body.id}`, { key: stranger.key });
    expect(after.body).toEqual(theirs.body);
  }, TEST_TIMEOUT_MS);

  it('a READ_ONLY key may read the incident but the PATCH is refused (403): nothing is written', async () => {
    const seed = await seeded('Read-only attempt', [web]);
    const readOnly = await account.newKey('READ_ONLY');
    const result = await checkly(['incidents', 'update', seed.id, '--message', 'x', '--severity', 'critical', '--force'], { id: account.id, key: readOnly.apiKey });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Failed to post incident update.');
    expect(result.stdout).toContain('This API key is read-only');
    expect(await incident(seed.id)).toEqual(seed);
  }, TEST_TIMEOUT_MS);
});

describe('checkly incidents resolve', () => {
  it('posts a RESOLVED update: the incident leaves the open list, stays on its status page for 7 days, and can be re-opened', async () => {
    const seed = await seeded('API outage', [apiService, web], 'CRITICAL');
    const result = await checkly(['incidents', 'resolve', seed.id, '--force']);
    expect(result.code).toBe(0);
    expect(rows(result.stdout)[0]).toEqual(['Incident Resolved']);
    expect(field(result.stdout, 'Status')).toBe('resolved');
    expect(field(result.stdout, 'Message')).toBe('Incident resolved.');

    const after = await incident(seed.id);
    expect(after).toMatchObject({ lastUpdateStatus: 'RESOLVED', severity: 'CRITICAL' });
    expect(after.incidentUpdates[1]).toMatchObject({ id: field(result.stdout, 'Update ID'), status: 'RESOLVED', description: 'Incident resolved.', notifySubscribers: true });
    expect((await api.get(`${INCIDENTS}?status=open&limit=100`)).body.entries.map((i: IncidentBody) => i.id)).not.toContain(seed.id);
    expect((await api.get(`${INCIDENTS}?status=resolved&limit=100`)).body.entries.map((i: IncidentBody) => i.id)).toContain(seed.id);
    const pages = (await api.get('/v1/status-pages?limit=100')).body.entries;
    expect(pages.find((p: { id: string }) => p.id === acme.id).incidents).toContainEqual(after);
    expect(pages.find((p: { id: string }) => p.id === shop.id).incidents).toEqual([]);

    // `incidents update` on a resolved incident re-opens it.
    const reopened = await checkly(['incidents', 'update', seed.id, '--message', 'It is back.', '--force', '-o', 'json']);
    expect(reopened.code).toBe(0);
    expect(JSON.parse(reopened.stdout)).toMatchObject({ status: 'INVESTIGATING' });
    expect(await incident(seed.id)).toMatchObject({ lastUpdateStatus: 'INVESTIGATING' });
  }, TEST_TIMEOUT_MS);

  it('-o json with --message and --no-notify-subscribers prints the stored update', async () => {
    const seed = await seeded('Billing sync stuck', [billing]);
    const result = await checkly(['incidents', 'resolve', seed.id, '--message', 'Sync caught up.', '--no-notify-subscribers', '--force', '-o', 'json']);
    expect(result.code).toBe(0);
    const printed: IncidentUpdateBody = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ description: 'Sync caught up.', status: 'RESOLVED', notifySubscribers: false });
    expect((await api.get(`${INCIDENTS}/${seed.id}/incident-updates/${printed.id}`)).body).toEqual(printed);
    expect(await incident(seed.id)).toMatchObject({ lastUpdateStatus: 'RESOLVED' });
  }, TEST_TIMEOUT_MS);
});
