'use strict';
// Heartbeat benchmarks, beside bare Fastify in the same run, 127.0.0.1 only:
//   ping          BENCH_PINGS pings (100,000) round-robin to BENCH_CHECKS checks (1,000), 100 connections;
//                 requests/s as a share of bare Fastify, p99, and bytes on disk per ping (growth of the
//                 data directory across the pings, each side of a clean shutdown); then, after a restart,
//                 BENCH_SECONDS of pings from BENCH_TARGET_CONNECTIONS (20) connections, closed loop, beside bare
//                 Fastify at the same count (how the targets of writes are measured); then BENCH_SECONDS at an even pace, BENCH_RATE or 10% of bare Fastify's requests/s
//                 (lib.js `paced`: open loop, latency from each request's due time): the rate held and its p99;
//                 then BENCH_NEW_CONNECTION_RATE (1,000/s) pings each on a new connection, as cron jobs send them
//   availability  endpoint 10 over a year of minutely pings (525,600 events), 1 connection
//   mixed         bare Fastify, then plain pings, then a third each plain, /start and /0 (same checks, same run)
//   body          BENCH_BODIES POSTs (2,000) with a 10,000-byte log body: bytes on disk per stored body
//   cron          BENCH_CRON schedule checks (10,000) all due in the same minute, grace 0: how long after the
//                 deadline each FAILING was committed (the event's occurredAt − its deadline), daemon on
// Run: npm run build && node test/bench/heartbeats.bench.js [ping|availability|mixed|body|cron]
const { join } = require('node:path');
const { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { tmpdir, loadavg } = require('node:os');
const autocannon = require('autocannon');
const Database = require('better-sqlite3');
const { startBareFastify, startProcess, load, paced, machine, createChecks, ROOT, START_FLAGS } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CHECKS = Number(process.env.BENCH_CHECKS ?? 1000);
const PINGS = Number(process.env.BENCH_PINGS ?? 100_000);
const CONNECTIONS = 100;
/** The "requests/s with p99" targets of writes are measured closed loop at this count (as `create` in platform.bench.js). */
const TARGET_CONNECTIONS = Number(process.env.BENCH_TARGET_CONNECTIONS ?? 20);
const ACCOUNT_ID = '01900000-0000-7000-8000-00000000b5e7';
const API_KEY = 'bench-key-0123456789abcdef';
const HEADERS = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
const DIST = join(ROOT, 'dist', 'libs');

/** The built API on `dataDir`, kept across restarts (the caller removes it). */
function startVigil(dataDir, env = {}) {
  const env_ = { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_API_KEY: API_KEY, VIGIL_BOOTSTRAP_ACCOUNT_ID: ACCOUNT_ID, VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000', VIGIL_PING_RATE_BURST: '0', ...env };
  return startProcess(join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js'), env_, '/healthz', START_FLAGS);
}

const dirBytes = (dir) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
/** CPU seconds (user + system) a process has used so far, from /proc: unlike requests/s, barely moved by other load. */
const cpuSeconds = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;


/**
 * `amount` pings round-robin over the tokens (each with the next of `suffixes`); requests/s timed to the
 * last answer.
 */
function pings(url, tokens, amount, suffixes = [''], body) {
  let next = 0;
  const method = body ? 'POST' : 'GET';
  const requests = [
    {
      method,
      ...(body ? { body, headers: { 'content-type': 'text/plain' } } : {}),
      setupRequest: (req) => {
        const i = next++;
        return { ...req, path: `/ping/${tokens[i % tokens.length]}${suffixes[Math.floor(i / tokens.length) % suffixes.length]}` };
      },
    },
  ];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let last = started;
    const run = autocannon({ url, connections: CONNECTIONS, amount, requests }, (error, result) =>
      error ? reject(error) : resolve({ ...result, perSecond: result.requests.total / ((last - started) / 1000) }),
    );
    run.on('response', () => (last = performance.now()));
  });
}

async function ping() {
  const bare = await startBareFastify();
  await load({ url: bare.url, duration: 2, connections: CONNECTIONS });
  const bareResult = await load({ url: bare.url, duration: DURATION, connections: CONNECTIONS });
  await load({ url: bare.url, duration: 2, connections: TARGET_CONNECTIONS });
  const bareTarget = await load({ url: bare.url, duration: DURATION, connections: TARGET_CONNECTIONS });
  await bare.stop();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  try {
    let vigil = await startVigil(dataDir);
    const tokens = await createChecks(vigil.url, CHECKS, HEADERS);
    await pings(vigil.url, tokens, 10_000); // warm-up
    await vigil.stop();
    const before = dirBytes(dataDir);
    vigil = await startVigil(dataDir);
    const cpuBefore = cpuSeconds(vigil.pid);
    const result = await pings(vigil.url, tokens, PINGS);
    const cpuPerPing = ((cpuSeconds(vigil.pid) - cpuBefore) / PINGS) * 1e6;
    const rss = vigil.rssMiB();
    await vigil.stop();
    const perPing = (dirBytes(dataDir) - before) / result['2xx'];
    const share = (result.perSecond / bareResult.requestsPerSec) * 100;
    const target = Number(process.env.BENCH_RATE || Math.ceil(bareResult.requestsPerSec / 10));
    vigil = await startVigil(dataDir);
    const path = (i) => `/ping/${tokens[i % tokens.length]}`;
    let next = 0;
    const rotating = [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path(next++) }) }];
    await load({ url: vigil.url, duration: 2, connections: TARGET_CONNECTIONS, requests: rotating }); // warm-up
    const closed = await load({ url: vigil.url, duration: DURATION, connections: TARGET_CONNECTIONS, requests: rotating });
    await paced({ url: vigil.url, rate: target, duration: 2, connections: CONNECTIONS, path }); // warm-up
    const rated = await paced({ url: vigil.url, rate: target, duration: DURATION, connections: CONNECTIONS, path });
    const cronRate = Number(process.env.BENCH_NEW_CONNECTION_RATE || 1000);
    const cron = await paced({ url: vigil.url, rate: cronRate, duration: DURATION, connections: CONNECTIONS, path, keepAlive: false });
    await vigil.stop();
    console.log(`| bare Fastify GET / (${CONNECTIONS} connections) | ${bareResult.requestsPerSec} | 100% | ${bareResult.p50} | ${bareResult.p99} | |`);
    console.log(`| GET /ping/{token} (${CHECKS} checks, ${CONNECTIONS} connections) | ${Math.round(result.perSecond)} | ${share.toFixed(1)}% | ${result.latency.p50} | ${result.latency.p99} | RSS ${rss} MiB; ${cpuPerPing.toFixed(0)} µs CPU per ping; ${result['2xx']} × 200, ${result.non2xx + result.errors + result.timeouts} other; ${perPing.toFixed(0)} bytes on disk per ping |`);
    console.log(`| bare Fastify GET / (${TARGET_CONNECTIONS} connections) | ${bareTarget.requestsPerSec} | 100% | ${bareTarget.p50} | ${bareTarget.p99} | |`);
    console.log(`| GET /ping/{token} (${TARGET_CONNECTIONS} connections, ${DURATION} s) | ${closed.requestsPerSec} | ${((closed.requestsPerSec / bareTarget.requestsPerSec) * 100).toFixed(1)}% | ${closed.p50} | ${closed.p99} | ${closed.status2xx} × 200, ${closed.non2xx} other |`);
    console.log(`| GET /ping/{token} paced at ${target}/s for ${DURATION} s | ${rated.perSecond} | ${((rated.perSecond / bareResult.requestsPerSec) * 100).toFixed(1)}% | ${rated.p50} | ${rated.p99} | max ${rated.max} ms; ${rated.total - rated.non2xx} × 2xx, ${rated.non2xx} other; client ${rated.clientLagMs} ms late at most |`);
    console.log(`| GET /ping/{token}, a new connection each, paced at ${cronRate}/s for ${DURATION} s | ${cron.perSecond} | ${((cron.perSecond / bareResult.requestsPerSec) * 100).toFixed(1)}% | ${cron.p50} | ${cron.p99} | max ${cron.max} ms; ${cron.total - cron.non2xx} × 2xx, ${cron.non2xx} other; client ${cron.clientLagMs} ms late at most |`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Plain pings, then the same number mixing plain, /start and /0 (each check: start, finish, plain in turn), beside bare Fastify. */
async function mixed() {
  const bare = await startBareFastify();
  await load({ url: bare.url, duration: 2, connections: CONNECTIONS });
  const bareResult = await load({ url: bare.url, duration: DURATION, connections: CONNECTIONS });
  await bare.stop();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-mixed-'));
  try {
    const vigil = await startVigil(dataDir);
    try {
      const tokens = await createChecks(vigil.url, CHECKS, HEADERS);
      await pings(vigil.url, tokens, 10_000); // warm-up
      const plain = await pings(vigil.url, tokens, PINGS);
      const mix = await pings(vigil.url, tokens, PINGS, ['/start', '/0', '']);
      console.log(`| bare Fastify GET / (${CONNECTIONS} connections) | ${bareResult.requestsPerSec} | 100% | ${bareResult.p50} | ${bareResult.p99} | |`);
      for (const [what, r] of [['plain GET /ping/{token}', plain], ['mixed: ⅓ /start, ⅓ /0, ⅓ plain', mix]]) {
        const share = (r.perSecond / bareResult.requestsPerSec) * 100;
        console.log(`| ${what} (${CHECKS} checks) | ${Math.round(r.perSecond)} | ${share.toFixed(1)}% | ${r.latency.p50} | ${r.latency.p99} | ${r['2xx']} × 200, ${r.non2xx + r.errors + r.timeouts} other |`);
      }
      console.log(`| mixed ÷ plain | ${((mix.perSecond / plain.perSecond) * 100).toFixed(1)}% | | | | |`);
    } finally {
      await vigil.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Bytes on disk per POST with a 10,000-byte log body, between two clean shutdowns. */
async function body() {
  const count = Number(process.env.BENCH_BODIES ?? 2000);
  // A build log: lines that repeat in shape but not in content, as a job's output does.
  let log = '';
  for (let i = 0; log.length < 10_000; i++) log += `2026-11-25T14:${String(i % 60).padStart(2, '0')}:07Z step ${i}: copied ${(i * 7919) % 100_003} files, ${Math.random().toString(36).slice(2)} ok\n`;
  log = log.slice(0, 10_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-body-'));
  try {
    let vigil = await startVigil(dataDir);
    const tokens = await createChecks(vigil.url, Math.min(CHECKS, 200), HEADERS);
    await vigil.stop();
    const before = dirBytes(dataDir);
    vigil = await startVigil(dataDir);
    const result = await pings(vigil.url, tokens, count, [''], log);
    await vigil.stop();
    const perBody = (dirBytes(dataDir) - before) / result['2xx'];
    console.log(`| POST /ping/{token} with a 10,000-byte log body | ${Math.round(result.perSecond)} | | ${result.latency.p50} | ${result.latency.p99} | ${result['2xx']} × 200; ${perBody.toFixed(0)} bytes on disk per stored body (event, indexes, read models) |`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Schedule checks all due at one instant; the daemon's watchdog fails them; lag = commit time − deadline. */
async function cron() {
  const count = Number(process.env.BENCH_CRON ?? 10_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-cron-'));
  try {
    const vigil = await startVigil(dataDir);
    // Far enough ahead for the creates (a few hundred a second) to finish before the deadline.
    const due = new Date(Math.ceil((Date.now() + 60_000 + count * 8) / 60_000) * 60_000);
    const schedule = `${due.getUTCMinutes()} ${due.getUTCHours()} * * *`;
    const ids = [];
    for (let i = 0; i < count; i += 20) {
      const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) =>
        fetch(`${vigil.url}/v1/checks/heartbeat`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ name: `cron ${i + j}`, heartbeat: { schedule, timezone: 'UTC', grace: 0, graceUnit: 'seconds' } }),
        }).then((r) => r.json()),
      );
      for (const check of await Promise.all(batch)) ids.push(check.id);
    }
    const createdBy = Date.now();
    if (createdBy > due.getTime()) throw new Error('creates took past the deadline; lower BENCH_CRON');
    await new Promise((resolve) => setTimeout(resolve, due.getTime() - Date.now() + 15_000));
    const rss = vigil.rssMiB();
    await vigil.stop();
    const { loadConfig } = require(join(DIST, 'platform/src/config'));
    const { createLogger } = require(join(DIST, 'platform/src/logger'));
    const { openStores } = require(join(DIST, 'platform/src/stores'));
    const { ManualClock } = require(join(DIST, 'core/src/clock'));
    const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dataDir }), createLogger('silent'), new ManualClock());
    const lags = [];
    for (const id of ids) {
      const events = await stores.eventStore.readStream(`heartbeat-${id}`, { direction: 'backwards', maxCount: 5 });
      const failed = events.filter((e) => e.type === 'HeartbeatFailed').pop();
      if (failed) lags.push(Date.parse(failed.metadata.occurredAt) - Date.parse(failed.data.deadline));
    }
    await stores.close();
    lags.sort((a, b) => a - b);
    const at = (q) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))];
    console.log(`| watchdog: ${count} cron checks due at one instant | | | ${at(0.5)} | ${at(0.99)} | ${lags.length} FAILING written; last ${lags[lags.length - 1]} ms after the deadline; ${lags.filter((l) => l <= 2000).length} within 2 s; RSS ${rss} MiB |`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One check and a year of minutely pings (one in 97 a FAILING), through the real projections. */
async function seedYear(dataDir, count, end) {
  const { loadConfig } = require(join(DIST, 'platform/src/config'));
  const { createLogger } = require(join(DIST, 'platform/src/logger'));
  const { openStores } = require(join(DIST, 'platform/src/stores'));
  const { ManualClock } = require(join(DIST, 'core/src/clock'));
  const read = (name) => require(join(DIST, 'heartbeats/src/read', name));
  const { newEventId } = require(join(DIST, 'core/src/ids'));
  const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dataDir }), createLogger('silent'), new ManualClock());
  stores.engine.register(read('heartbeat-checks.projection').heartbeatChecksProjection);
  const { heartbeatTimersProjection, heartbeatRollupsProjection } = read('heartbeat.projections');
  stores.engine.register(heartbeatTimersProjection);
  stores.engine.register(heartbeatRollupsProjection);
  await stores.engine.start();
  const checkId = '01900000-0000-7000-8000-0000000c4ec1';
  const start = end - 365 * 86_400_000;
  const meta = (at) => ({ accountId: ACCOUNT_ID, occurredAt: new Date(at).toISOString() });
  const config = {
    name: 'year', activated: true, muted: false, tags: [], description: null,
    heartbeat: { period: 1, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes', pingToken: '5f0c7f0e-7a47-4b0f-9d3c-000000000001' },
    triggerIncident: null, alertSettings: null, alertChannelSubscriptions: [],
  };
  await stores.eventStore.appendToStream(`check-${checkId}`, [{ type: 'HeartbeatCheckCreated', data: { id: checkId, accountId: ACCOUNT_ID, config }, metadata: meta(start) }]);
  const step = (end - start) / count;
  for (let i = 0; i < count; i += 2000) {
    const events = [];
    for (let j = i; j < Math.min(count, i + 2000); j++) {
      const at = Math.round(start + j * step);
      const iso = new Date(at).toISOString();
      events.push(
        j % 97 === 0
          ? { type: 'HeartbeatFailed', data: { eventId: newEventId(at), checkId, deadline: iso, first: true }, metadata: meta(at) }
          : { type: 'HeartbeatPingReceived', data: { eventId: newEventId(at), checkId, state: 'RECEIVED', at: iso, source: null, userAgent: 'bench' }, metadata: meta(at) },
      );
    }
    await stores.eventStore.appendToStream(`heartbeat-${checkId}`, events);
  }
  await stores.close();
  return checkId;
}

async function availability() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-year-'));
  try {
    // A first start creates every read model; the seed then fills the heartbeat ones inline.
    await (await startVigil(dataDir)).stop();
    const end = Date.now();
    const checkId = await seedYear(dataDir, 525_600, end);
    // The other contexts' read models have nothing to take from these events: they start at the head.
    const db = new Database(join(dataDir, 'vigil.db'));
    db.prepare("UPDATE rm_checkpoints SET position = (SELECT seq FROM sqlite_sequence WHERE name = 'events')").run();
    db.close();
    const vigil = await startVigil(dataDir, { VIGIL_EVENT_RETENTION_DAYS: '36500' });
    try {
      for (const [window, query] of [
        ['365 days', `?startTime=${new Date(end - 365 * 86_400_000).toISOString()}&endTime=${new Date(end).toISOString()}`],
        ['24 h (default)', ''],
      ]) {
        const url = `${vigil.url}/v1/checks/heartbeats/${checkId}/availability${query}`;
        const sample = await fetch(url, { headers: HEADERS }).then((r) => r.json());
        await load({ url, headers: HEADERS, duration: 2, connections: 1 });
        const result = await load({ url, headers: HEADERS, duration: DURATION, connections: 1 });
        console.log(`| availability, ${window}, 525,600 events | ${result.requestsPerSec} | | ${result.p50} | ${result.p99} | total ${sample.totalEntitiesCurrentPeriod}, ratio ${sample.successRatio.currentPeriod} |`);
      }
    } finally {
      await vigil.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const which = process.argv[2] ?? 'all';
  console.log(`Machine: ${machine()}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| what | requests/s | % of bare | p50 ms | p99 ms | notes |');
  console.log('|---|---|---|---|---|---|');
  if (which === 'all' || which === 'ping') await ping();
  if (which === 'all' || which === 'availability') await availability();
  if (which === 'all' || which === 'mixed') await mixed();
  if (which === 'all' || which === 'body') await body();
  if (which === 'all' || which === 'cron') await cron();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
