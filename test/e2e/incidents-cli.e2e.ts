import { runCli } from '../../libs/testing/src/child-server';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { accountWithApi, INCIDENTS, TEST_ENV, UNKNOWN_ID } from './incidents-fixtures';

// Runs the built CLI (npm run build) against the running server's data directory.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: TEST_ENV });
});
afterAll(() => server.close());

describe('admin CLI: incidents history', () => {
  it("replays an incident's history, deleted ones included", async () => {
    const { account, api } = await accountWithApi(server);
    const service = await api.service('API');
    const incident = await api.incident([service]);
    await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Fixed.', status: 'RESOLVED', notifySubscribers: true });
    await api.delete(`${INCIDENTS}/${incident.id}`);
    const env = { VIGIL_DATA_DIR: server.dataDir };

    const json = runCli(['incidents', 'history', incident.id, '--json'], env);
    // stderr holds only the store the CLI opened; stdout only the answer.
    expect(json.stderr).toBe(`Vigil store: embedded SQLite ${server.config.sqliteFile}\n`);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toEqual({ incidentId: incident.id, deleted: true, entries: (await api.get(`${INCIDENTS}/${incident.id}/history`)).body.entries });
    expect(parsed.entries.map((e: { type: string }) => e.type)).toEqual(['IncidentCreated', 'IncidentUpdatePosted', 'IncidentUpdatePosted', 'IncidentDeleted']);
    expect(parsed.entries[0].actor).toEqual({ keyId: account.keyId, keyName: 'test' });

    const text = runCli(['incidents', 'history', incident.id], env);
    expect(text.status).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^#2 {2}\S+Z {2}IncidentUpdatePosted .*"notifySubscribers":true/);
  });

  it('says so for an unknown incident (exit 1) and a malformed id (usage, exit 2)', () => {
    const env = { VIGIL_DATA_DIR: server.dataDir };
    const unknown = runCli(['incidents', 'history', UNKNOWN_ID], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('not found');
    const malformed = runCli(['incidents', 'history', 'nope'], env);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('INCIDENT_ID must be a UUID');
  });
});
