'use strict';
// Issue 5 benchmark: ping intake (1,000 checks, 100 connections) and availability over a year of
// pings, beside bare Fastify in the same run. 127.0.0.1 only.
// Run: npm run build && node test/bench/heartbeats.bench.js [ping|availability|reads]
// Ping intake runs BENCH_ROUNDS rounds (default 3), each a bare Fastify run and right after it a fresh Vigil
// taking the pings, and reports each round's share of that bare run and the medians: this machine's speed
// swings by ±20% within minutes, so a share taken from two runs minutes apart says little on its own.
const { join } = require('node:path');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, loadavg } = require('node:os');
const autocannon = require('autocannon');
const Database = require('better-sqlite3');
const { startBareFastify, startVigil, load, machine } = require('./lib');

/** A whole number ≥ 1 from the environment, or the default: a bad value stops the run instead of skewing it. */
function setting(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1, not ${process.env[name]}`);
  return value;
}
const DURATION = setting('BENCH_SECONDS', 10);
const CHECKS = setting('BENCH_CHECKS', 1000);
const CONNECTIONS = 100;
const PINGS = setting('BENCH_PINGS', 100_000);
/** The steady ping rate the reads benchmark runs beside (pings/s, over all checks). */
const PING_RATE = setting('BENCH_PING_RATE', 6000);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const ACCOUNT_ID = '01900000-0000-7000-8000-00000000b5e7';
const DIST = join(__dirname, '..', '..', 'dist', 'libs');

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body && JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** `count` heartbeat checks, as { id, token }. */
async function createChecks(vigil, count) {
  const checks = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < count) {
        const i = next++;
        const check = await api(vigil, 'POST', '/v1/checks/heartbeat', {
          name: `bench ${i}`,
          heartbeat: { period: 1, periodUnit: 'hours', grace: 1, graceUnit: 'hours' },
        });
        checks.push({ id: check.id, token: check.heartbeat.pingToken });
      }
    }),
  );
  return checks;
}

/** autocannon requests that GET `pathOf(item)` for each of `items` in turn, all connections sharing one round-robin. */
function roundRobin(items, pathOf) {
  let next = 0;
  return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf(items[next++ % items.length]) }) }];
}

function storedPings(dataDir) {
  const db = new Database(join(dataDir, 'vigil.db'), { readonly: true });
  const n = db.prepare("SELECT count(*) AS n FROM events WHERE type = 'HeartbeatPingReceived'").get().n;
  db.close();
  return n;
}

async function bareFastify(rows, label) {
  const server = await startBareFastify();
  try {
    await load({ url: server.url, duration: 2, connections: CONNECTIONS });
    const bare = await load({ url: server.url, duration: DURATION, connections: CONNECTIONS });
    rows.push({ name: `bare Fastify GET / (${CONNECTIONS} connections)${label}`, ...bare, rss: server.rssMiB(), share: 100, extra: '' });
    return bare;
  } finally {
    await server.stop();
  }
}

async function pingIntake(rows, bare, label) {
  const vigil = await startVigil({ VIGIL_PING_RATE_BURST: '0', VIGIL_DAEMON: 'on' });
  try {
    const checks = await createChecks(vigil, CHECKS);
    const requests = roundRobin(checks, (check) => `/ping/${check.token}`);
    // A fixed number of requests: autocannon waits for every answer, so stored events can equal the 200s.
    // It ends such a run on its next one-second tick, so requests/s is timed here, to the last answer.
    const ping = (amount) =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        let last = started;
        const run = autocannon(
          {
            url: vigil.url,
            connections: CONNECTIONS,
            amount,
            requests,
          },
          (error, result) => (error ? reject(error) : resolve({ ...result, perSecond: result.requests.total / ((last - started) / 1000) })),
        );
        run.on('response', () => {
          last = performance.now();
        });
      });
    await ping(10_000); // warm-up
    const before = storedPings(vigil.dataDir);
    const result = await ping(PINGS);
    const rss = vigil.rssMiB();
    const stored = storedPings(vigil.dataDir) - before;
    const row = {
      name: `GET /ping/{token} (${checks.length} checks, ${CONNECTIONS} connections)${label}`,
      requestsPerSec: Math.round(result.perSecond),
      p50: result.latency.p50,
      p99: result.latency.p99,
      rss,
      share: Math.round((result.perSecond / bare.requestsPerSec) * 1000) / 10,
      extra: `${result['2xx']} × 200, ${result.non2xx + result.errors + result.timeouts} other; stored events ${stored}${stored === result['2xx'] ? ' (= 200s)' : ' (MISMATCH)'}`,
    };
    rows.push(row);
    return row;
  } finally {
    await vigil.stop();
  }
}

/** Writes one check and `count` pings spread evenly over the year before `end`, through the real projections. */
async function seedYear(dataDir, count, end) {
  const { loadConfig } = require(join(DIST, 'platform/src/config'));
  const { createLogger } = require(join(DIST, 'platform/src/logger'));
  const { openStores } = require(join(DIST, 'platform/src/stores'));
  const { ManualClock } = require(join(DIST, 'core/src/clock'));
  const p = (name) => require(join(DIST, 'heartbeats/src/read', name));
  const { newEventId } = p('heartbeat-keys');
  const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dataDir }), createLogger('silent'), new ManualClock());
  for (const [file, name] of [
    ['heartbeat-checks.projection', 'heartbeatChecksProjection'],
    ['heartbeat-timers.projection', 'heartbeatTimersProjection'],
    ['heartbeat-events.projection', 'heartbeatEventsProjection'],
    ['heartbeat-rollups.projection', 'heartbeatRollupsProjection'],
  ]) {
    stores.engine.register(p(file)[name]);
  }
  await stores.engine.start();
  const checkId = '01900000-0000-7000-8000-0000000c4ec1';
  const token = '5f0c7f0e-7a47-4b0f-9d3c-000000000001';
  const year = 365 * 86_400_000;
  const start = end - year;
  const meta = (at) => ({ accountId: ACCOUNT_ID, occurredAt: new Date(at).toISOString() });
  const config = {
    name: 'year', activated: true, muted: false, tags: [], description: null,
    heartbeat: { period: 1, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes', pingToken: token },
    triggerIncident: null, alertSettings: null, alertChannelSubscriptions: [],
  };
  await stores.eventStore.appendToStream(`check-${checkId}`, [{ type: 'HeartbeatCheckCreated', data: { id: checkId, accountId: ACCOUNT_ID, config }, metadata: meta(start) }]);
  const step = year / count;
  const BATCH = 2000;
  for (let i = 0; i < count; i += BATCH) {
    const events = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) {
      const at = Math.round(start + j * step);
      const failing = j % 97 === 0;
      events.push(
        failing
          ? { type: 'HeartbeatFailed', data: { eventId: newEventId(at), checkId, deadline: new Date(at).toISOString(), first: true }, metadata: meta(at) }
          : { type: 'HeartbeatPingReceived', data: { eventId: newEventId(at), checkId, state: 'RECEIVED', at: new Date(at).toISOString(), source: null, userAgent: 'bench' }, metadata: meta(at) },
      );
    }
    await stores.eventStore.appendToStream(`heartbeat-${checkId}`, events);
  }
  await stores.close();
  return checkId;
}

async function availability(rows) {
  for (const [label, count] of [['52,560 (every 10 min)', 52_560], ['525,600 (every minute)', 525_600], ['5,256,000 (every 6 s)', 5_256_000]]) {
    if (process.env.BENCH_SKIP_LARGE && count > 525_600) continue;
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-year-'));
    // A first start creates every context's read models; the seed then fills the heartbeat ones inline and
    // moves the others' checkpoints past events they do not read, so the measured server starts at once.
    const empty = await startVigil({ VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_ACCOUNT_ID: ACCOUNT_ID });
    await empty.stop();
    const end = Date.now();
    const seeded = Date.now();
    const checkId = await seedYear(dataDir, count, end);
    const db = new Database(join(dataDir, 'vigil.db'));
    db.prepare('UPDATE rm_checkpoints SET position = (SELECT max(position) FROM events)').run();
    db.close();
    const seedSeconds = ((Date.now() - seeded) / 1000).toFixed(0);
    const vigil = await startVigil({ VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_ACCOUNT_ID: ACCOUNT_ID, VIGIL_EVENT_RETENTION_DAYS: '36500' });
    try {
      for (const [window, query] of [
        ['365 days', `?startTime=${new Date(end - 365 * 86_400_000).toISOString()}&endTime=${new Date(end).toISOString()}`],
        ['24 h (default)', ''],
      ]) {
        const url = `${vigil.url}/v1/checks/heartbeats/${checkId}/availability${query}`;
        const sample = await fetch(url, { headers: vigil.headers }).then((r) => r.json());
        await load({ url, headers: vigil.headers, duration: 2, connections: 1 });
        const result = await load({ url, headers: vigil.headers, duration: DURATION, connections: 1 });
        rows.push({
          name: `availability, ${window}, ${label} events`,
          ...result,
          rss: vigil.rssMiB(),
          extra: `total ${sample.totalEntitiesCurrentPeriod}, ratio ${sample.successRatio.currentPeriod}; seeded in ${seedSeconds} s`,
        });
      }
    } finally {
      await vigil.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * Endpoints 9 and 10 read from one connection, each path for BENCH_SECONDS, first on an idle server, then
 * beside a steady ping load (BENCH_PING_RATE pings/s over the checks, 100 connections): what a dashboard
 * polling a busy Vigil sees. Under load the newest events are still held in memory, not yet written back.
 */
async function reads(rows) {
  const vigil = await startVigil({ VIGIL_PING_RATE_BURST: '0' });
  try {
    const checks = await createChecks(vigil, CHECKS);
    const paths = [
      ['events', (id) => `/v1/checks/heartbeats/${id}/events`],
      ['availability', (id) => `/v1/checks/heartbeats/${id}/availability`],
    ];
    const readRows = async (label) => {
      for (const [name, path] of paths) {
        const result = await load({
          url: vigil.url,
          connections: 1,
          duration: DURATION,
          headers: { authorization: vigil.headers.authorization },
          requests: roundRobin(checks, (check) => path(check.id)),
        });
        rows.push({ name: `GET …/${name} (1 connection, ${CHECKS} checks)${label}`, ...result, rss: vigil.rssMiB(), extra: `${result.status2xx} × 200, ${result.non2xx} other` });
      }
    };
    await readRows(', idle');
    let pinged = 0;
    const started = performance.now();
    const pings = autocannon({
      url: vigil.url,
      connections: CONNECTIONS,
      overallRate: PING_RATE,
      duration: paths.length * DURATION + 3,
      requests: roundRobin(checks, (check) => `/ping/${check.token}`),
    });
    pings.on('response', (_client, status) => {
      if (status === 200) pinged += 1;
    });
    const done = new Promise((resolve) => pings.on('done', resolve));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await readRows(`, beside ${PING_RATE.toLocaleString('en')} pings/s`);
    const result = await done;
    const seconds = (performance.now() - started) / 1000;
    rows.push({
      name: `GET /ping/{token} at ${PING_RATE.toLocaleString('en')}/s offered, beside the reads`,
      requestsPerSec: Math.round(pinged / seconds),
      p50: result.latency.p50,
      p99: result.latency.p99,
      rss: vigil.rssMiB(),
      extra: `${result['2xx']} × 200, ${result.non2xx + result.errors + result.timeouts} other`,
    });
  } finally {
    await vigil.stop();
  }
}

function print(row) {
  console.log(`| ${row.name} | ${row.requestsPerSec} | ${row.share ?? ''}${row.share !== undefined ? '%' : ''} | ${row.p50} | ${row.p99} | ${row.rss} | ${row.extra} |`);
}

async function main() {
  const which = process.argv[2] ?? 'all';
  console.log(`Machine: ${machine()}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| what | requests/s | % of bare | p50 ms | p99 ms | RSS MiB | notes |');
  console.log('|---|---|---|---|---|---|---|');
  const rows = [];
  let summary = [];
  const push = rows.push.bind(rows);
  rows.push = (...items) => {
    items.forEach(print);
    return push(...items);
  };
  if (which === 'all' || which === 'ping') {
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const label = ROUNDS > 1 ? `, round ${round}` : '';
      const bare = await bareFastify(rows, label);
      rounds.push(await pingIntake(rows, bare, label));
    }
    // The middle value, or the mean of the two middle ones for an even number of rounds.
    const median = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[middle] : Math.round(((sorted[middle - 1] + sorted[middle]) / 2) * 10) / 10;
    };
    const list = (key) => rounds.map((row) => row[key]).join(' / ');
    summary = [
      `Ping intake, ${ROUNDS} round(s), each beside the bare Fastify run just before it:`,
      `- share of bare: ${list('share')} % (median ${median(rounds.map((row) => row.share))} %)`,
      `- pings/s: ${list('requestsPerSec')} (median ${median(rounds.map((row) => row.requestsPerSec))})`,
      `- p99: ${list('p99')} ms (median ${median(rounds.map((row) => row.p99))} ms); p50: ${list('p50')} ms`,
    ];
    console.log(`\n${summary.join('\n')}\n`);
  }
  if (which === 'all' || which === 'availability') await availability(rows);
  if (which === 'all' || which === 'reads') await reads(rows);

  console.log('\nAll rows:');
  for (const row of rows) print(row);
  if (summary.length > 0) console.log(`\n${summary.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
