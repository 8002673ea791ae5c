import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildServer, startChildServer } from '../../libs/testing/src/child-server';
import { HttpClient } from '../../libs/testing/src/http-client';

const KEY = 'crash-window-key-0123456789abcdef';
const PRELOAD = join(__dirname, 'support', 'crash-at-incident-create.js');

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const exited = (child: ChildServer) =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return resolve(child.process.signalCode);
    child.process.once('exit', (_code, signal) => resolve(signal));
  });

type IncidentRow = { id: string; name: string; incidentUpdates: { status: string }[] };

describe('an outage whose incident creation a crash cut short (kill -9, built server as a child process)', () => {
  it.each(['before', 'after'])('opens its incident exactly once when the process dies %s creating it', async (when) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-crash-window-'));
    const env = { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_API_KEY: KEY };
    try {
      const crashing = await startChildServer({ ...env, NODE_OPTIONS: `--require ${PRELOAD}`, VIGIL_TEST_CRASH: when, VIGIL_TEST_CRASH_MARKER: join(dataDir, 'crashed') });
      const http = new HttpClient(crashing.url);
      const service = (await http.post('/v1/status-pages/services', { name: 'Backups' }, { key: KEY })).body;
      const heartbeat = { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'seconds' };
      const trigger = { serviceId: service.id, severity: 'MAJOR', name: 'Backups failing' };
      const check = (await http.post('/v1/checks/heartbeat', { name: 'backup', heartbeat, triggerIncident: trigger }, { key: KEY })).body;
      const token = check.heartbeat.pingToken as string;
      // The job reports a failure: the first FAILING of an outage, which the incident reactor turns into an incident.
      // The reactor runs once the ping is stored, so the kill may land before or after the answer reaches us.
      const answer = await fetch(`${crashing.url}/ping/${token}/fail`).then((r) => r.status, () => 'closed before answering');
      expect([200, 'closed before answering']).toContain(answer);
      expect(await exited(crashing)).toBe('SIGKILL');

      const restarted = await startChildServer(env);
      try {
        const again = new HttpClient(restarted.url);
        const incidents = async () => (await again.get(`/v1/status-pages/incidents?serviceId=${service.id}`, { key: KEY })).body.entries as IncidentRow[];
        const opened = await eventually(incidents, (list) => list.length > 0);
        expect(opened.map((i) => i.name)).toEqual(['Backups failing']);
        // The recovery is handled after the FAILING (the log's order): once it shows, the FAILING has been handled again.
        expect((await fetch(`${restarted.url}/ping/${token}`)).status).toBe(200);
        const resolved = await eventually(incidents, (list) => list[0]?.incidentUpdates.length === 2);
        expect(resolved).toHaveLength(1);
        expect(resolved[0].id).toBe(opened[0].id);
        expect(resolved[0].incidentUpdates.map((u) => u.status).sort()).toEqual(['INVESTIGATING', 'RESOLVED']);
      } finally {
        await restarted.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
