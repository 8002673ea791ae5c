'use strict';
// Alerting: latency from a FAILING event to the receiver's 2xx, and 10,000 subscriber emails to a local SMTP sink.
// Run: npm run build && node test/bench/alerting.bench.js
const http = require('node:http');
const { SMTPServer } = require('smtp-server');
const { startVigil, machine, freePort } = require('./lib');

const CHECKS = Number(process.env.BENCH_CHECKS ?? 100);
const TESTS = Number(process.env.BENCH_TESTS ?? 200);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10000);

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

function receiver() {
  const arrivals = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      arrivals.push({ at: Date.now(), body, id: req.headers['webhook-id'] });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, arrivals, close: () => server.close() })));
}

async function smtpSink() {
  const port = await freePort();
  let accepted = 0;
  let lastAt = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 100,
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        accepted++;
        lastAt = Date.now();
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${port}`, accepted: () => accepted, lastAt: () => lastAt, close: () => server.close() };
}

async function until(done, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

async function main() {
  const hook = await receiver();
  const sink = await smtpSink();
  const vigil = await startVigil({ VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', SMTP_URL: sink.url });
  const lines = [];
  try {
    const channel = await api(vigil, 'POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'bench', url: `${hook.url}/hook` } });

    // 1. Test sends: the event's append (the 202) to the receiver, on an idle system, one at a time.
    const testLatency = [];
    for (let i = 0; i < TESTS; i++) {
      const before = hook.arrivals.length;
      const sent = Date.now();
      await api(vigil, 'POST', `/v1/alert-channels/${channel.id}/test`);
      await until(() => hook.arrivals.length > before, 10_000);
      testLatency.push(hook.arrivals[before].at - sent);
    }
    lines.push(`| channel test: POST …/test → receiver 2xx (${TESTS}, one at a time) | ${percentile(testLatency, 50)} | ${percentile(testLatency, 99)} | ${Math.max(...testLatency)} |`);

    // 2. Check alerts: FAILING (its deadline) → receiver 2xx; checks pinged over 10 s so their deadlines spread.
    const heartbeat = { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' };
    const checks = [];
    for (let i = 0; i < CHECKS; i++) {
      checks.push(await api(vigil, 'POST', '/v1/checks/heartbeat', { name: `bench ${i}`, heartbeat, alertChannelSubscriptions: [{ alertChannelId: channel.id, activated: true }] }));
    }
    const base = hook.arrivals.length;
    for (const check of checks) {
      await fetch(`${vigil.url}/ping/${check.heartbeat.pingToken}`);
      await new Promise((r) => setTimeout(r, 10_000 / CHECKS));
    }
    await until(() => hook.arrivals.length - base >= CHECKS, 60_000);
    const failures = hook.arrivals.slice(base).map((a) => ({ ...a, body: JSON.parse(a.body) })).filter((a) => a.body.alertType === 'ALERT_FAILURE');
    const alertLatency = failures.map((a) => a.at - Date.parse(a.body.startedAt));
    lines.push(`| check alert: FAILING deadline → receiver 2xx (${failures.length} checks, 30 s period) | ${percentile(alertLatency, 50)} | ${percentile(alertLatency, 99)} | ${Math.max(...alertLatency)} |`);
    for (const check of checks) await api(vigil, 'DELETE', `/v1/checks/${check.id}`);

    // 3. One incident with notifySubscribers on a page with SUBSCRIBERS verified subscribers.
    const service = await api(vigil, 'POST', '/v1/status-pages/services', { name: 'API' });
    const page = await api(vigil, 'POST', '/v1/status-pages', { name: 'Bench', url: 'bench-page', cards: [{ name: 'Core', services: [{ id: service.id }] }] });
    for (let i = 0; i < SUBSCRIBERS; i += 100) {
      const subscriptions = Array.from({ length: Math.min(100, SUBSCRIBERS - i) }, (_, j) => ({ type: 'EMAIL', config: `user${i + j}@example.com` }));
      await api(vigil, 'POST', `/v1/status-pages/${page.id}/subscriptions/bulk`, { subscriptions, autoVerify: true });
    }
    const rssBefore = vigil.rssMiB();
    const started = Date.now();
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, vigil.rssMiB())), 250);
    await api(vigil, 'POST', '/v1/status-pages/incidents', {
      name: 'Bench outage',
      severity: 'MAJOR',
      services: [{ id: service.id }],
      incidentUpdates: [{ description: 'Everything is on fire.', notifySubscribers: true }],
    });
    const progress = setInterval(() => process.env.BENCH_TRACE && console.error(`${Date.now() - started} ms: ${sink.accepted()} accepted`), 1000);
    const done = await until(() => sink.accepted() >= SUBSCRIBERS, 300_000);
    clearInterval(progress);
    clearInterval(sampler);
    const seconds = ((sink.lastAt() - started) / 1000).toFixed(1);
    lines.push(`| incident → ${SUBSCRIBERS} subscriber emails accepted by a local SMTP sink | ${done ? `${seconds} s` : `timed out at ${sink.accepted()}`} | RSS ${rssBefore} → peak ${peakRss} MiB | |`);
  } finally {
    await vigil.stop();
    hook.close();
    sink.close();
  }
  console.log(`Machine: ${machine()}`);
  console.log('| measure | p50 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|');
  for (const line of lines) console.log(line);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
