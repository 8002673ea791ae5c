import { ManualClock } from '../../libs/core/src/clock';
import { IdempotencyGuard } from '../../libs/http/src/idempotency';
import { IDEMPOTENCY_KEYS } from '../../libs/http/src/idempotency-records';
import { describeOnSharedStores, openSharedStores, SharedStores } from '../../libs/testing/src/production-shaped-stores';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const SERVICES = '/v1/status-pages/services';

/**
 * A retry never writes twice: API instances beside a worker (daemon off), on shared production-shaped
 * stores, with the read store failing right after the append (the read models' update), then the same
 * Idempotency-Key again, on the same instance or another.
 */
describeOnSharedStores('a retry with the same Idempotency-Key', (real) => {
  let stores: SharedStores;
  let clock: ManualClock;
  const servers: TestServer[] = [];
  let account: TestAccount;

  beforeAll(async () => {
    stores = await openSharedStores(real);
    clock = new ManualClock(new Date('2026-03-02T10:00:00.000Z'));
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ clock, openStores: stores.openStores, env: { VIGIL_DAEMON: 'off' } }));
    account = await servers[0].account();
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    await stores?.close();
  });

  /** Every ServiceCreated (or `type`) of the account in the log with this name: the ids. */
  async function created(name: string, type = 'ServiceCreated'): Promise<string[]> {
    const ids: string[] = [];
    for (let after: bigint | undefined; ; ) {
      const page = await stores.eventStore.readAll({ after, maxCount: 500 });
      if (page.length === 0) return ids;
      after = page[page.length - 1].position;
      for (const event of page) {
        const data = event.data as { id?: string; incidentId?: string; name: string };
        if (event.type === type && event.metadata.accountId === account.id && data.name === name) ids.push(data.id ?? data.incidentId ?? '');
      }
    }
  }

  const post = (server: TestServer, name: string, key: string, scheme = 'Bearer') =>
    server.http.post(SERVICES, { name }, { headers: { authorization: `${scheme} ${account.key}`, 'idempotency-key': key, 'x-service-account': account.id } });

  it('commit, then a read-store failure (503), then a retry: one write, and the retry answers with it', async () => {
    stores.probe.failNext('read', 'writeAll');
    const failed = await post(servers[0], 'after-commit', 'retry-1');
    expect(failed.status).toBe(503);
    expect(await created('after-commit')).toHaveLength(1);

    const retried = await post(servers[0], 'after-commit', 'retry-1');
    expect(retried.status).toBe(201);
    expect(await created('after-commit')).toEqual([retried.body.id]);
    expect((await servers[0].http.get(`${SERVICES}/${retried.body.id}`, { key: account.key })).body).toEqual(retried.body);

    const replayed = await post(servers[0], 'after-commit', 'retry-1');
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(retried.text);
    expect(await created('after-commit')).toHaveLength(1);
  });

  it('an incident create (a stream and its updates, ids made by the server) retried after a failure: one incident', async () => {
    const service = await servers[0].http.post(SERVICES, { name: 'incident service' }, { key: account.key });
    const body = { name: 'Retried outage', severity: 'MAJOR', services: [{ id: service.body.id }], incidentUpdates: [{ description: 'Looking into it.' }] };
    const send = (server: TestServer) =>
      server.http.post('/v1/status-pages/incidents', body, { headers: { authorization: `Bearer ${account.key}`, 'idempotency-key': 'retry-incident' } });
    stores.probe.failNext('read', 'writeAll');
    const failed = await send(servers[0]);
    expect(failed.text).toContain('"statusCode":503');
    const retried = await send(servers[1]);
    expect(retried.status).toBe(201);
    expect(retried.body.incidentUpdates).toHaveLength(1);
    expect(await created('Retried outage', 'IncidentCreated')).toEqual([retried.body.id]);
    expect((await servers[0].http.get(`/v1/status-pages/incidents/${retried.body.id}`, { key: account.key })).body).toEqual(retried.body);
  });

  it('the retry on another instance finds the first attempt too', async () => {
    stores.probe.failNext('read', 'writeAll');
    expect((await post(servers[0], 'two-instances', 'retry-2')).status).toBe(503);

    const retried = await post(servers[1], 'two-instances', 'retry-2');
    expect(retried.status).toBe(201);
    expect(await created('two-instances')).toEqual([retried.body.id]);
    const replayed = await post(servers[0], 'two-instances', 'retry-2');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(retried.body);
  });

  it('the same key sent to two instances at once: one write, the other told it is in progress or given the answer', async () => {
    const answers = await Promise.all(servers.map((server) => post(server, 'racing', 'retry-3')));
    const statuses = answers.map((answer) => answer.status).sort();
    expect([[201, 201], [201, 409]]).toContainEqual(statuses);
    expect(await created('racing')).toHaveLength(1);
  });

  it('is scoped by the key, not by how the header spells it: "bearer" replays what "Bearer" wrote', async () => {
    const first = await post(servers[0], 'spelling', 'retry-4', 'Bearer');
    const second = await post(servers[1], 'spelling', 'retry-4', 'bearer');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await created('spelling')).toHaveLength(1);
  });

  it('a key expires after 24 h (a new write), and the pruner drops expired answers', async () => {
    const first = await post(servers[0], 'expiring', 'retry-5');
    clock.advance(25 * 60 * 60 * 1000);
    const later = await post(servers[1], 'expiring', 'retry-5');
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await created('expiring')).toHaveLength(2);

    clock.advance(25 * 60 * 60 * 1000);
    const guard = servers[0].app.get(IdempotencyGuard);
    expect(await guard.records.prune(clock.now().getTime())).toBeGreaterThanOrEqual(5);
    const left = await stores.readStore.find(IDEMPOTENCY_KEYS, { filters: [{ field: 'pruneAt', op: 'lt', value: Number.MAX_SAFE_INTEGER }], limit: 100 });
    expect(left).toEqual([]);
    expect(await guard.records.prune(clock.now().getTime())).toBe(0);
    // A pruned key is free again.
    expect((await post(servers[1], 'expiring', 'retry-5')).headers.get('idempotent-replayed')).toBeNull();
  });
});
