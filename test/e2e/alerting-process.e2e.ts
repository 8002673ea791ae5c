import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildServer, runCli, startChildServer } from '../../libs/testing/src/child-server';
import { HttpClient } from '../../libs/testing/src/http-client';
import { eventually, Receiver, startReceiver } from './alerting-receivers';

/** The built server as child processes on one data dir (needs `npm run build`). */
const KEY = 'vigil-alerting-e2e-key-0123456789abcdef';
const auth = { key: KEY };
// Process starts and background deliveries on a loaded two-core runner: each wait ends as soon as its condition holds.
const TEST_MS = 150_000;

describe('durable delivery across kill -9 and with two workers', () => {
  let dataDir: string;
  let receiver: Receiver;
  const children: ChildServer[] = [];
  const env = (extra: Record<string, string> = {}) => ({
    VIGIL_DATA_DIR: dataDir,
    VIGIL_BOOTSTRAP_API_KEY: KEY,
    VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true',
    // A hanging receiver's cost; an answering one on a loaded runner stays well inside it.
    VIGIL_DELIVERY_TIMEOUT_MS: '5000',
    VIGIL_RATE_LIMIT_PER_MINUTE: '1000000',
    ...extra,
  });
  const start = async (extra?: Record<string, string>) => {
    const child = await startChildServer(env(extra));
    children.push(child);
    return child;
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-alerting-'));
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop('SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const webhook = async (http: HttpClient) =>
    (await http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'r', url: `${receiver.url}/hook` } }, auth)).body.id as string;

  it('an event written just before a kill -9 is delivered after the restart, once', async () => {
    // The first process writes the event but runs no background work, then dies hard.
    const first = await start({ VIGIL_DAEMON: 'off' });
    const http = new HttpClient(first.url);
    const channel = await webhook(http);
    const { notificationId } = (await http.post(`/v1/alert-channels/${channel}/test`, undefined, auth)).body;
    await first.stop('SIGKILL');
    expect(receiver.requests).toHaveLength(0);

    const second = await start();
    await eventually(() => receiver.requests.length, (n) => n >= 1, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].headers['webhook-id']).toBe(notificationId);
    // The receiver has it a moment before the worker records it SENT.
    const log = await eventually(async () => (await new HttpClient(second.url).get('/v1/alert-notifications', auth)).body.entries, (entries: any[]) => entries[0]?.status !== 'PENDING', 30_000);
    expect(log).toEqual([expect.objectContaining({ id: notificationId, status: 'SENT', attempts: 1 })]);
  }, TEST_MS);

  it('a send cut by kill -9 mid-attempt is sent again by the next process with the same webhook-id', async () => {
    receiver.script.push('hang');
    const first = await start();
    const channel = await webhook(new HttpClient(first.url));
    const { notificationId } = (await new HttpClient(first.url).post(`/v1/alert-channels/${channel}/test`, undefined, auth)).body;
    await eventually(() => receiver.requests.length, (n) => n >= 1, 30_000);
    await first.stop('SIGKILL');

    const second = await start();
    await eventually(() => receiver.requests.length, (n) => n >= 2, 30_000);
    const log = await eventually(
      async () => (await new HttpClient(second.url).get('/v1/alert-notifications', auth)).body.entries,
      (entries: any[]) => entries[0]?.status === 'SENT',
      30_000,
    );
    expect(log).toEqual([expect.objectContaining({ id: notificationId, status: 'SENT' })]);
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([notificationId, notificationId]);
  }, TEST_MS);

  it('two processes on one data set attempt each delivery once', async () => {
    const a = await start();
    const b = await start();
    const httpA = new HttpClient(a.url);
    const httpB = new HttpClient(b.url);
    const channel = await webhook(httpA);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const http = i % 2 === 0 ? httpA : httpB;
      const res = await http.post(`/v1/alert-channels/${channel}/test`, undefined, auth);
      expect(res.status).toBe(202);
      ids.push(res.body.notificationId);
    }
    await eventually(() => receiver.requests.length, (n) => n >= 30, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    const seen = receiver.requests.map((r) => r.headers['webhook-id'] as string);
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(new Set(ids));
  }, TEST_MS);

  it('the CLI lists failed notifications and retries one while the server runs', async () => {
    const server = await start();
    const http = new HttpClient(server.url);
    const channel = await webhook(http);
    receiver.script.push(404);
    const { notificationId } = (await http.post(`/v1/alert-channels/${channel}/test`, undefined, auth)).body;
    await eventually(async () => (await http.get('/v1/alert-notifications?status=FAILED', auth)).body.entries.length, (n) => n === 1, 30_000);

    const list = runCli(['notifications', 'list', '--failed', '--json'], env());
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: notificationId, status: 'FAILED', lastError: 'HTTP 404' })]);
    expect(runCli(['notifications', 'list'], env()).status).toBe(2);
    expect(runCli(['notifications', 'retry', 'nope'], env()).status).toBe(2);

    const retry = runCli(['notifications', 'retry', notificationId], env());
    expect(retry.status).toBe(0);
    expect(retry.stdout).toContain('PENDING');
    const sent = await eventually(async () => (await http.get('/v1/alert-notifications', auth)).body.entries[0], (n: any) => n.status === 'SENT', 30_000);
    expect(sent).toMatchObject({ id: notificationId, status: 'SENT' });
    expect(receiver.requests).toHaveLength(2);
  }, TEST_MS);
});
